"""The Python API against the CLI: every function gives the object its command prints with
`--json` for the same arguments; bots defined as code play like files; results show as
escaped HTML; a bot function that never returns is stopped by the sandbox, and this
process goes on."""
from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

from orchestrator import api
from orchestrator.api import cellbots
from orchestrator.games import GAMES
from tests.api import bots
from tests.support.cli import arena, as_json

# The machine's figures, or where a store is.
VOLATILE = {"cpu_s", "own_s", "mean_cpu_s", "mean_own_s", "peak_rss_mb", "db"}
PYTHON_GAMES = [game for game in GAMES.values() if game.code_bot]   # bots as code


def cli(*args: str) -> dict:
    """What `arena ARGS --json` printed."""
    # compare's --max-games 4 below ends undecided: exit status 3 (docs/compare.md)
    return as_json(arena(*args, "--json", code=3 if args[0] == "compare" else 0, timeout=600))


def stable(data):
    """The JSON without what differs between two runs of the same match on a machine."""
    if isinstance(data, dict):
        return {k: stable(v) for k, v in data.items() if k not in VOLATILE}
    if isinstance(data, list):
        return [stable(v) for v in data]
    return data


def lineup(game) -> list[str]:
    return [str(game.bots_dir / bot) for bot in game.check.opponents]


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.name)
def test_play_gives_what_run_prints(game) -> None:
    bots_ = lineup(game)
    options = {"seed": 7, "max_turns": 12}
    got = api.play(bots_, game=game.name, progress=False, **options)
    printed = cli("run", *bots_, "--game", game.name, "--seed", "7", "--max-turns", "12")
    assert stable(got.to_json()) == stable(printed)
    assert got.winner == printed["winner"] and got.seed == 7
    assert [p.name for p in got.players] == [p["name"] for p in printed["players"]]
    assert [p["cpu_s"] for p in got.players] == [p.cpu_s for p in got.players]


def test_a_saved_replay_is_the_one_run_saves_and_load_replay_reads_it(tmp_path) -> None:
    game = GAMES["arena"]
    mine, theirs = tmp_path / "api.json.gz", tmp_path / "cli.json.gz"
    got = api.play(lineup(game), seed=3, max_turns=10, replay=mine, progress=False)
    printed = cli("run", *lineup(game), "--seed", "3", "--max-turns", "10", "--replay",
                  str(theirs))
    assert got.to_json()["replay"] == str(mine) and printed["replay"] == str(theirs)
    assert mine.read_bytes() == theirs.read_bytes()          # a replay has no machine data
    loaded = api.load_replay(mine)
    assert loaded.to_json() == json.loads(gzip.decompress(theirs.read_bytes()))
    assert loaded.to_json() == got.replay.to_json()
    with pytest.raises(api.InputError, match="replay file not found"):
        api.load_replay(tmp_path / "none.json.gz")


def test_batch_tournament_compare_and_the_store_give_what_the_commands_print(tmp_path
                                                                            ) -> None:
    quick = ["--map", "tiny", "--robots", "3", "--max-turns", "20", "--workers", "2"]
    options = {"map": "tiny", "robots": 3, "max_turns": 20, "workers": 2, "progress": False}
    ours, theirs = tmp_path / "api.sqlite", tmp_path / "cli.sqlite"
    three = ["hunter", "beeline", "turtle"]

    # The API and the command line on the same seeds (without a first seed each results
    # file's run draws its own).
    got = api.batch(three[:2], seeds=3, first_seed=1, db=ours, **options)
    printed = cli("batch", *three[:2], "--seeds", "3", "--first-seed", "1", "--db",
                  str(theirs), *quick)
    assert stable(got.to_json()) == stable(printed)
    assert got.matches == 3 and got.skipped == 0 and got.db == str(ours)
    assert api.batch(three[:2], seeds=3, first_seed=1, db=ours, **options).skipped == 3

    got = api.tournament(three, games=1, first_seed=1, db=ours, **options)
    printed = cli("tournament", *three, "--games", "1", "--first-seed", "1", "--db",
                  str(theirs), *quick)
    assert stable(got.to_json()) == stable(printed)
    assert [s.name for s in got.players] == [p["name"] for p in printed["players"]]
    assert got.players[0].elo == printed["players"][0]["elo"]
    # A row reads as its JSON object too, as the results do (docs/python-api.md).
    assert got.players[0]["elo"] == got.players[0].to_json()["elo"] == got.players[0].elo

    got = api.compare("hunter", "beeline", against=["turtle"], max_games=4, seed=1, db=ours,
                      **options)
    printed = cli("compare", "hunter", "beeline", "--against", "turtle", "--max-games", "4",
                  "--seed", "1", "--db", str(theirs), *quick)
    assert stable(got.to_json()) == stable(printed)
    assert got.verdict == printed["verdict"] and got.games == printed["games"]

    store = api.open_store(ours)
    runs = store.runs()
    listed = cli("results", str(theirs))
    assert stable([r.data for r in runs]) == stable(
        [{**r, "created": runs[i].created} for i, r in enumerate(listed["runs"])])
    assert [r.kind for r in runs] == ["batch", "tournament", "compare"]
    for run in runs[:2]:
        got = store.run(run.id[:8])
        printed = cli("results", str(theirs), "--run", run.id[:8])
        assert stable(got.to_json()) == stable(
            printed | {"run": printed["run"] | {"created": run.created}})
    with pytest.raises(api.InputError, match="results file not found"):
        api.open_store(tmp_path / "none.sqlite")


@pytest.mark.parametrize("game", PYTHON_GAMES, ids=lambda g: g.name)
def test_a_bot_defined_as_code_plays_like_a_file(game, tmp_path) -> None:
    side = cellbots.bot_side(game)
    code = bots.by_kind(side.kind)
    got = api.play([code, *lineup(game)[:1]], game=game.name, seed=2, max_turns=5,
                   progress=False)
    mine = next(p for p in got.players if p.name == code.__name__)
    assert mine.status == "ok", mine.reason            # it loaded: the file is a bot
    written = Path(mine.bot)
    assert written.suffix == ".py" and side.entry in written.read_text()
    # The same code is the same file: a batch of it resumes.
    assert api.bot_file(code, game.name) == written


def test_every_python_game_says_what_its_code_bots_define() -> None:
    for game in PYTHON_GAMES:
        assert cellbots.bot_side(game).entry
    for game in GAMES.values():
        if game.code_bot is None:
            with pytest.raises(api.InputError, match="programs|files"):
                api.bot_file(bots.idle, game.name)


def test_code_that_cannot_be_a_bot_is_refused_with_a_reason() -> None:
    namespace: dict = {}
    exec("def move():\n    return None\n", namespace)
    for code, reason in ((lambda: None, "a lambda cannot be a bot"),
                         (namespace["move"], "source cannot be found"),
                         (bots.closure_maker(), "uses seen from the function around it"),
                         (bots.Idle, "arena bots are a function"),
                         (42, "a bot is a file's path")):
        with pytest.raises(api.InputError, match=reason):
            api.play([code, "hunter"], progress=False)


def test_a_bot_function_that_never_returns_is_stopped_and_the_caller_goes_on() -> None:
    got = api.play([bots.spin, "hunter"], seed=1, max_turns=5, progress=False,
                   cpu_limit=0.2)
    spun = next(p for p in got.players if p.name == "spin")
    assert spun.status == "erased" and spun.reason, spun
    assert got.winner == "Hunter"
    again = api.play(["hunter", "beeline"], seed=1, max_turns=3, progress=False)
    assert again.turns == 3                             # this process still plays


def test_results_show_as_html_with_every_bot_string_escaped(tmp_path) -> None:
    hostile = '<script>alert("x")</script>'
    bot = api.bot_file(bots.idle, name=hostile)
    got = api.play([bot, "hunter"], seed=1, max_turns=4, progress=False)
    assert any(p.name == hostile for p in got.players)
    page = got._repr_html_()
    assert hostile not in page and "&lt;script&gt;alert(" in page
    assert page.count("<iframe") == 1 and 'sandbox="allow-scripts"' in page
    assert "Content-Security-Policy" in page          # the viewer keeps its own CSP
    table = api.batch([bot, "hunter"], seeds=1, max_turns=4, db=tmp_path / "h.sqlite",
                      progress=False)._repr_html_()
    assert hostile not in table and "&lt;script&gt;" in table and "<table>" in table


def test_to_pandas_gives_frames_and_says_how_to_get_pandas(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    got = api.play(["hunter", "beeline"], seed=1, max_turns=3, progress=False, record=False)
    assert got.replay is None
    frame = got.to_pandas()                      # pandas is in the test extra
    assert list(frame["name"]) == [p.name for p in got.players]
    assert len(frame) == 2 and "cpu_s" in frame.columns
    run = api.batch(["hunter", "beeline"], seeds=2, max_turns=3, db=tmp_path / "p.sqlite",
                    progress=False)
    standings = run.to_pandas()
    assert sorted(standings["name"].str.lower()) == ["beeline", "hunter"]
    assert standings["matches"].tolist() == [2, 2]
    monkeypatch.setitem(sys.modules, "pandas", None)      # as on a machine without it
    with pytest.raises(ImportError, match="pip install pandas"):
        got.to_pandas()


def test_match_mode_names_the_standard_mode_executable_bots_play_in(tmp_path) -> None:
    """Programs need a keeper that may start them; a run asked for `match` says it played
    them in the standard mode, in its title and its JSON (a single match says so too)."""
    got = api.batch(["forager", "wanderer"], game="cave", seeds=1, max_turns=3,
                    sandbox="match", workers=1, db=tmp_path / "c.sqlite", progress=False)
    assert got["sandbox_note"] == "executable bots: played in the standard mode"
    assert "sandbox standard (executable bots: --sandbox match falls back)" in got.title
    python_only = api.batch(["hunter", "beeline"], seeds=1, max_turns=3, map="tiny", robots=3,
                            sandbox="match", workers=1, db=tmp_path / "a.sqlite",
                            progress=False)
    assert "sandbox_note" not in python_only.to_json() and "sandbox match" in python_only.title
