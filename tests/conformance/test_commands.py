"""The matrix's command rows (tests/conformance/matrix.py), from the checkout and from the
wheel installed in a venv outside it. The installed rows share one worker (xdist group),
so the wheel is built once while the other worker runs the rest of the suite."""
from __future__ import annotations

import pytest

from tests.conformance.matrix import CHECKOUT, ModeRow, Row, Where, mode_rows, rows, skip_reason
from tests.support.wheel import Installed

ROWS = rows()


def _play(row: Row, where: Where, tmp_path) -> None:
    reason = skip_reason(row)
    if reason:
        pytest.skip(reason)
    row.play(where, tmp_path)


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_from_the_checkout(row: Row, tmp_path) -> None:
    _play(row, CHECKOUT, tmp_path)


@pytest.mark.xdist_group("installed")
@pytest.mark.parametrize("row", ROWS, ids=str)
def test_from_the_installed_wheel(row: Row, installed: Installed, tmp_path) -> None:
    _play(row, Where("installed", tuple(installed.arena), installed.bundled), tmp_path)


@pytest.mark.parametrize("row", mode_rows(), ids=str)
def test_a_sandbox_mode(row: ModeRow, tmp_path) -> None:
    """Each mode of the registry (tests/modes/counting.py's too) plays `run` and `batch`,
    and `check` passes or refuses it as its record says (matrix.mode_rows)."""
    row.play(CHECKOUT, tmp_path)
