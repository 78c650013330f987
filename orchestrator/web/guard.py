"""What every page this project serves shares: a Content Security Policy that allows
nothing from other origins, and a guard that bounds every request body, whatever its
framing, without reading past its limit.
Used by the ladder (`arena serve`) and the map editor (`arena maps edit`)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "frame-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'; "
          "connect-src 'self'")


SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
# Sec-Fetch-Site, which every current browser sends and no page can set: its own page, or
# a request the user typed. A client without it (curl, an older browser) is not refused.
OWN_SITE = (b"same-origin", b"none")


class BodyTooLarge(HTTPException):
    """A request body that passed its limit while it was being read (raised from the
    guarded `receive`; an HTTPException, so FastAPI's body parsing lets it through)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the body is over the limit of {limit} bytes")
        self.limit = limit


class Guard:
    """Pure ASGI middleware: bound every request body and add the security headers to
    every response. `refuse(request, status, error, reason)` makes the refusal.

    A body's limit is `limit` (a number, or a function of the ASGI scope) plus `slack`
    (a form's fields and boundaries). A Content-Length over it is refused (413) before
    a byte of the body is read. Whatever the framing (chunked has no length), the bytes
    are counted as the app reads them: the read that passes the limit raises
    BodyTooLarge, the app's handler (or this guard) answers 413, and the rest is never
    read. A response sent before its request's body was read to the end closes the
    connection (`Connection: close`), so the unread rest is not received either."""

    def __init__(self, app, refuse: Callable[..., Response],
                 limit: int | Callable[[dict], int], slack: int = 0,
                 own_pages_only: bool = False) -> None:
        self.app, self.refuse, self.limit, self.slack = app, refuse, limit, slack
        self.own_pages_only = own_pages_only

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = (self.limit(scope) if callable(self.limit) else self.limit) + self.slack
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        state = {"read": 0, "over": False, "started": False,
                 "done": length in (None, b"0") and b"transfer-encoding" not in headers}

        async def counted():
            if state["over"]:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                state["read"] += len(message.get("body", b""))
                if state["read"] > limit:
                    state["over"] = True
                    raise BodyTooLarge(limit)
                state["done"] = not message.get("more_body", False)
            return message

        async def sender(message) -> None:
            if message["type"] == "http.response.start":
                state["started"] = True
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", POLICY)
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Referrer-Policy"] = "no-referrer"
                if not state["done"]:          # the rest of the body is not wanted
                    headers["Connection"] = "close"
            await send(message)

        if self.own_pages_only and scope["method"] not in SAFE_METHODS and \
                headers.get(b"sec-fetch-site", b"same-origin") not in OWN_SITE:
            # A page of another site (or another port of this host) posting a form or a
            # no-cors fetch, which a browser sends without asking: refused unread.
            response = self.refuse(Request(scope), 403, "cross-site request",
                                   "a page of another site may not send this; use this "
                                   "server's own page, or a client such as curl")
            state["done"] = False            # (its body unread: the connection closes)
            await response(scope, receive, sender)
            return
        if length is not None and (not length.isdigit() or int(length) > limit):
            await self._refuse(scope, receive, sender, limit)
            return
        try:
            await self.app(scope, counted, sender)
        except BodyTooLarge:
            if state["started"]:
                raise
            await self._refuse(scope, receive, sender, limit)

    async def _refuse(self, scope, receive, send, limit: int) -> None:
        response = self.refuse(Request(scope), 413, "body too large",
                               f"a request body here is at most {limit} bytes")
        await response(scope, receive, send)


def validation_reason(errors: Sequence[Any]) -> str:
    """FastAPI's validation errors in one line: `field: problem; ...`, in a reader's
    words (not `Value error, Expected UploadFile, received: <class 'str'>`)."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'request'}: "
                     f"{_problem(str(e['msg']))}" for e in errors)


def _problem(message: str) -> str:
    message = message.removeprefix("Value error, ")
    if message.startswith("Expected UploadFile"):
        return "not a file: send it as a file part of the form (with a filename)"
    return message
