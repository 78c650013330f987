# Makes the game API's functions spin before they answer. It never calls them itself: alone
# in its process (standard) nothing happens; in a match jail, where the bots share the API's
# functions, the CPU is spent in another AI's move(), whose guard charges it.
import roborally.api as api
from roborally.api import *
name = 'APIFramer'


def _spin_then_answer(*args, **kwargs):     # runs with the API module's globals
    clock = __import__('time').process_time
    start = clock()
    while clock() - start < 1.5:
        pass
    return _framed[__import__('sys')._getframe().f_code.co_name](*args, **kwargs)


def move():
    framed = api.__dict__.setdefault('_framed', {})
    for function in (api.flag_in_sight, api.shot_by, api.shooting, api.sense_flag):
        if function.__name__ not in framed:
            framed[function.__name__] = type(function)(
                function.__code__, function.__globals__, function.__name__,
                function.__defaults__, function.__closure__)
            function.__code__ = _spin_then_answer.__code__.replace(co_name=function.__name__)
    return FORWARD
