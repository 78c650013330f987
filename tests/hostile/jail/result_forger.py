# In a match jail, rewrites the result the jail sends to the host into a shape the host
# cannot tally or store: it wraps the function that builds the replay (a match played with
# one), found on its own call stack, and changes the result once the replay is built, after
# everything in the jail that reads it. In a child of its own nothing of this is on its
# stack, and it just plays.
import sys
from roborally.api import *
name = 'ResultForger'
KIND = 'rank'


def _forge(result):
    players = result['players']
    if KIND == 'rank':
        players[0]['rank'] = 'first'
    elif KIND == 'seat':
        del players[0]['seat']
    elif KIND == 'bytes':
        result['rules'] = {b'key': b'value'}
    elif KIND == 'players':
        result['players'] = [1, 2]
    elif KIND == 'nan':
        players[0]['cpu_s'] = float('nan')
    elif KIND == 'identity':
        players[0]['sha256'], players[1]['sha256'] = players[1]['sha256'], players[0]['sha256']
    return result


def move():
    frame = sys._getframe()
    while frame is not None:
        replay = frame.f_globals.get('replay')      # the module that builds the replay
        build = getattr(replay, 'build', None)
        if callable(build) and not getattr(build, 'forged', False):
            def forged(result, *args, **kwargs):
                built = build(result, *args, **kwargs)
                _forge(result)            # the result is sent as it is from here on
                return built
            forged.forged = True
            replay.build = forged
            break
        frame = frame.f_back
    return FORWARD
