# Race: a legal program each round, and beside it, in the same reply's `moves`, a million
# random bytes. The bot reaches its own child's `_runtime.finish_reply` (it runs in that
# process) and wraps it: the one frame the child sends per round carries the junk.
import os
import sys

_runtime = sys.modules["_runtime"]
_finish = _runtime.finish_reply


def _with_junk(reply, *args):
    reply = _finish(reply, *args)
    if isinstance(reply.get("moves"), dict):
        reply["moves"]["junk"] = os.urandom(1_000_000)
    return reply


_runtime.finish_reply = _with_junk


def bot(round, order, position, score, cards, bots, factory):
    if round == 0:
        return "N"
    rest = list(cards)
    first = next((card for card in rest if card != "Ag"), rest[0])
    rest.remove(first)
    return [first, *rest[:4]]
