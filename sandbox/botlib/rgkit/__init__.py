"""`from rgkit import rg` and `from rgkit.settings import settings` for rgkit's newer bots."""
import rg  # noqa: F401
