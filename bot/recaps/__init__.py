"""Weekly recaps and the charts they and ``/quiz me`` show."""
