# Fills its scratch past 1 KiB, in one file and in several; then answers.
import sys

sys.stdin.read()
for name, size in (("big", 4096), ("a", 600), ("b", 600), ("c", 600)):
    try:
        with open(name, "wb") as f:
            f.write(b"x" * size)
    except OSError as exc:
        print(f"{name}: {exc.strerror}", file=sys.stderr)
print("HNNHNN")
