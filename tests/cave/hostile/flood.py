# Writes 10 MB to stdout in one turn.
import sys

sys.stdin.read()
sys.stdout.write("x" * (10 << 20))
