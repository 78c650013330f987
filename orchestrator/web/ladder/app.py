"""The ladder's HTTP side: the JSON API and the server-rendered pages.

Every page is rendered here with Jinja2 (autoescaping on), needs no network, and is sent
with a Content Security Policy that allows nothing from other origins. The replay viewer
is the same self-contained page `arena replay --html` writes; its inline script and style
are allowed by their hashes, and nothing else inline is.
"""
from __future__ import annotations

import asyncio
import ipaddress
import threading
import time
from collections import Counter, OrderedDict
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Callable

from fastapi import Depends, FastAPI, File, Form, Query, Request, UploadFile
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup
from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError
from starlette.datastructures import UploadFile as FormFile
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from engine import InputError
from engine.numerals import ascii_decimal
from orchestrator.replay import file as replay
from orchestrator.results import penalties
from orchestrator.text import shown
from orchestrator.views import replay as replay_view
from orchestrator.web.guard import BodyTooLarge, Guard, validation_reason
from orchestrator.web.ladder.service import MAX_FILE, Ladder, LadderError

HERE = Path(str(resources.files("orchestrator") / "web" / "ladder"))
FORM_SLACK = 16 * 1024          # a multipart body's fields and boundaries beside the file
PAGE_TTL_S = 1.0                # the busiest pages are rendered at most once a second
# An answer that holds a token (an upload's) or a bot's own marks is kept by no cache: not a
# proxy's, nor the browser's history, which shows the page again to whoever presses Back.
SECRET = {"Cache-Control": "private, no-store"}
VIEWERS_KEPT_BYTES = 16 << 20   # replay viewer pages kept rendered, the latest asked for
CHALLENGE_BODY = 4096           # a challenge's JSON names a lineup's bot ids
MAX_ID = 2**63 - 1              # ids are SQLite integers: a larger one is not an id


def whole_number(value: object) -> object:
    """A number in a URL's path or query, as the server writes one (`str(n)`): ASCII
    digits, no sign, space, underscore, point or leading zero, at most MAX_ID's 19 digits.
    FastAPI reads it with int()'s leniency, which takes `01`, `+1`, ` 1`, `1_0` and `1.0`:
    a second spelling of every id (a second address of each page, a second key of a
    cache or a log), and a value nobody wrote. Anything else is a 422 that says so."""
    if not isinstance(value, str):
        return value
    found = ascii_decimal(value, len(str(MAX_ID)))
    if found is not None:
        return found
    if value.isascii() and value.isdigit() and value[0] != "0":
        raise PydanticCustomError("whole_number", "a number of {digits} digits; the largest "
                                  "here is {most}", {"digits": len(value), "most": MAX_ID})
    raise PydanticCustomError("whole_number", "not a whole number as written here: ASCII "
                              "digits 0-9 only, without a sign, spaces, underscores, a point "
                              "or leading zeros")


# Every number a path or a query names is one of these: no route reads one otherwise
# (tests/ladder/test_doors.py walks the API's description to hold every route to it).
WholeNumber = BeforeValidator(whole_number)
def one_value_each(request: Request) -> None:
    """A query names each parameter once: FastAPI kept the last of `?limit=5&limit=500`
    (a second spelling of `?limit=500`, and a value the reader of the first did not see)."""
    counted = Counter(name for name, _ in request.query_params.multi_items())
    twice = sorted(name for name, count in counted.items() if count > 1)
    if twice:
        raise LadderError(422, "invalid request", f"{shown(twice[0])[:40]}: given more than "
                          f"once in the query; give it once")


BotId = Annotated[int, PathParam(ge=1, le=MAX_ID), WholeNumber]
MatchId = Annotated[int, PathParam(ge=1, le=MAX_ID), WholeNumber]
BotQuery = Annotated[int | None, Query(ge=1, le=MAX_ID), WholeNumber]
LimitQuery = Annotated[int, Query(ge=1, le=500), WholeNumber]
FILE_BODY = {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file"],
    "properties": {"file": {"type": "string", "format": "binary"}}}}}}}


def body_limit(scope: dict) -> int:
    """The most a request's body may hold: a challenge's JSON, or a form with a file."""
    return CHALLENGE_BODY if scope["path"] == "/api/challenges" else MAX_FILE + FORM_SLACK


def _inline_hashes(page: str) -> str:
    """A viewer page's CSP: its one inline script (which inlines the renderer of the
    replay's game) and one inline style, by hash."""
    found = replay_view.inline_hashes(page)
    return (f"default-src 'none'; script-src {found['script']}; style-src {found['style']}; "
            f"img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'")


API_DESCRIPTION = ("Upload a bot (multipart `game`, `name`, `file`); the answer's `token` is "
                   "shown once. Send it as `Authorization: Bearer TOKEN` to upload a new "
                   "version, retire the bot or challenge with it.")
METHODS = ("get", "post", "delete")


def api_pages(schema: dict) -> list[dict]:
    """The OpenAPI schema's operations, in path order, for the /docs page."""
    found = []
    for path, operations in schema.get("paths", {}).items():
        for method in METHODS:
            if method in operations:
                operation = operations[method]
                found.append({"method": method.upper(), "path": path,
                              "summary": operation.get("summary", ""),
                              "description": operation.get("description", ""),
                              "parameters": [p["name"] for p in operation.get("parameters", [])],
                              "responses": sorted(operation.get("responses", {}))})
    return found


def bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def chart(series: dict[str, list], width: int = 640, height: int = 220,
          marks: bool = False) -> dict:
    """Rating lines as SVG polyline points, one per name, on shared axes, with the axes'
    ticks: Elo up the left, the ladder's match count along the bottom. A line's points are
    Ladder.history's, [match count, match id, Elo]. `marks`: each point also as a dot
    that says its match and its Elo (read from the page: its title, its data-)."""
    left, right, top, bottom = 48, 10, 8, 34       # room for the ticks and axis titles
    points = [p for line in series.values() for p in line]
    if not points:
        return {"width": width, "height": height, "lines": [], "low": 0, "high": 0}
    xs, ys = [p[0] for p in points], [p[-1] for p in points]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    y0, y1 = min(ys) - 10, max(ys) + 10
    plot_w, plot_h = width - left - right, height - top - bottom

    def at(x: float, y: float) -> tuple[float, float]:
        return (left + (x - x0) / (x1 - x0) * plot_w, top + plot_h - (y - y0) / (y1 - y0) * plot_h)

    lines = []
    for i, (name, line) in enumerate(series.items()):
        placed = [(at(x, y), match, y) for x, match, y in line]
        text = " ".join(f"{cx:.1f},{cy:.1f}" for (cx, cy), _, _ in placed)
        dots = [{"x": round(cx, 1), "y": round(cy, 1), "match": match, "rating": y}
                for (cx, cy), match, y in placed] if marks else []
        lines.append({"name": name, "points": text, "color": i % 10, "dots": dots})
    y_ticks = [{"label": str(round(v)), "y": round(at(x0, v)[1], 1)}
               for v in sorted({round(y0 + 10), round((y0 + y1) / 2), round(y1 - 10)})]
    x_ticks = [{"label": str(v), "x": round(at(v, y0)[0], 1)}
               for v in sorted({round(x0), round(x1)})]
    return {"width": width, "height": height, "lines": lines, "low": round(y0 + 10),
            "high": round(y1 - 10), "plot": {"left": left, "top": top, "width": plot_w,
                                            "height": plot_h, "bottom": top + plot_h},
            "y_ticks": y_ticks, "x_ticks": x_ticks}


def _visible(value: object) -> object:
    """A value a template shows: a string as shown() makes it (a template's own markup,
    a macro's output, passes as it is; it is escaped where it was made)."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return shown(value)
    return value


def page_templates() -> Environment:
    """The pages' templates: HTML-escaped, every string through shown(), and a match's
    penalties in orchestrator/results/penalties.py's words (`penalty_note(player)`)."""
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True,
                      finalize=_visible)
    env.globals["penalty_note"] = penalties.note
    return env


LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"]


def trusted_hosts(bind: str) -> list[str] | None:
    """The Host a ladder bound to `bind` answers: a loopback address answers only its own
    names (a foreign name resolved to 127.0.0.1, DNS rebinding, would make another site's
    page same-origin with the ladder: it could read and post as the operator's own page);
    any other address, any Host (a public ladder's names are the deployment's)."""
    try:
        loopback = ipaddress.ip_address(bind.strip("[]")).is_loopback
    except ValueError:
        loopback = bind == "localhost"
    return LOOPBACK_HOSTS if loopback else None


def create_app(ladder: Ladder, run: bool = True,
               announce: Callable[[str], None] | None = None,
               hosts: list[str] | None = None) -> FastAPI:
    """The ASGI app. `run`: start the ladder's workers and loop with the app (and stop
    them with it). `announce` hears what the shutdown left for the next start. `hosts`:
    the only Host headers served (trusted_hosts), else any."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        if run:
            ladder.start()
        try:
            yield
        finally:
            if run:
                left = ladder.stop()
                if announce:
                    announce(f"stopped; {left} unfinished matches will be played at the next "
                             f"start")

    # The API's description is served as /openapi.json; /docs is our own page of it,
    # since FastAPI's loads Swagger UI from a CDN, which the pages' policy (and a machine
    # without a network) refuses.
    app = FastAPI(title="robot-arena ladder", lifespan=lifespan, docs_url=None, redoc_url=None,
                  dependencies=[Depends(one_value_each)],
                  openapi_url="/openapi.json", description=API_DESCRIPTION)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # Every string a page shows goes through shown() before it is escaped: a bot's text
    # (a check's or a match's reason quotes its exception) holds no bidi override that
    # reorders the cell it is in, and no invisible or control character.
    env = page_templates()

    def html(template: str, status: int = 200, **context) -> HTMLResponse:
        context.setdefault("games", ladder.games)
        return HTMLResponse(env.get_template(template).render(**context), status_code=status)

    rendered: dict[str, tuple[float, str]] = {}

    def cached(key: str, render: Callable[[], HTMLResponse]) -> HTMLResponse:
        """A page that changes with every match, re-rendered at most every PAGE_TTL_S."""
        now = time.monotonic()
        hit = rendered.get(key)
        if hit is None or now - hit[0] > PAGE_TTL_S:
            hit = rendered[key] = (now, render().body.decode())  # type: ignore[union-attr]  # bytes
        return HTMLResponse(hit[1])

    def error_response(request: Request, status: int, error: str, reason: str) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": error, "reason": reason}, status_code=status)
        return html("error.html", status, error=error, reason=reason)

    # Uploads need no token: without own_pages_only, any web page the operator opened
    # could post a bot to a ladder bound to 127.0.0.1 (a form, or a no-cors fetch of
    # multipart, sent without a preflight), and a check worker would play its code.
    app.add_middleware(Guard, refuse=error_response, limit=body_limit, own_pages_only=True)
    if hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts)

    @app.exception_handler(LadderError)
    async def refused(request: Request, exc: LadderError):
        response = error_response(request, exc.status, exc.error, exc.reason)
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.exception_handler(BodyTooLarge)
    async def too_large(request: Request, exc: BodyTooLarge):
        return error_response(request, 413, "body too large",
                              f"a request body here is at most {exc.limit} bytes")

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        return error_response(request, 422, "invalid request", validation_reason(exc.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        return error_response(request, exc.status_code, "not found" if exc.status_code == 404
                              else "error", str(exc.detail))

    async def checked(game: str, name: str, file: FormFile, charged: tuple[str, ...]):
        """An upload's file, checked in the sandbox; a LadderError when refused. `charged`
        (admit_upload's) stay counted until the check answers, whether or not this
        request is still there to hear it, or until the upload fails before its check."""
        future = None
        try:
            data = await file.read(MAX_FILE + 1)
            bot = ladder.submission(game, name, file.filename or "bot", data)
            future = ladder.check(game, bot)
        finally:
            if future is None:
                ladder.upload_answered(charged)
            else:
                future.add_done_callback(lambda _done: ladder.upload_answered(charged))
        outcome = await asyncio.wrap_future(future)
        return bot, ladder.verdict_of(outcome)

    async def form_file(request: Request) -> FormFile:
        """The `file` of a multipart body, read only once the request is authorized (a
        File() parameter would be parsed before the handler could look at the token)."""
        form = await request.form(max_files=1, max_fields=8)
        file = form.get("file")
        if not isinstance(file, FormFile):
            await form.close()
            raise LadderError(422, "invalid request", "file: Field required")
        return file

    def client(request: Request) -> str:
        """Whom the request's limits are counted for (Ladder.client_key)."""
        peer = request.client.host if request.client else None
        return ladder.client_key(peer, request.headers.getlist("x-forwarded-for"))

    async def new_bot(game: str, name: str, file: UploadFile, request: Request) -> dict:
        ladder.validate_name(game, name)
        sender = client(request)
        charged = ladder.admit_upload(sender)       # 429 before a check worker plays it
        bot, verdict = await checked(game, name, file, charged)
        return ladder.add_bot(game, name, bot, verdict, owner=sender)

    # -- the API -------------------------------------------------------------------------
    @app.post("/api/bots", status_code=201, summary="Upload a new bot",
              description=(
                  "Multipart form: `game`, `name`, `file`. The bot passes `arena check` first; the "
                  "answer (201) carries its `id` and a `token`, shown once. 422: refused (a bad or "
                  "taken name, a failed check); 413: the file is over 64 KiB."))
    async def upload(request: Request, game: str = Form(...), name: str = Form(...),
                     file: UploadFile = File(...)):
        return JSONResponse(await new_bot(game, name, file, request), status_code=201,
                            headers=SECRET)

    @app.post("/api/bots/{bot_id}/versions", status_code=201, summary="Upload a new version",
              description=(
                  "Multipart `file`, with the bot's token as `Authorization: Bearer TOKEN` "
                  "(401 without it). It replaces the old version in matchmaking once it "
                  "passes the check. The token is checked before the body is read."),
              openapi_extra=FILE_BODY)
    async def new_version(bot_id: BotId, request: Request):
        known = ladder.authorize(bot_id, bearer(request))
        if known.status == "retired":   # before the body, and before a check worker plays it
            raise LadderError(422, "retired", "a retired bot takes no new versions")
        charged = ladder.admit_upload(client(request), known)
        try:
            file = await form_file(request)
        except BaseException:
            ladder.upload_answered(charged)
            raise
        try:
            bot, verdict = await checked(known.game, known.name, file, charged)
        finally:
            await file.close()
        return JSONResponse(ladder.add_version(bot_id, bot, verdict), status_code=201)

    @app.delete("/api/bots/{bot_id}", status_code=204, summary="Retire a bot",
              description=(
                  "With its token as `Authorization: Bearer TOKEN`. 204; 401 without the token."))
    def retire(bot_id: BotId, request: Request):
        ladder.authorize(bot_id, bearer(request))
        ladder.retire(bot_id)
        return Response(status_code=204)

    @app.get("/api/ladders/{game}", summary="A leaderboard",
              description=(
                  "The game's bots, best first: rank, Elo, openskill, games, wins, win rate "
                  "and its interval, status."))
    async def leaderboard(game: str):
        ladder.game_of(game)
        return Response(ladder.leaderboard_json(game), media_type="application/json")

    @app.get("/api/bots/{bot_id}", summary="One bot",
          description="Its versions, ratings, status and recent matches.")
    def bot(bot_id: BotId):
        return ladder.bot_info(bot_id)

    @app.get("/api/matches", summary="Finished matches",
          description="Newest first; filter by `game` or `bot`, at most `limit` (1-500).")
    def matches(game: str | None = None, bot: BotQuery = None, limit: LimitQuery = 50):
        if game:
            ladder.game_of(game)
        return {"matches": ladder.matches_list(game, bot, limit)}

    @app.get("/api/matches/{match_id}", summary="One match",
          description="The result, as `arena run --json` prints it, plus `id`, less "
                      "the server's own facts (its sandbox's layers, the replay's path).")
    def match(match_id: MatchId):
        return ladder.match(match_id)

    @app.get("/api/matches/{match_id}/replay", summary="A match's replay",
          description="The gzip JSON replay (docs/replay.md), for `arena replay`. No bot's "
                      "debug marks in it; with the token of a bot of the match as "
                      "`Authorization: Bearer TOKEN`, that bot's marks and notes (401: "
                      "not the token of one of its bots).")
    def match_replay(match_id: MatchId, request: Request):
        token = bearer(request)
        if token is not None:
            return Response(ladder.own_replay(match_id, token), media_type="application/gzip",
                            headers={"Content-Disposition":
                                     f'attachment; filename="match-{match_id}.json.gz"',
                                     **SECRET})
        return FileResponse(ladder.replay_file(match_id), media_type="application/gzip",
                            filename=f"match-{match_id}.json.gz")

    @app.post("/api/challenges", status_code=202, summary="Challenge",
              description=(
                  "JSON `{\"bots\": [id, ...]}`: an unrated match between these bots, ahead of the "
                  "queue, with the token of one of them as `Authorization: Bearer TOKEN`. 202 "
                  "`{\"match\": id}`. The token is checked before the body is read (401). "
                  "429 (with Retry-After): the token's challenges are over its limits; "
                  "503: the challenge queue is full."))
    async def challenge(request: Request):
        sender = client(request)
        ladder.challenger(bearer(request), sender)  # 401/429/503 before the body is read
        try:
            body = await request.json()
        except (ValueError, RecursionError):
            raise LadderError(422, "bad challenge", "the body is not JSON") from None
        bots = body.get("bots") if isinstance(body, dict) else None
        return JSONResponse({"match": ladder.challenge(bots, bearer(request), sender)},
                            status_code=202)

    @app.get("/api/health", summary="Health",
          description="Liveness: `{\"ok\": true, \"status\": \"ok\", \"queue\": n, "
                      "\"running\": n}` while the ladder's loop plays matches; 503 with "
                      "`ok` false and the `status` (`stopped`, ...) once it no longer does.")
    def health():
        found = ladder.health()
        return JSONResponse(found, status_code=200 if found["ok"] else 503)

    # -- the pages -----------------------------------------------------------------------
    @app.get("/favicon.ico", include_in_schema=False)
    def favicon():
        """Every browser asks for it: no icon, and no 404 in the visitor's console."""
        return Response(status_code=204)

    @app.get("/", response_class=HTMLResponse)
    async def index():
        def render():
            boards = [(game, ladder.leaderboard(game)["bots"][:5]) for game in ladder.games]
            return html("index.html", boards=boards, latest=ladder.matches_list(limit=15))
        return cached("/", render)

    @app.get("/ladder/{game}", response_class=HTMLResponse)
    async def ladder_page(game: str):
        def render():
            board = ladder.leaderboard(game)
            lines = {row["name"]: ladder.history(row["id"])
                     for row in board["bots"][:8]}
            return html("ladder.html", board=board, chart=chart(lines),
                        latest=ladder.matches_list(game=game, limit=20))
        ladder.game_of(game)
        return cached(f"/ladder/{game}", render)

    @app.get("/bots/{bot_id}", response_class=HTMLResponse)
    def bot_page(bot_id: BotId):
        info = ladder.bot_info(bot_id, recent=30)
        return html("bot.html", bot=info, chart=chart({info["name"]: info["history"]},
                                                      marks=True))

    @app.get("/matches/{match_id}", response_class=HTMLResponse)
    def match_page(match_id: MatchId):
        return html("match.html", match=ladder.match(match_id))

    # A viewer page costs a replay's reading and rendering (86 ms of CPU for a Robot Game
    # match): asked for again and again, one anonymous client could keep the server busy. A
    # finished match's replay never changes, so its page is rendered once and kept,
    # the latest asked for first, up to VIEWERS_KEPT_BYTES.
    viewers: OrderedDict[int, tuple[str, str]] = OrderedDict()   # match -> page, its CSP
    viewers_lock = threading.Lock()

    def viewer_page(match_id: int) -> tuple[str, str]:
        with viewers_lock:
            if match_id in viewers:
                viewers.move_to_end(match_id)
                return viewers[match_id]
        path = ladder.replay_file(match_id)
        try:        # read as any replay file is: bounded, checked (replay_reader.py)
            body = replay_view.page(replay.load(path, name=f"match {match_id}'s replay"))
        except InputError as exc:
            raise LadderError(422, "unreadable replay", str(exc)) from None
        made = (body, _inline_hashes(body))
        with viewers_lock:
            viewers[match_id] = made
            while sum(len(page) for page, _ in viewers.values()) > VIEWERS_KEPT_BYTES \
                    and len(viewers) > 1:
                viewers.popitem(last=False)
        return made

    @app.get("/matches/{match_id}/viewer", response_class=HTMLResponse)
    def viewer(match_id: MatchId):
        body, policy = viewer_page(match_id)
        return HTMLResponse(body, headers={"Content-Security-Policy": policy})

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    def api_docs(request: Request):
        return html("docs.html", api=api_pages(app.openapi()),
                    base=str(request.base_url).rstrip("/"))

    @app.get("/upload", response_class=HTMLResponse)
    def upload_form():
        return html("upload.html")

    @app.post("/upload", response_class=HTMLResponse)
    async def upload_page(request: Request, game: str = Form(...), name: str = Form(...),
                          file: UploadFile = File(...)):
        try:
            accepted = await new_bot(game, name, file, request)
        except LadderError as exc:
            return html("upload.html", exc.status, refused=exc, game=game, name=name)
        page = html("upload.html", 201, accepted=accepted)
        page.headers.update(SECRET)
        return page

    return app
