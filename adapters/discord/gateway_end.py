"""Why the Discord gateway connection ended for good, in one line an operator can act on.

discord.py reconnects by itself after network errors and the close codes it
can recover from; what reaches us from ``Client.connect`` is final: a rejected
token (close 4004), intents the application may not use (4013, 4014), or a
close Discord asks us not to retry.
"""

from __future__ import annotations

import discord

INTENTS_HINT = (
    "enable the Message Content intent: Developer Portal, your application, Bot, "
    "Privileged Gateway Intents"
)
CLOSE_CAUSES = {
    4004: "the Discord token was rejected (gateway close 4004): check QUIZBOT_DISCORD_TOKEN",
    4010: "Discord refused the shard (gateway close 4010)",
    4011: "Discord requires sharding for this bot (gateway close 4011)",
    4012: "Discord refused the gateway version (gateway close 4012)",
    4013: "Discord refused the intents (gateway close 4013)",
    4014: f"Discord refused a privileged intent (gateway close 4014): {INTENTS_HINT}",
}


def end_cause(error: BaseException | None) -> str:
    """The one-line cause of the gateway's end (``error`` is what connect raised)."""
    if error is None:
        return "the Discord gateway connection closed"
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return CLOSE_CAUSES[4014]
    if isinstance(error, discord.ConnectionClosed):
        return CLOSE_CAUSES.get(
            error.code, f"Discord closed the gateway connection (code {error.code})"
        )
    return f"the Discord gateway connection failed: {type(error).__name__}: {error}"
