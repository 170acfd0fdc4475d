"""The pages of ``/quiz dashboard`` on the health server: ``GET /dashboard/lead?...`` and
``GET /dashboard/member?...``, HTML under a strict Content-Security-Policy."""

from __future__ import annotations

from aiohttp import web

from bot.dashboard.links import PATH
from bot.dashboard.pages import HEADERS, DashboardPages


def add_dashboard_routes(app: web.Application, pages: DashboardPages) -> None:
    async def page(request: web.Request) -> web.Response:
        shown = await pages.render(request.match_info["page"], request.query)
        return web.Response(
            status=shown.status,
            text=shown.html,
            content_type="text/html",
            charset="utf-8",
            headers=HEADERS,
        )

    app.router.add_get(PATH + "{page}", page)
