"""A message Slack refuses as too long splits in two: its blocks in halves, or a lone
block's fields, elements or text, never inside an escaped entity."""

from __future__ import annotations

from adapters.slack.render import SlackMessage, render_card, split_message
from bot.kernel.render import Card


def test_a_message_splits_further_down_to_one_block_and_never_inside_an_entity() -> None:
    [message] = render_card(Card(title="Entities", body="&" * 700))
    [half, other] = split_message(message)
    assert half.blocks + other.blocks == message.blocks
    assert half.text == message.text and other.text.endswith("(continued)")
    section = {"type": "section", "text": {"type": "mrkdwn", "text": "&amp;" * 501}}
    [one, two] = split_message(SlackMessage("t", [section]))
    texts = [one.blocks[0]["text"]["text"], two.blocks[0]["text"]["text"]]
    assert "".join(texts) == "&amp;" * 501 and all(t.endswith(";") for t in texts)
    assert split_message(SlackMessage("t", [{"type": "divider"}])) == []


def test_fields_and_context_elements_split_in_halves() -> None:
    fields = {"type": "section", "fields": [{"type": "mrkdwn", "text": str(i)} for i in range(5)]}
    [one, two] = split_message(SlackMessage("t", [fields]))
    assert [f["text"] for m in (one, two) for f in m.blocks[0]["fields"]] == list("01234")
