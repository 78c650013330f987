# Forks, then tries to exec a shell; the answer comes after, as if all were well.
import os
import sys

sys.stdin.read()
try:
    if os.fork() == 0:
        os._exit(0)
    print("LEAK: fork worked", file=sys.stderr)
except OSError:
    pass
try:
    os.execv("/bin/sh", ["sh", "-c", "touch /tmp/arena-hostile-shell-out"])
except OSError:
    pass
print("HNNHNN")
