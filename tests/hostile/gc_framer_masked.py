# As gc_framer.py, but its finalizer also blocks the CPU and wall timers' signals, so only
# the host's watchdog, reading the whole jail's CPU clock, can end the other AI's call.
import gc
import signal
import time
from roborally.api import *
name = 'MaskedFramer'


class Spin:
    def __init__(self):
        self.me = self

    def __del__(self):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGPROF})
        start = time.process_time()
        while time.process_time() - start < 2.5:
            pass
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM, signal.SIGPROF})


ballast = []


def move():
    gc.disable()
    Spin()
    ballast.extend([] for _ in range(1000))     # past the collector's threshold
    return FORWARD
