"""The answer coach wired into the running bot: consent, the outbox action that asks the
operator's model, the member's private card and what they decide (``bot.coach`` is the pure
core it uses)."""
