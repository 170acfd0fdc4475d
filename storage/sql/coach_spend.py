"""What the coach spent, added to the day's usage of the workspace and of the member."""

from __future__ import annotations

from datetime import date

from storage.sql.session import Session


async def spend(
    session: Session,
    platform: str,
    workspace: str,
    member_id: int,
    day: date,
    requests: int,
    tokens: int,
) -> None:
    await session.execute(
        "INSERT INTO coach_workspace_usage (platform, workspace, day, requests, tokens)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, workspace, day) DO UPDATE"
        " SET requests = coach_workspace_usage.requests + excluded.requests,"
        " tokens = coach_workspace_usage.tokens + excluded.tokens",
        (platform, workspace, day.isoformat(), requests, tokens),
    )
    await session.execute(
        "INSERT INTO coach_member_usage (member_id, day, requests) VALUES (?, ?, ?)"
        " ON CONFLICT (member_id, day) DO UPDATE"
        " SET requests = coach_member_usage.requests + excluded.requests",
        (member_id, day.isoformat(), requests),
    )
