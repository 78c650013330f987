# Robot Game: a valid answer every turn, and beside it about a million one-byte integers
# under `warn` (a frame just under the host's 1 MiB cap). The bot wraps its own child's
# `_runtime.finish_reply` (it runs in that process): the host would scan, decode and walk
# the list every turn, at a cost charged to nobody.
import sys

import rg  # noqa: F401

_runtime = sys.modules["_runtime"]
_finish = _runtime.finish_reply


def _flooded(reply, *args):
    reply = _finish(reply, *args)
    reply["warn"] = [1] * 1_000_000
    return reply


_runtime.finish_reply = _flooded


class Robot:
    def act(self, game):
        return ["guard"]
