"""`arena --version`'s line: said by the entry point (launch.py) before the command line
imports, and by the app's own `--version` (app.py). Imports nothing at its import."""


def version_line() -> str:
    """`arena --version`: the package's version and the engine's (a result records the
    engine's: the same engine version plays the same match for the same seed)."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    from engine import ENGINE_VERSION  # noqa: PLC0415

    try:
        package = version("robot-arena")
    except PackageNotFoundError:            # a checkout run without installing it
        package = "(not installed)"
    return f"robot-arena {package}, engine {ENGINE_VERSION}"
