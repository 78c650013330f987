#!/usr/bin/env python3
"""A Cave Rangers program that floods mark lines on its stderr every turn."""
import sys

sys.stdin.read()
for i in range(5000):
    print(f"#note flood {i} " + "x" * 90, file=sys.stderr)
    print(f"#dot {i % 5} {i % 5} red", file=sys.stderr)
print("MN")
