"""The service layer: what each command does, below both the CLI and the Python API.

Each module is one command's work as plain functions that take values and return plain
data (the very dicts `--json` prints); the API (orchestrator/api/) wraps them in its
typed results, and the commands (orchestrator/cli/) parse, call the API and print.
Every check of a value a user gives lives here, once, so both fronts say the same
`error: ...` line. Nothing here imports a command module or prints (progress is shown
through the callbacks the caller passes).

  (the option groups the fronts pass in are orchestrator/options/'s; they are checked here)
  setup     what a match or a run is built from: the game, rules, limits, map, bots
  play      one match (`arena run`)
  values    the checks of values every command shares (seed, rules, limits, choices)
  check     what `arena check` is given (the check itself: orchestrator/runner/check.py)
  batch     many matches into a results file (`arena batch`, `arena tournament`)
  compare   paired games until a sequential test decides (`arena compare`)
  results   the runs of a results file (`arena results`)
  matchups  who beats whom, and a bot's games (`arena results --matrix`, `--games`)
  stored_replay  a stored match's replay: kept, or played again from its record
  scenario  scripted moves on a hand-made position (`arena scenario`)
  publish   the static site of a run (`arena publish`)

May import the views, the runner, results, replay and games; no typer, no rich
(tests/test_layers.py, MAY_IMPORT).
"""
