# Crashes every turn.
raise SystemExit("cannot decide")
