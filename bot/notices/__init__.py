"""Opt-in notices: a direct message when the channel's question posts, and a last call."""
