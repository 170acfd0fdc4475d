"""The daily round: posting a question, answers and votes, the reveal, and the
channel's leaderboard and stats."""
