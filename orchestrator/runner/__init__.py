"""Playing matches: the match loop (`match.py`), the workers and jails that play many
(`execute.py`, `schedule.py`, `series.py`), the job a match jail runs and the check of
what it returns (`jail_job.py`, `jail_result.py`), bot files and samples (`bots.py`,
`samples.py`) and the CI gate's match and verdict (`check.py`).

May import results, replay and games (tests/test_layers.py, MAY_IMPORT).
"""
