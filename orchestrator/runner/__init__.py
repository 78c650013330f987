"""Playing matches: the match loop (`match.py`), the workers and jails that play many
(`execute.py`, `schedule.py`, `series.py`), the job a match jail runs and the check of
what it returns (`jail_job.py`, `jail_result.py`), bot files and samples (`bots.py`,
`samples.py`) and the CI gate's match and verdict (`check.py`).

May import results, replay, games and options (tests/test_layers.py, MAY_IMPORT).
"""

# What a match jail runs (jail_job.py), named to the sandbox, which imports no orchestrator
# module: by the match (match.py) and by `arena`'s entry point, which warms the jail zygote
# up before the command imports (orchestrator/cli/launch.py). Here, in the package's
# module, which imports nothing, so that the entry point reads it without the runner's
# modules.
JAIL_JOB = "orchestrator.runner.jail_job"
