"""Marks the tests of several folders share."""
from __future__ import annotations

import pytest

# pytest-xdist: the tests that share host-wide things run on one worker, one at a time:
# the port the hostile network bots knock on (tests/sandbox/test_hostile.py's listeners)
# and the files outside the sandbox (ESCAPES) that only an unsandboxed run writes.
HOST_WIDE = pytest.mark.xdist_group("host-wide")


# A test of a minute or more of its own (tests/sandbox/test_ordinary_user.py's parts):
# xdist hands out the groups first, then the other tests in the order collected, so such
# a test collected late would start last and run alone at the end; these are moved first.
LONG = pytest.mark.long
