"""The ladder's HTTP protocol: uvicorn's h11 protocol with deadlines for receiving a request.

uvicorn has none: its keep-alive timer runs only between requests, and any byte received
cancels it, so a client that sends its request line and headers slowly, or never, holds
its connection (and a file descriptor) as long as it likes (slowloris), and so does one
that sends a body slower than its Content-Length promises (the server even waits for it
at shutdown). Here the server closes a connection that has not sent a whole request head
within HEAD_TIMEOUT_S of opening, or of the end of its previous response, or a request's
whole body within BODY_TIMEOUT_S of its head. Sending the response is not timed: that is
the app's business, and the pages answer in milliseconds.

Nor does uvicorn bound how many connections it holds: each is a file descriptor, and a
client that opens them faster than the deadlines close them used up the process's
(`ulimit -n`), after which the ladder could not open a replay file and its match loop
died. Here a connection past `connection_cap()` (the limit less FD_RESERVE for the
server's own files, pipes and database) is closed as soon as it is accepted.
"""
from __future__ import annotations

import asyncio
import resource

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_TIMEOUT_S = 10.0      # a browser sends its head in one packet; 10 s is generous
BODY_TIMEOUT_S = 20.0      # an upload is at most 64 KiB: 3.2 KiB/s is a very slow link
FD_RESERVE = 128           # descriptors kept for the database, replays, workers' pipes, logs
# asyncio accepts up to its server's `backlog` connections at each wake-up before any of
# them reaches `connection_made` (uvicorn's default: 2048), each a descriptor: a burst on a
# busy machine went past the limit before one was closed ("Too many open files"). Kept
# well under FD_RESERVE, so a burst never reaches the limit.
ACCEPT_BURST = 64


def connection_cap() -> int:
    """The most connections held at once: the open-file limit less FD_RESERVE."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 16
    return max(16, soft - FD_RESERVE)


class DeadlineProtocol(H11Protocol):
    """H11Protocol that closes a connection whose request does not arrive in time."""

    _deadline: asyncio.TimerHandle | None = None
    _waiting_for: str | None = None          # "head", "body", or None (nothing timed)
    _cap: int | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if DeadlineProtocol._cap is None:
            DeadlineProtocol._cap = connection_cap()
        if len(self.connections) > DeadlineProtocol._cap:
            transport.close()                    # full: this one goes (it may come back)
            return
        self._arm("head", HEAD_TIMEOUT_S)

    def handle_events(self) -> None:
        super().handle_events()
        if self._between_requests():
            return                               # the next head's deadline runs on
        if self.conn.their_state is h11.SEND_BODY:
            if self._waiting_for != "body":      # once per request: bytes do not reset it
                self._arm("body", BODY_TIMEOUT_S)
        else:
            self._disarm()                       # the whole request arrived

    def on_response_complete(self) -> None:
        super().on_response_complete()              # (handles a pipelined next request)
        if not self.transport.is_closing() and self._between_requests():
            self._arm("head", HEAD_TIMEOUT_S)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _between_requests(self) -> bool:
        """No request of this connection is being answered: what it owes next is a head
        (or the rest of a body the app did not read, which that deadline covers too)."""
        return self.cycle is None or self.cycle.response_complete

    def _arm(self, waiting_for: str, seconds: float) -> None:
        self._disarm()
        self._waiting_for = waiting_for
        self._deadline = self.loop.call_later(seconds, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self._waiting_for = None

    def _late(self) -> None:
        """Too slow: drop the connection. There is no answer to give a head that did not
        arrive (h11 sends none before a request); a request whose body is late sees a
        disconnect, as if the client had gone."""
        self._deadline = self._waiting_for = None
        # (a connection upgraded to another protocol is no longer this one's to close)
        if not self.transport.is_closing() and self.transport.get_protocol() is self:
            self.transport.close()
