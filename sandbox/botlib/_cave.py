"""Cave Rangers' bot side: its bots are programs in any language, which the keeper
(`_keeper.py`) runs as they are, one line in and one out per turn; nothing to adapt."""
from _runtime import LoadError

WATCH_MODULE_STATE = False
RUNTIME = None


def check_module(module):
    """Never a Python module: every Cave bot, a Python script too, is a program."""
    raise LoadError("Cave Rangers bots are programs, run by the keeper")
