"""Learning from each other: grading from the checklist, peer reviews, the best answer."""
