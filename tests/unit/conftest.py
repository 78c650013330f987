"""The fast lane: every test under tests/unit runs with `tests.support.noprocess`'s guard
around its module's import, its setup, its call and its teardown, so a unit test that
starts a process (a subprocess, a fork, a multiprocessing worker, the sandbox's zygote)
fails, saying which. A session of unit tests alone also ends with no child process at all
(psutil), and `make unit`'s session, the whole lane, holds at least LEAST_TESTS tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.noprocess import ProcessStarted, children, no_process

UNIT = Path(__file__).resolve().parent
LEAST_TESTS = 300


# The runtest hooks of a conftest apply to the items under its folder only (pytest calls
# them through the item's own hook proxy): the rest of the suite is not guarded.
@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """The collection of each unit folder and module: importing a test module starts no
    process either: one that tries fails its collection."""
    with no_process() as guard:
        report = yield
        tried, guard.attempts = guard.attempts, []
    if tried:
        report.outcome = "failed"
        report.longrepr = f"{ProcessStarted.__name__}: collecting it started a process: {tried}"
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    with no_process():
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    with no_process():
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    with no_process():
        return (yield)


def _lane_alone(session: pytest.Session) -> bool:
    return bool(session.items) and all(
        UNIT in Path(str(item.path)).parents for item in session.items)


def pytest_collection_finish(session: pytest.Session) -> None:
    """`pytest tests/unit`, not narrowed (-k, a file, --lf): the lane holds its count."""
    config = session.config
    whole = [Path(arg).resolve() for arg in config.args] == [UNIT]
    if whole and not config.option.keyword and not getattr(config.option, "lf", False) \
            and _lane_alone(session) and len(session.items) < LEAST_TESTS:
        raise pytest.UsageError(f"tests/unit holds {len(session.items)} tests: the fast "
                                f"lane keeps at least {LEAST_TESTS}")


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A session of unit tests alone leaves this process childless: a process started
    from C, which no patch sees, still shows here."""
    if _lane_alone(session):
        left = children()
        if left:
            words = f"error: {ProcessStarted.__name__}: the unit tests left child processes: {left}"
            reporter = session.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_line(words, red=True)
            else:
                print(words)
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
