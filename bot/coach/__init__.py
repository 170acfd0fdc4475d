"""The answer coach: an operator's OpenAI-compatible model proposes which key points an answer
covers, each with a verbatim quote, and quizbot keeps only the ticks its own checks can see
in the answer."""
