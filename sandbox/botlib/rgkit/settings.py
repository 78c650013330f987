"""rgkit's `rgkit.settings`: the same `settings` object as `rg.settings`."""
from rg import AttrDict, settings  # noqa: F401
