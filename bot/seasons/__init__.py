"""Monthly or quarterly seasons of a channel, and their champions."""
