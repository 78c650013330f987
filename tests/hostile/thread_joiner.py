"""Waits on its own thread: each move starts a thread that sleeps 0.3 s and joins it. No
thread is left running (the join returns), no CPU is used, the move is legal: the wait is
still the bot's own time, and its bank ends it."""
import threading
import time

from roborally.api import *

name = 'ThreadJoiner'


def move():
    helper = threading.Thread(target=time.sleep, args=(0.3,))
    helper.start()
    helper.join()
    return LASER
