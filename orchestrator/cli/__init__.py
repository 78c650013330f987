"""The command line (`arena`): the typer app (`app.py`, with its `error:` line; a command's
module imports when the command line names it), the launcher that starts the sandbox's
zygotes first (`launch.py`; `arena --version`, `version.py`, before anything), the options every
match-playing command shares (`options.py`) and one module per command (`run`, `batch`
with `tournament` and `results`, `check`, `compare`, `replay`, `maps`, `bots`, `scenario`,
`serve`, `publish`): each parses, calls the API or the service, and prints.

May import every folder (tests/test_layers.py, MAY_IMPORT); nothing imports it.
"""
