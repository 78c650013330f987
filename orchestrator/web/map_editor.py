"""`arena maps edit`: the kit's map editor, a page served on this machine's loopback.

The page paints a square grid of symbols. A game the editor makes maps of has an
`editor.py` beside its entry: its sheet (the grid, the file, the brushes) and its palette
(what the page draws each symbol as); this module and editor/editor.js know no game. This
side turns the grid into the game's map file, runs the parser that `arena maps validate`
runs on it, and writes the file only when it parses, so a saved map is one that
`arena run --map` loads.

The server writes one file, so it answers only this machine: it binds 127.0.0.1, accepts
only a loopback Host (no DNS rebinding), and changes nothing on a request from another
origin or one that is not JSON (no cross-site form posts).
"""
from __future__ import annotations

import os
import re
import socket
import tempfile
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from engine import InputError
from orchestrator.games import GAMES, Game
from orchestrator.web.guard import Guard, validation_reason

HERE = Path(str(resources.files("orchestrator") / "web" / "editor"))
FAVICON = Path(str(resources.files("orchestrator") / "web" / "ladder" / "static"
                       / "favicon.svg"))
MAX_SIDE = 200                  # an arena up to 200 x 200 (the official one is 30 x 30)
MAX_BODY = 512 * 1024
LOOPBACK = ("127.0.0.1", "localhost")


@dataclass(frozen=True)
class Tool:
    """A brush of the palette: the grid symbol it paints and the key that picks it."""

    symbol: str
    name: str
    key: str


@dataclass(frozen=True)
class Palette:
    """How the page draws a game's symbols: each one's kind (its look, a CSS class) and
    label, what a mirror or a half turn makes of it, which are unique on a map (painting
    one again moves it), what a brush's title adds, and how a square is named (`{x}`,
    `{y}` from 0, `{line}`, `{column}` from 1)."""

    kinds: dict[str, str]
    labels: dict[str, str] = field(default_factory=dict)
    mirror_x: dict[str, str] = field(default_factory=dict)
    mirror_y: dict[str, str] = field(default_factory=dict)
    rotate: dict[str, str] = field(default_factory=dict)
    unique: tuple[str, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)
    where: str = "line {line}, column {column}"


class Sheet:
    """One map file as the editor's grid (rows of symbols): read, judged, written."""

    tools: tuple[Tool, ...] = ()
    palette = Palette(kinds={})
    resizable = False

    def __init__(self, game: Game, path: Path, rows: list[str], new: bool) -> None:
        self.game, self.path, self.rows, self.new = game, path, rows, new
        self.saves = 0                  # files written since the editor started

    def text(self, rows: list[str]) -> str:
        """The map file for these rows."""
        raise NotImplementedError

    def check_rows(self, rows: list[str]) -> None:
        """Refuse a grid this sheet cannot hold (an InputError), before it is judged."""
        side = len(rows)
        if not 1 <= side <= MAX_SIDE or any(len(row) != side for row in rows):
            raise InputError(f"the grid must be square, 1 to {MAX_SIDE} a side")
        if any("\n" in row or "\r" in row for row in rows):
            raise InputError("a row holds a line break")

    def verdict(self, rows: list[str]) -> dict:
        """`arena maps validate`'s line for the rows, a note when a 2-AI match with the
        default rules could not start on them, the erring cell, and the file's text."""
        self.check_rows(rows)
        name, text = str(self.path), self.text(rows)
        try:
            board = self.game.parse_map(text, name)
        except InputError as exc:
            found = re.match(re.escape(name) + r":(\d+):(\d+):", str(exc))
            where = [int(found[1]) - 1, int(found[2]) - 1] if found else None
            return {"ok": False, "line": f"error: {exc}", "note": "", "where": where,
                    "text": text}
        note = ""
        try:
            self.game.new_match(board, ["a", "b"], 0, self.game.rules(self.game.presets[0]))
        except InputError as exc:
            note = f"a 2-AI match with the default rules cannot start on this map: {exc}"
        return {"ok": True, "line": f"ok: {name}: {self.game.map_facts(board)}", "note": note,
                "where": None, "text": text}

    def save(self, rows: list[str]) -> dict:
        """Write the map if it parses (atomically: a reader never sees half a file)."""
        verdict = self.verdict(rows)
        if verdict["ok"]:
            folder = self.path.parent
            with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False,
                                             prefix=f".{self.path.name}.") as out:
                out.write(verdict["text"])
            os.replace(out.name, self.path)
            self.rows, self.new = rows, False
            self.saves += 1
            self.saved(rows)
        return verdict

    def saved(self, rows: list[str]) -> None:
        """What the sheet remembers of the file it wrote."""

    def describe(self) -> dict:
        # The commands' default game (the registry's first) needs no --game.
        named = "" if self.game.name == next(iter(GAMES)) else f" --game {self.game.name}"
        return {"game": self.game.name, "file": str(self.path), "rows": self.rows,
                "new": self.new, "resizable": self.resizable, "max_side": MAX_SIDE,
                "tools": [tool.__dict__ for tool in self.tools],
                "palette": asdict(self.palette), "run": f"arena run{named} --map {self.path}"}


def open_sheet(game: Game, path: Path, start: Path | None = None, side: int = 20) -> Sheet:
    """The sheet for `path`: its map if it exists, else `start`'s map, else a blank one."""
    own = game.own("editor")
    if own is None:
        makes = " and ".join(name for name, found in GAMES.items() if found.own("editor"))
        raise InputError(f"the map editor makes {makes} maps, not {game.name} ones")
    if path.is_dir():
        raise InputError(f"{path}: is a folder; give the map file to edit or create")
    if not path.parent.is_dir():
        raise InputError(f"{path}: the folder {path.parent} does not exist")
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InputError(f"{path}: cannot be written here (permission denied)")
    # An empty file (made with `touch` to be drawn) is a new map, like a missing one.
    source = path if path.exists() and path.stat().st_size else start
    return own.sheet(game, path, source, side)


def loopback_socket(port: int) -> socket.socket:
    """A TCP socket bound to 127.0.0.1:`port` (0: a free port), for uvicorn to serve on."""
    # IPPROTO_TCP named: asyncio turns Nagle off only on sockets that say they are TCP.
    # With Nagle on, every response waited about 40 ms for the browser's delayed ACK.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise InputError(f"--port {port}: cannot listen there ({exc.strerror})") from None
    return sock


class Grid(BaseModel):
    rows: list[str] = Field(min_length=1, max_length=MAX_SIDE)


def create_app(sheet: Sheet) -> FastAPI:
    """The editor's ASGI app: the page, its script, and three JSON calls."""
    app = FastAPI(title="robot-arena map editor", docs_url=None, redoc_url=None,
                  openapi_url=None)

    def refuse(_request: Request, status: int, error: str, reason: str) -> JSONResponse:
        return JSONResponse({"error": error, "reason": reason}, status_code=status)

    app.add_middleware(Guard, refuse=refuse, limit=MAX_BODY, own_pages_only=True)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(LOOPBACK))
    app.mount("/static", StaticFiles(directory=HERE), name="static")

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        return refuse(request, 422, "invalid request", validation_reason(exc.errors()))

    @app.exception_handler(InputError)
    async def bad_grid(request: Request, exc: InputError):
        return refuse(request, 422, "invalid grid", str(exc))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        return refuse(request, exc.status_code, "refused", str(exc.detail))

    def same_origin(request: Request) -> None:
        # A browser names the page that sent a POST; only this server's own page may write.
        origin = request.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
            raise HTTPException(403, f"a request from {origin} may not change this map")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(HERE / "page.html")

    @app.get("/favicon.svg", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(FAVICON)

    @app.get("/api/map")
    def current() -> dict:
        return sheet.describe()

    @app.post("/api/check")
    def check(grid: Grid, request: Request) -> dict:
        same_origin(request)
        return sheet.verdict(grid.rows)

    @app.post("/api/save")
    def save(grid: Grid, request: Request) -> JSONResponse:
        same_origin(request)
        verdict = sheet.save(grid.rows)
        return JSONResponse(verdict, status_code=200 if verdict["ok"] else 422)

    return app
