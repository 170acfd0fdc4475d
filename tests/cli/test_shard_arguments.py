"""`quizbot run --shards … --shard-count …`: every mistake is refused with a clear error
before anything connects."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.cli.main import main
from adapters.discord.shards import ShardPlan, format_ids, parse_shard_ids, shard_plan
from bot.settings import SettingsError


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    for name in ("DISCORD_SHARDS", "DISCORD_SHARD_COUNT", "PLATFORM", "DISCORD_API_URL"):
        monkeypatch.delenv(f"QUIZBOT_{name}", raising=False)
    monkeypatch.setenv("QUIZBOT_DISCORD_TOKEN", "not-a-real-token")


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", (0, 1, 2, 3)), ("5", (5,)), ("0,2,5-7", (0, 2, 5, 6, 7)), (" 3 , 1 ", (1, 3))],
)
def test_shard_ids_and_ranges_are_read(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text) == ids


@pytest.mark.parametrize(
    ("shards", "count", "says"),
    [
        ("0-3", None, "--shards needs --shard-count"),
        ("0-3", 0, "--shard-count must be at least 1, not 0"),
        (None, -2, "--shard-count must be at least 1, not -2"),
        ("0-8", 8, "shard 8 is not below --shard-count 8 (the ids run from 0 to 7)"),
        ("9,12", 8, "shard 9,12 is not below --shard-count 8"),
        ("3-1", 8, "the range '3-1' runs backwards; write 1-3"),
        ("0-x", 8, "'0-x' is not a shard id or range"),
        ("-1", 8, "'-1' is not a shard id or range"),
        ("0,,1", 8, "has an empty item"),
        ("", 8, "is empty"),
        ("0-2,2", 8, "lists shard 2 more than once"),
    ],
)
def test_a_wrong_shard_argument_is_a_clear_error(
    shards: str | None, count: int | None, says: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        shard_plan(shards, count)
    assert says in str(caught.value)


def test_a_count_alone_runs_every_shard_and_nothing_runs_one() -> None:
    assert shard_plan(None, 3) == ShardPlan((0, 1, 2), 3)
    assert shard_plan(None, None) is None
    assert format_ids((0, 1, 2, 5, 7, 8)) == "0-2,5,7-8"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--shards", "0-3"], "--shards needs --shard-count"),
        (["--shards", "4-8", "--shard-count", "8"], "shard 8 is not below --shard-count 8"),
        (["--shards", "zero", "--shard-count", "8"], "'zero' is not a shard id or range"),
        (["--platform", "console", "--shard-count", "2"], "for the Discord platform only"),
    ],
)
def test_quizbot_run_refuses_wrong_shards_before_connecting(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    platform = [] if "--platform" in argv else ["--platform", "discord"]
    assert main(["run", *platform, *argv]) == 2
    error = capsys.readouterr().err
    assert error.startswith("quizbot: ")
    assert says in error
