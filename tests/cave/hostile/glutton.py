# Allocates without end (and touches what it gets).
import sys

sys.stdin.read()
hoard = []
while True:
    hoard.append(bytearray(1 << 20))
