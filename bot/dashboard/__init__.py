"""The browser pages opened from chat (``/quiz dashboard``): the lead's page of a channel
and a member's own page, by signed, expiring links."""
