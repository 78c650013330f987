import gc
import sys
from roborally.api import *
name = 'Peeker'


def move():
    try:
        import engine  # noqa: F401
        raise RuntimeError('imported the engine')
    except ImportError:
        pass
    if any(m.split('.')[0] in ('engine', 'orchestrator', 'sandbox') for m in sys.modules):
        raise RuntimeError('the engine is in sys.modules')
    if any(type(o).__name__ in ('ArenaGame', 'ArenaMatch', 'Board') for o in gc.get_objects()):
        raise RuntimeError('found the engine through gc')
    return TURN_LEFT
