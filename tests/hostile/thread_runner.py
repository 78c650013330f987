import threading
from roborally.api import *
name = 'Threader'
started = []
def spin():
    while True:
        pass
def move():
    if not started:
        started.append(threading.Thread(target=spin, daemon=True))
        started[0].start()
    return FORWARD
