"""Rendering cards as Block Kit: escaping, limits, splitting without loss."""

from __future__ import annotations

import re

from adapters.slack.render import (
    MAX_BLOCKS_PER_MESSAGE,
    SECTION_TEXT_LIMIT,
    escape,
    render_card,
    split_escaped,
)
from bot.kernel.render import Button, Card, CardKind, Field


def _texts(blocks: list[dict[str, object]]) -> list[str]:
    found: list[str] = []
    for block in blocks:
        text = block.get("text")
        if isinstance(text, dict):
            found.append(str(text["text"]))
        for key in ("fields", "elements"):
            for item in block.get(key, ()):  # type: ignore[attr-defined]
                if item.get("type") in ("mrkdwn", "plain_text"):
                    found.append(str(item["text"]))
    return found


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def test_escape_makes_mentions_and_links_inert() -> None:
    assert escape("<!channel> & <@U123> <https://x|y>") == (
        "&lt;!channel&gt; &amp; &lt;@U123&gt; &lt;https://x|y&gt;"
    )


def test_question_card_has_header_body_context_and_reveal_button() -> None:
    card = Card(
        title="Question #3",
        body="Why is NCCL all-reduce slow?",
        fields=(Field("Topic", "gpu", inline=True),),
        footer="React 💡 to reveal",
        buttons=(Button("Reveal outline", "reveal", "42"),),
        kind=CardKind.QUESTION,
    )
    [message] = render_card(card)
    types = [b["type"] for b in message.blocks]
    assert types == ["header", "section", "context", "context", "actions"]
    assert message.blocks[0]["text"] == {"type": "plain_text", "text": "Question #3", "emoji": True}
    assert message.blocks[2]["elements"][0]["text"] == "*Topic:* gpu"
    button = message.blocks[-1]["elements"][0]
    assert button["action_id"] == "quiz:reveal"
    assert button["value"] == "42"
    assert message.text == "Question #3"


def test_member_text_is_escaped_in_every_mrkdwn_text() -> None:
    hostile = "<!channel> @here <@U123> & <!subteam^S1>"
    card = Card(
        title="Sorry",
        body=hostile,
        bullets=(hostile,),
        fields=(Field(hostile, hostile, inline=True), Field("Name", hostile)),
        footer=hostile,
    )
    [message] = render_card(card)
    texts = [*_texts(message.blocks), message.text]
    assert not any(re.search(r"<[!@#]", t) for t in texts)
    assert sum("&lt;!channel&gt;" in t for t in texts) >= 5


def test_long_body_is_split_across_sections_and_nothing_is_lost() -> None:
    words = [f"word{i}&<x>" for i in range(2500)]
    body = " ".join(words)
    messages = render_card(Card(title="Long", body=body))
    sections = [b["text"]["text"] for m in messages for b in m.blocks if b["type"] == "section"]
    assert len(sections) > 1
    assert all(len(s) <= SECTION_TEXT_LIMIT for s in sections)
    assert _unescape(" ".join(sections)).split() == words


def test_cards_beyond_fifty_blocks_become_several_messages() -> None:
    bullets = tuple(f"item {i} " + "x" * 2900 for i in range(120))
    messages = render_card(Card(title="Many", bullets=bullets))
    assert len(messages) >= 3
    assert all(len(m.blocks) <= MAX_BLOCKS_PER_MESSAGE for m in messages)
    joined = "\n".join(t for m in messages for t in _texts(m.blocks))
    for i in (0, 59, 119):
        assert f"item {i} " in joined
    assert messages[1].text.endswith("(continued)")


def test_long_title_becomes_bold_sections_not_a_truncated_header() -> None:
    title = "T" * 400
    [message] = render_card(Card(title=title))
    assert message.blocks[0]["type"] == "section"
    assert "".join(b["text"]["text"].strip("*") for b in message.blocks) == title


def test_split_escaped_never_cuts_an_entity() -> None:
    chunks = split_escaped("&" * 1000, 100)
    assert all(len(c) <= 100 for c in chunks)
    assert all(re.fullmatch(r"(&amp;)+", c) for c in chunks)
    assert sum(c.count("&amp;") for c in chunks) == 1000
