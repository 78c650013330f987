# Holds 3,700 threads inside one move() (each waits), then lets them go before returning.
# Small stacks, so that the address-space cap is not what stops them.
import threading

from roborally.api import *

name = 'ThreadFlood'


def move():
    threading.stack_size(64 << 10)
    stop = threading.Event()
    threads = []
    try:
        for _ in range(3700):
            thread = threading.Thread(target=stop.wait)
            thread.start()
            threads.append(thread)
    except RuntimeError as exc:
        raise RuntimeError(f"{exc} after {len(threads)}") from None
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    print(f'LEAK: held {len(threads)} threads')
    return FORWARD
