"""Cards as embeds: within every Discord limit, nothing lost, markers on each message."""

from __future__ import annotations

import pytest

from adapters.discord.nonce import marker_for_key, nonce_for_key
from adapters.discord.render import (
    CHARACTERS_PER_MESSAGE,
    DESCRIPTION_LIMIT,
    EMBEDS_PER_MESSAGE,
    FIELD_VALUE_LIMIT,
    FIELDS_PER_EMBED,
    TITLE_LIMIT,
    message_count,
    render_card,
)
from bot.kernel.render import Card, Field


def test_a_huge_card_respects_every_limit_and_keeps_all_text() -> None:
    words = [f"w{i}" for i in range(9000)]
    fields = tuple(Field(f"Follow-up {i}", " ".join(words[:400])) for i in range(40))
    card = Card(title="T" * 300, body=" ".join(words), fields=fields, footer="React to reveal")
    markers = [marker_for_key("round:1:outline", part) for part in range(message_count(card))]

    messages = render_card(card, markers)

    assert len(messages) == message_count(card) > 1
    for index, embeds in enumerate(messages):
        assert len(embeds) <= EMBEDS_PER_MESSAGE
        assert sum(len(e) for e in embeds) <= CHARACTERS_PER_MESSAGE  # Embed.__len__: Discord's
        for embed in embeds:
            assert len(embed.title or "") <= TITLE_LIMIT
            assert len(embed.description or "") <= DESCRIPTION_LIMIT
            assert len(embed.fields) <= FIELDS_PER_EMBED
            assert all(len(f.value or "") <= FIELD_VALUE_LIMIT for f in embed.fields)
        assert (embeds[-1].footer.text or "").endswith(markers[index])
    description = " ".join(str(e.description or "") for embeds in messages for e in embeds).split()
    assert all(word in description for word in words)
    assert "React to reveal" in (messages[-1][-1].footer.text or "")
    values = [f.value or "" for embeds in messages for e in embeds for f in e.fields]
    field_words = " ".join(values).split()
    assert field_words.count("w0") == field_words.count("w399") == len(fields)


def test_bullets_and_fields_are_rendered() -> None:
    card = Card(title="Outline", bullets=("first", "second"), fields=(Field("Why", "because"),))

    [[embed]] = render_card(card)

    assert embed.description == "• first\n• second"
    assert [(f.name, f.value) for f in embed.fields] == [("Why", "because")]


def test_nonces_are_stable_distinct_and_fit_discord() -> None:
    keys = [f"round:{i}:{kind}" for i in range(200) for kind in ("question", "outline")]
    nonces = {nonce_for_key(k) for k in keys}

    assert len(nonces) == len(keys)
    assert nonce_for_key("round:1:question") == nonce_for_key("round:1:question")
    assert nonce_for_key("round:1:question", 1) != nonce_for_key("round:1:question")
    assert all(0 < n < 2**63 and len(str(n)) <= 25 for n in nonces)
    with pytest.raises(ValueError, match="outbox key"):
        nonce_for_key("")
