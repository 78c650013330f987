# Tries to reach the host over TCP and UDP.
import socket
import sys

sys.stdin.read()
for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
    try:
        s = socket.socket(socket.AF_INET, kind)
        s.connect(("127.0.0.1", 48917))
        s.send(b"knock")
        print("LEAK: connected", file=sys.stderr)
    except OSError:
        pass
print("HNNHNN")
