"""The daily round: posting a question, answers and votes, the reveal, grading a round."""
