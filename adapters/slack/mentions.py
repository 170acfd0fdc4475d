"""How an admin names a Slack user group in ``/quiz config ping``: its mention, as Slack
escapes "@group" in a slash command's text, or its id."""

from __future__ import annotations

import re

USER_GROUP_MENTION = re.compile(r"<!subteam\^([A-Z0-9]{2,20})(?:\|[^>]*)?>")
USER_GROUP_FORM = "a Slack user group (its id, such as S0123ABCD, from the group's profile)"


def mentioned_user_group(typed: str) -> str | None:
    """The id of the user group ``typed`` mentions (``<!subteam^S0123ABCD|@backend>``),
    else None."""
    found = USER_GROUP_MENTION.fullmatch(typed)
    return found.group(1) if found else None
