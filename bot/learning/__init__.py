"""The learning loop: grades, each member's memory model (FSRS) and what comes due."""
