"""The cards of seasons: the post at the turn, the standings, a member's titles."""

from __future__ import annotations

from collections.abc import Sequence

from bot.kernel.render import Card, Field
from bot.seasons.standings import SHOWN, Standing, Standings
from bot.seasons.store import Champion, MemberTitle, SeasonRecord, Title

TITLE_NAMES = {
    Title.POINTS: "Most points",
    Title.IMPROVED: "Most improved",
    Title.HELPFUL: "Most helpful",
}
HOW = {
    Title.POINTS: "points earned in the season, as the leaderboard counts them",
    Title.IMPROVED: "the largest gain in expected recall over the questions they have seen",
    Title.HELPFUL: "reviews that judged an answer as its author did",
}


def shown_score(title: Title, score: float) -> str:
    if title is Title.POINTS:
        return f"{score:g} points"
    if title is Title.IMPROVED:
        return f"{score:+.1f} points of expected recall"
    return f"{score:g} helpful review(s)"


def season_post_card(record: SeasonRecord, role: str | None) -> Card:
    """The post at the turn: the past season's champions; ``role`` is mentioned (the only
    mention the post carries) and named as what the champions may claim."""
    fields = tuple(_champion_field(c) for c in record.champions)
    body = (
        f"Season {record.season} is over. Its champions:"
        if fields
        else f"Season {record.season} is over; nobody took a title this time."
    )
    footer = "A new season starts today. `/quiz season` shows the standings."
    if role and fields:
        footer = "Champions: ask an admin for the group mentioned above. " + footer
    return Card(
        f"🏆 Season {record.season}",
        body,
        fields=fields,
        footer=footer,
        ping=(role or "") if fields else "",
    )


def _champion_field(champion: Champion) -> Field:
    return Field(
        TITLE_NAMES[champion.title],
        f"{champion.name}: {shown_score(champion.title, champion.score)}",
    )


def standings_card(standings: Standings, archive: Sequence[SeasonRecord], running: bool) -> Card:
    """``/quiz season``: the season's three rankings and the archive of past champions."""
    season = standings.season
    fields = [
        _ranking_field(title, ranking)
        for title, ranking in (
            (Title.POINTS, standings.points),
            (Title.IMPROVED, standings.improved),
            (Title.HELPFUL, standings.helpful),
        )
    ]
    if standings.unranked:
        fields.append(
            Field("Not ranked (away for most of the season)", ", ".join(standings.unranked))
        )
    if archive:
        fields.append(Field("Past champions", "\n".join(_archive_line(r) for r in archive[:6])))
    state = "running, standings so far" if running else "over"
    return Card(
        f"Season {season.name}",
        f"{season.first_day:%d %b %Y} to {season.last_day:%d %b %Y} ({state}).",
        fields=tuple(fields),
        footer="Points: "
        + HOW[Title.POINTS]
        + ". Improved: "
        + HOW[Title.IMPROVED]
        + ". Helpful: "
        + HOW[Title.HELPFUL]
        + ".",
    )


def _ranking_field(title: Title, ranking: Sequence[Standing]) -> Field:
    shown = [s for s in ranking if s.score > 0][:SHOWN]
    lines = [f"{n}. {s.name}: {shown_score(title, s.score)}" for n, s in enumerate(shown, 1)]
    return Field(TITLE_NAMES[title], "\n".join(lines) or "nobody yet")


def _archive_line(record: SeasonRecord) -> str:
    names = ", ".join(f"{TITLE_NAMES[c.title].lower()} {c.name}" for c in record.champions)
    return f"{record.season}: {names or 'no titles'}"


def titles_field(titles: Sequence[MemberTitle]) -> Field:
    """``/quiz me``: the titles the member won."""
    lines = [f"{TITLE_NAMES[t.title]}, {t.season} in #{t.channel_name}" for t in titles[:SHOWN]]
    more = len(titles) - SHOWN
    if more > 0:
        lines.append(f"and {more} more")
    return Field("Season titles", "\n".join(lines))
