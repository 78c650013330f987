# cave-protocol: persistent
# Answers its first turn, then sleeps through every later one.
import sys
import time

sys.stdin.readline()
for line in sys.stdin:
    if not line.strip():
        print("HNNHNN", flush=True)
        break
time.sleep(1000)
