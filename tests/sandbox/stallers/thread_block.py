"""Blocks on its own thread in every move: the thread sleeps 0.5 s, the move joins it (no
CPU, and the move itself never sleeps)."""
import threading
import time

from roborally.api import LASER

name = 'ThreadBlock'


def move():
    worker = threading.Thread(target=time.sleep, args=(0.5,))
    worker.start()
    worker.join()
    return LASER
