"""The learning loop: grades (of rounds and practice), each member's memory model (FSRS),
what comes due, and their goal."""
