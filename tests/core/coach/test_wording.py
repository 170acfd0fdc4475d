"""The one normalisation quotes are compared with, and the way back to the answer's own text."""

from __future__ import annotations

from bot.coach.wording import content_words, normalise, normalised


def test_case_whitespace_typography_and_markup_are_folded() -> None:
    assert normalised("  Don’t **SHARD**\n\t`the` KV—cache ⟦x⟧ ") == "don't shard the kv-cache [x]"
    assert normalised("Stra\u00dfe ﬁne") == "strasse fine"  # casefold and compatibility forms


def test_a_passage_of_the_normalised_text_maps_back_to_the_text_as_written() -> None:
    written = "We **Shard**  the\nweights; Straße"
    folded = normalise(written)
    start = folded.text.index("shard the weights")
    assert folded.source_of(start, start + len("shard the weights")) == "**Shard**  the\nweights"
    start = folded.text.index("ss")
    assert folded.source_of(start, start + 2) == "ß"


def test_a_decomposed_accent_reads_as_the_composed_one() -> None:
    assert normalised("cafe\u0301") == normalised("café")


def test_content_words_are_stems_without_stop_words() -> None:
    assert content_words("The shards are sharded by sharding") == {"shard"}
    assert content_words("it is what it is, basically") == frozenset()
