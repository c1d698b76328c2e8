"""The scoreboard's ASGI app (Starlette): the page, its live feed and its actions.

Routes (``docs/web.md``):

* ``GET /`` -- the game's page (plain HTML, CSS and JS, no build step, no CDN: the shared
  files from ``static/``; ``GET /static/games/KIND.js`` and ``KIND.css`` -- a game's page
  script and CSS, from the ``page/`` folder of its package,
  :func:`firmware_host.games.registry.pages`);
* ``GET /api/view`` -- the view message (below) as JSON;
* ``POST /api/actions`` -- one action (:mod:`firmware_host.web.actions`); the reply;
* ``WS /ws`` -- the view message on connect and on every change; the client may send
  actions, each answered by a reply message;
* ``GET /staff`` -- the staff view (the staff PIN unlocks it): staff actions, the last look;
* ``GET /api/staff/look`` and ``GET /api/staff/look.jpg`` -- the last look
  (:class:`~firmware_host.web.look.LastLook`) and its frame, only with the staff PIN in
  the ``X-Staff-Pin`` header (403 without it, 404 when there is no frame);
* ``GET /api/messages?lang=LANG`` -- the page's words in ``LANG`` (the table's language
  when it is missing or unknown; an unknown one is logged): ``{"language", "default",
  "languages": [{"code", "name"}], "plural", "messages"}`` (:mod:`firmware_host.i18n`);
* ``GET /healthz`` -- ``ok``; ``GET /favicon.ico`` -- the table's icon.

``WS /ws?lang=LANG`` says the view's words (status, verdict, question) in ``LANG``, chosen
the same way.

The page, the actions and the view's keys are the game's
:class:`~firmware_host.web.frontend.Frontend`'s. For Drop It the view message is
``{"type": "view", "view": VIEW, "svg": SVG, "staff": STAFF, "screen": bool, "phones": bool,
"players": [...], "join": {"code", "url", "qr"} | null, "simulated": bool}`` (a dice
game's has no ``svg``); ``join`` (the code and its QR code as SVG) only goes to the table's
screen; ``simulated`` is true when the table runs on the simulator (the page's badge). Replies are
``{"type": "done"}``, ``{"type": "joined", "seat", "token"}`` or ``{"type": "error",
"error"}``, each with the action's ``ref``; over HTTP the status is 200, 400 (malformed),
403 (wrong code, PIN or seat) or 409 (the game is not waiting for that).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit

import segno
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from firmware_host.errors import IllegalMove, InputError
from firmware_host.games.registry import pages
from firmware_host.i18n import (
    SOURCE_LANGUAGE,
    Translator,
    language_name,
    languages,
    page_messages,
    plural_expression,
    translator,
)
from firmware_host.web.access import Access
from firmware_host.web.actions import MAX_MESSAGE_BYTES, Join, Refused, SeatMessage, Staff
from firmware_host.web.frontend import STATIC, Frontend
from firmware_host.web.game_feed import GameFeed, PageView
from firmware_host.web.look import NO_CAMERA, LastLook

PIN_HEADER = "x-staff-pin"
"""The header that carries the staff PIN on the staff view's reads."""

log = logging.getLogger("firmware_host.web")

ActionT = TypeVar("ActionT", bound=SeatMessage)
ViewT = TypeVar("ViewT", bound=PageView)


class Desk(Generic[ActionT, ViewT]):
    """Takes one untrusted message from a client and answers it: parse, check, act (the
    ``feed`` and its ``frontend`` are of the same game's actions and views)."""

    def __init__(
        self,
        feed: GameFeed[ActionT, ViewT],
        access: Access,
        frontend: Frontend[ActionT, ViewT],
        simulated: bool = False,
        language: str = SOURCE_LANGUAGE,
    ) -> None:
        self.simulated = simulated
        self.feed = feed
        self.access = access
        self.frontend = frontend
        self.language = language
        """The table's language: what a client that asks for none, or an unknown one, sees."""
        self._rendered: dict[str, tuple[ViewT, dict[str, Any]]] = {}

    def translator(self, asked: str | None, host: str) -> Translator:
        """The words for a client at ``host`` that asked for language ``asked``: the
        table's when it asked for none, or for one the table cannot speak (logged)."""
        if asked and asked in languages():
            return translator(asked)
        if asked:
            log.warning(
                "unknown language %r asked by %s: showing the table's (%s)",
                asked,
                host,
                self.language,
            )
        return translator(self.language)

    async def handle(
        self, raw: str | bytes, host: str, t: Translator | None = None
    ) -> tuple[int, dict[str, Any]]:
        """The HTTP status and the reply for message ``raw`` from address ``host``, a
        refusal said in ``t``'s language (the table's by default; a malformed message's
        error names its key in English). A device that has not joined is told so with
        ``"seated": false``."""
        t = t or translator(self.language)
        try:
            action = self.frontend.parse(raw)
        except InputError as exc:
            return 400, {"type": "error", "error": str(exc), "ref": None}
        ref = action.ref
        view = self.feed.snapshot()
        try:
            if isinstance(action, Join):
                token = self.access.join(view.game_id, view.players, action.seat, action.code, host)
                return 200, {"type": "joined", "seat": action.seat, "token": token, "ref": ref}
            if isinstance(action, Staff):
                self.access.check_pin(action.pin, host)
                await self.feed.act(action, "staff")
                return 200, {"type": "done", "ref": ref}
            seat = self.access.seat_of(action.token, host, view.game_id)
            if seat is None:
                error = t.gettext("join a seat with the game's join code first")
                return 403, {"type": "error", "error": error, "ref": ref, "seated": False}
            self.frontend.check(action, view, seat)
            await self.feed.act(action, seat)
        except InputError as exc:
            return 400, {"type": "error", "error": str(exc), "ref": ref}
        except Refused as exc:
            status = 403 if exc.forbidden else 409
            return status, {"type": "error", "error": t.say(exc.text), "ref": ref}
        except IllegalMove as exc:
            return 409, {"type": "error", "error": t.say(exc.text), "ref": ref}
        return 200, {"type": "done", "ref": ref}

    def view_message(self, view: ViewT, host: str, t: Translator | None = None) -> dict[str, Any]:
        """The view message for a client at ``host`` (the join code only for the screen),
        its words in ``t``'s language (the table's by default)."""
        t = t or translator(self.language)
        kept = self._rendered.get(t.language)
        if kept is None or kept[0] is not view:
            kept = self._rendered[t.language] = (view, self.frontend.render(view, t.say))
        _, rendered = kept
        config = self.access.config
        screen = self.access.is_screen(host)
        join = None
        if screen and config.phones and config.public_url:
            code = self.access.join_code(view.game_id)
            url = f"{config.public_url.rstrip('/')}/?code={code}"
            qr = segno.make(url, error="m").svg_inline(scale=4, omitsize=True)
            join = {"code": code, "url": url, "qr": qr}
        return {
            "type": "view",
            **rendered,
            "screen": screen,
            "phones": config.phones,
            "players": list(view.players),
            "join": join,
            "simulated": self.simulated,
        }


def _host(client: Any) -> str:
    return client.host if client is not None else ""


def create_app(
    game_feed: GameFeed[ActionT, ViewT],
    access: Access,
    frontend: Frontend[ActionT, ViewT],
    background: Callable[[], Coroutine[Any, Any, None]] | None = None,
    simulated: bool = False,
    look: Callable[[], LastLook] | None = None,
    language: str = SOURCE_LANGUAGE,
) -> Starlette:
    """The app serving ``game_feed`` with ``frontend``'s page (the same game's:
    :data:`~firmware_host.web.frontend.DROP_IT` or
    :data:`~firmware_host.web.frontend.DICE_GAMES`); ``background`` (say, a demo's
    clock) runs while it serves. ``simulated``: the table runs on the simulator (the page
    shows a "simulated table" badge). ``look`` gives the last look for the staff view
    (None: a table without a camera). ``language``: the table's (the table file's
    ``language:``), which a page's ``?lang=`` may change for that browser."""
    desk = Desk(game_feed, access, frontend, simulated, language)

    def last_look() -> LastLook:
        if look is None:
            return LastLook(camera=NO_CAMERA, game_id=game_feed.snapshot().game_id)
        return look()

    async def page(request: Request) -> Response:
        return FileResponse(frontend.page, headers={"Cache-Control": "no-store"})

    async def staff_page(request: Request) -> Response:
        return FileResponse(STATIC / "staff.html", headers={"Cache-Control": "no-store"})

    def staff_refused(request: Request) -> Response | None:
        host = _host(request.client)
        try:
            access.check_pin(request.headers.get(PIN_HEADER, ""), host)
        except Refused as exc:
            t = desk.translator(request.query_params.get("lang"), host)
            return JSONResponse({"type": "error", "error": t.say(exc.text)}, status_code=403)
        return None

    async def staff_look(request: Request) -> Response:
        refused = staff_refused(request)
        if refused is not None:
            return refused
        t = desk.translator(request.query_params.get("lang"), _host(request.client))
        return JSONResponse(last_look().to_json(t.say), headers={"Cache-Control": "no-store"})

    async def staff_look_frame(request: Request) -> Response:
        refused = staff_refused(request)
        if refused is not None:
            return refused
        latest = last_look()
        if latest.state != "look" or latest.frame is None:
            return JSONResponse(
                {"type": "error", "error": f"no frame to show: {latest.state}"}, status_code=404
            )
        return FileResponse(
            latest.frame, media_type="image/jpeg", headers={"Cache-Control": "no-store"}
        )

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def view(request: Request) -> Response:
        host = _host(request.client)
        t = desk.translator(request.query_params.get("lang"), host)
        return JSONResponse(desk.view_message(game_feed.snapshot(), host, t))

    async def messages(request: Request) -> Response:
        t = desk.translator(request.query_params.get("lang"), _host(request.client))
        return JSONResponse(
            {
                "language": t.language,
                "default": desk.language,
                "languages": [{"code": c, "name": language_name(c)} for c in languages()],
                "plural": plural_expression(t.language),
                "messages": page_messages(t.language),
            },
            headers={"Cache-Control": "no-store"},
        )

    async def actions(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_MESSAGE_BYTES:
                break
        host = _host(request.client)
        t = desk.translator(request.query_params.get("lang"), host)
        status, reply = await desk.handle(body, host, t)
        return JSONResponse(reply, status_code=status)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def feed(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != websocket.headers.get("host"):
            await websocket.close(code=1008)
            return
        await websocket.accept()
        host = _host(websocket.client)
        t = desk.translator(websocket.query_params.get("lang"), host)
        lock = asyncio.Lock()

        async def send(message: dict[str, Any]) -> None:
            async with lock:
                await websocket.send_json(message)

        async def push() -> None:
            updates = game_feed.updates()
            await send(desk.view_message(game_feed.snapshot(), host, t))
            async for latest in updates:
                await send(desk.view_message(latest, host, t))

        pusher = asyncio.create_task(push())
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                _, reply = await desk.handle(raw, host, t)
                await send(reply)
        except WebSocketDisconnect:
            pass
        finally:
            pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await pusher

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(background()) if background is not None else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/view", view),
            Route("/api/messages", messages),
            Route("/api/actions", actions, methods=["POST"]),
            Route("/healthz", health),
            Route("/staff", staff_page),
            Route("/api/staff/look", staff_look),
            Route("/api/staff/look.jpg", staff_look_frame),
            Route("/favicon.ico", favicon),
            WebSocketRoute("/ws", feed),
            Mount("/static/games", StaticFiles(packages=[*pages()]), name="games"),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


MAX_WS_BYTES = MAX_MESSAGE_BYTES * 4
"""uvicorn drops WebSocket frames longer than this before they reach the app."""


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: any free port), for uvicorn's
    ``Server.serve(sockets=[...])``: clients can connect as soon as it returns."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    return sock
