"""Red team: a bot that prints terminal escapes (an OSC 0 retitle, a screen clear) to its
stdout and stderr, at import and in move(). Sandboxed, what it prints is kept in the result
and shown escaped; under `--sandbox off` it went to the host's stderr as it was."""
import sys

from roborally.api import *

name = 'OffEscapes'

print("\x1b]0;pwned\x07AT-IMPORT \u202eRTL")
sys.stderr.write("\x1b[2JERR-IMPORT\n")


def move():
    print("\x1b]0;pwned\x07IN-MOVE")
    sys.stderr.write("\x9b2JERR-MOVE\n")
    return FORWARD
