"""rgkit's `rgkit.rg` is the sandbox's `rg`: the same module object, not a copy."""
import sys

import rg

sys.modules[__name__] = rg
