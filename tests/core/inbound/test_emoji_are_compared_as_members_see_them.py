"""The core compares emoji as members see them: skin tones, variation selectors and
short codes aside; and it counts the emoji of a string to refuse two as one."""

from __future__ import annotations

import pytest

from bot.kernel.emoji import canonical, emoji_count, same_emoji


@pytest.mark.parametrize("seen", ["👍", "👍🏽", "👍🏿", ":+1:", ":thumbsup:", ":+1::skin-tone-3:"])
def test_every_thumbs_up_is_the_vote_emoji(seen: str) -> None:
    assert same_emoji(seen, "👍")


def test_other_emoji_stay_apart() -> None:
    assert not same_emoji("👎🏽", "👍")
    assert not same_emoji(":partyparrot:", "💡")
    assert same_emoji("❤️", "❤")
    assert canonical(":bulb:") == "💡" and canonical("✋🏾") == "✋"
    assert canonical(":partyparrot:") == ":partyparrot:"


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("💡", 1),
        (":bulb:", 1),
        ("👩🏽‍💻", 1),
        ("🇩🇪", 1),
        ("1️⃣", 1),
        ("<:party:123456>", 1),
        ("💡💡", 2),
        ("🇩🇪🇫🇷", 2),
        (":bulb::bulb:", 2),
        ("💡x", 2),
        ("<:a:1><a:b:2>", 2),
    ],
)
def test_emoji_are_counted_as_members_see_them(text: str, count: int) -> None:
    assert emoji_count(text) == count
