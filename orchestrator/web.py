"""What every page this project serves shares: a Content Security Policy that allows
nothing from other origins, and a guard that refuses an oversized body before reading it.
Used by the ladder (`arena serve`) and the map editor (`arena maps edit`)."""
from __future__ import annotations

from typing import Callable

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import Response

POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "frame-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'; "
          "connect-src 'self'")


class Guard:
    """Pure ASGI middleware: refuse a body over `limit` (+ `slack` for a form's fields)
    from its Content-Length, before it is read, and add the security headers to every
    response. `refuse(request, status, error, reason)` makes the refusal."""

    def __init__(self, app, refuse: Callable[..., Response], limit: int, slack: int = 0) -> None:
        self.app, self.refuse, self.limit, self.slack = app, refuse, limit, slack

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"")
        if scope["method"] == "POST" and length.isdigit() and \
                int(length) > self.limit + self.slack:
            send = self._headers(send)
            response = self.refuse(Request(scope), 413, "file too large",
                                   f"the limit is {self.limit} bytes")
            await response(scope, receive, send)
            return
        await self.app(scope, receive, self._headers(send))

    @staticmethod
    def _headers(send):
        async def sender(message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", POLICY)
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Referrer-Policy"] = "no-referrer"
            await send(message)
        return sender


def validation_reason(errors: list[dict]) -> str:
    """FastAPI's validation errors in one line: `field: problem; ...`."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'request'}: {e['msg']}"
                     for e in errors)
