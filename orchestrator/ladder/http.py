"""The ladder's HTTP protocol: uvicorn's h11 protocol with a deadline for a request's head.

uvicorn has no such deadline: its keep-alive timer runs only between requests, and any
byte received cancels it, so a client that opens a connection and sends its request line
and headers slowly, or never, holds the connection (and a file descriptor) as long as it
likes (slowloris). Here a connection that has not sent a whole request line and headers
within HEAD_TIMEOUT_S of opening, or of the end of its previous response, is closed by
the server. A request being answered is not timed: its body and its response are the
app's business (bodies are small and bounded, docs/security.md).
"""
from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_TIMEOUT_S = 10.0      # a browser sends its head in one packet; 10 s is generous


class HeadDeadlineProtocol(H11Protocol):
    """H11Protocol that closes a connection whose request head does not arrive in time."""

    head_timeout_s = HEAD_TIMEOUT_S
    _head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if not self._between_requests():           # a whole head arrived: it is answered
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()              # (handles a pipelined next request)
        if not self.transport.is_closing() and self._between_requests():
            self._arm()

    def _between_requests(self) -> bool:
        """No request of this connection is being answered: what it owes next is a head
        (or the rest of a body the app did not read, which the deadline covers too)."""
        return self.cycle is None or self.cycle.response_complete

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_deadline = self.loop.call_later(self.head_timeout_s, self._head_late)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_late(self) -> None:
        """No whole request head in time: drop the connection (there is no request to
        answer; h11 cannot send a response before one)."""
        self._head_deadline = None
        # (a connection upgraded to another protocol is no longer this one's to close)
        if not self.transport.is_closing() and self.transport.get_protocol() is self:
            self.transport.close()
