# Carries state in file names, not contents: 20 empty files with 200-character names.
import os
import sys

sys.stdin.read()
names = sum(len(name) for name in os.listdir("."))
if names > 1024:
    print(f"LEAK: {names} bytes of names carried over", file=sys.stderr)
for i in range(20):
    try:
        open(f"{i:02d}" + "n" * 198, "wb").close()
    except OSError as exc:
        print(f"{i}: {exc.strerror}", file=sys.stderr)
print("HNNHNN")
