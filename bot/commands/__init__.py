"""The ``/quiz`` command: typed commands, the grammar, the registry and the runner."""
