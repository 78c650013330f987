"""Pure game rules. No processes, no I/O beyond parsing text handed to it."""

ENGINE_VERSION = "0.3.0"


class InputError(Exception):
    """Bad user input (a map, a scenario, a rules override): shown as one `error:` line."""
