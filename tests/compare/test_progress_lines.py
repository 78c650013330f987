"""`arena compare` talks where no bar can be drawn: piped into a file, a line on
stderr at least every 30 s (EVERY_S, 10 s) with the games counted, the LLR and its bounds,
and an estimate of the games left; paced by time, not by game. Its default --max-games is
sized to the game's cost, and the time it may take is said before the first game.

The pacing is driven by a fake clock and the ticker by hand: nothing here depends on how
loaded the machine is."""
from __future__ import annotations

import io
import re

import pytest

from orchestrator import api
from orchestrator.api import progress
from orchestrator.games import GAMES
from orchestrator.service import compare as comparisons
from orchestrator.service.compare import Test as SequentialTest
from tests.positions.support import lineup
from tests.support.cli import arena

LINE = re.compile(r"compare: (?P<games>\d+) of at most [\d,]+ games counted, "
                  r"LLR [+-]\d+\.\d\d \(bounds -\d+\.\d\d, \+\d+\.\d\d\)"
                  r"(, Elo [+-]\d+\.\d \([+-]\d+, [+-]\d+\))?, "
                  r"(about [\d,]+ games left by the LLR's pace \(~[^;]+; at most [\d,]+\)"
                  r"|at most [\d,]+ games left \(~[^)]+\)), \d+ (s|min|h \d\d min) so far")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _lines(test: SequentialTest, clock: Clock,
           total: int = 400) -> tuple[progress.Lines, io.StringIO]:
    out = io.StringIO()
    return progress.Lines(test, total, 2, 2.0, out, clock=clock, every=progress.EVERY_S), out


def _test() -> SequentialTest:
    return SequentialTest(0.0, 10.0, 0.05, 0.05, "normalized", 3)


def test_a_line_every_ten_seconds_of_games_not_one_per_game() -> None:
    """A game every second for 100 s: ten lines, each with the figures of its moment."""
    test, clock = _test(), Clock()
    lines, out = _lines(test, clock)
    for second in range(100):
        clock.now += 1
        test.add(2 if second % 3 else 1)            # NEW mostly better
        lines.update()
    said = out.getvalue().splitlines()
    assert len(said) == 10, said
    for line in said:
        assert LINE.fullmatch(line), line
    assert said[0].startswith("compare: 20 of at most 400 games counted, LLR +")
    assert said[-1].startswith("compare: 200 of at most 400 games counted")
    assert "100 s so far" not in said[-1] and "2 min so far" in said[-1]


def test_a_line_comes_while_no_game_ends() -> None:
    """Games longer than 30 s: the ticker still says where the comparison is, at every
    tick, so a piped compare is never silent for 30 s."""
    test, clock = _test(), Clock()
    lines, out = _lines(test, clock, total=3600)
    for _ in range(6):                              # a minute, no game ended
        clock.now += progress.EVERY_S
        lines.tick()
    said = out.getvalue().splitlines()
    assert len(said) == 6
    assert said[0] == ("compare: 0 of at most 3,600 games counted, LLR +0.00 (bounds -3.06, "
                       "+3.06), at most 3,600 games left (~1 h 00 min), 10 s so far")
    clock.now += 1
    lines.close()                                   # the end: the figures once more
    assert out.getvalue().splitlines()[-1].endswith("1 min so far")


def test_the_games_left_follow_the_llrs_pace_and_the_time_the_games_took() -> None:
    test, clock = _test(), Clock()
    lines, out = _lines(test, clock, total=1000)
    for _ in range(10):
        clock.now += 2.0                            # a pair every 2 s: 1 s a game
        test.add(2)
        lines.update()
    assert test.llr > 0
    expected = progress.games_left(test.pairs, test.llr, *lines.bounds, 500)
    assert expected is not None and 0 < expected < 1000 - 20
    line = out.getvalue().splitlines()[-1]
    assert f"about {expected:,} games left by the LLR's pace " \
           f"(~{progress.duration(expected * 1.0)}; at most 980)" in line, line
    assert progress.games_left(0, 0.0, -3, 3, 500) is None
    assert progress.games_left(10, -1.0, -3.0, 3.0, 500) == 2 * 20   # 0.1 a pair, 2 to go


def test_the_ticker_thread_says_a_line_without_any_game(monkeypatch) -> None:
    """`llr_lines` starts the ticker: with a tiny interval, lines come with no update."""
    out = io.StringIO()
    with progress.llr_lines(_test(), 40, 2, 2.0, out=out, every=0.01):
        for _ in range(500):
            if out.getvalue().count("\n") >= 2:
                break
            __import__("time").sleep(0.01)
    assert out.getvalue().count("games counted") >= 2


def test_piped_the_watch_is_lines_not_a_bar() -> None:
    """Under pytest stdout and stderr are not terminals: the lines, not the bar."""
    watch = progress.compare_watch(40, 2, 2.0)
    assert watch is not progress.llr_bar


def test_the_default_max_games_is_sized_to_each_games_cost(monkeypatch) -> None:
    for name in GAMES:
        games = comparisons.default_max_games(name)
        cost = GAMES[name].competition.game_seconds
        assert games % 2 == 0 and comparisons.MIN_GAMES <= games <= comparisons.MAX_GAMES
        assert games == comparisons.MAX_GAMES or games * cost <= 1.1 * comparisons.BUDGET_S
    assert comparisons.default_max_games("arena") == 3600          # 2 s a game: 2 h
    assert comparisons.default_max_games("robotgame") == 20_000    # 0.2 s: capped


def test_the_api_plans_the_games_default_and_says_how_long_first(monkeypatch, tmp_path,
                                                                 capsys) -> None:
    planned = {}

    def stop(found, watch):
        planned["games"] = len(found.planned)
        raise KeyboardInterrupt
    monkeypatch.setattr(comparisons, "finish", stop)
    with pytest.raises(KeyboardInterrupt):
        api.compare("hunter", "beeline", against=["turtle"], db=tmp_path / "c.sqlite",
                    seed=1, progress=True)
    assert planned["games"] == 3600
    assert "at most 3,600 games (--max-games 3,600): up to about 1 h 00 min at ~2 s a game " \
           "on " in " ".join(capsys.readouterr().err.split())


def test_compare_piped_into_a_file_says_its_progress(tmp_path) -> None:
    """`arena compare ... > f 2> g`: the plan, then progress lines, then the report."""
    bots = [str(p) for p in lineup("toy")]
    done = arena("compare", "--game", "toy", *bots, "--max-games", "6", "--sandbox", "off",
                 "--workers", "1", "--db", str(tmp_path / "c.sqlite"))
    assert done.returncode in (0, 1, 3, 4), done.stderr
    err = done.stderr.splitlines()
    assert any(line.startswith("at most 6 games (--max-games 6): up to about") for line in err)
    progress_lines = [line for line in err if line.startswith("compare: ")]
    assert progress_lines and all(LINE.fullmatch(line) for line in progress_lines), err
    last = LINE.fullmatch(progress_lines[-1])
    assert last and 2 <= int(last["games"]) <= 6            # the end's figures, said last
