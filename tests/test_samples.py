"""Bundled samples from the checkout: every one listed by `arena bots` and found by its name
in every command, the C sample compiled on first use (once, into the user's cache), and a
clear answer where it cannot be. Generated from the files in bots/, so a new sample is
covered with no test edited."""
from __future__ import annotations

import json
import os
import shutil

import pytest
from typer.testing import CliRunner

from engine import InputError
from orchestrator.cli.app import app
from orchestrator.cli.bots import listing
from orchestrator.games import GAMES, sample_folder
from orchestrator.runner import samples
from orchestrator.runner.bots import read_bot
from orchestrator.runner.samples import Unbuildable, build, find_sample, named_samples, runnable
from sandbox.programs import describe
from tests.support.cli import arena
from tests.support.paths import ROOT

SAMPLES = [(game, name, path) for game in GAMES for name, path in named_samples(game)]
HAS_CC = shutil.which("cc") is not None
NEEDS_CC = pytest.mark.skipif(not HAS_CC, reason="no C compiler (cc) to build the C sample")


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """Each test builds into its own cache, as on a first use."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_every_file_in_bots_is_a_listed_sample() -> None:
    kept = {name: game.home / "bots" for name, game in GAMES.items() if game.home}
    on_disk = sorted(f"{game}/{p.name}" for game, p in [
        *((p.parent.name, p) for p in (ROOT / "bots").glob("*/*")),
        *((name, p) for name, folder in kept.items() for p in folder.glob("*"))]
        if p.is_file() and p.suffix and p.name[0] not in "_.")
    rows = listing(list(GAMES.values()))
    assert sorted(f"{row['game']}/{row['file']}" for row in rows) == on_disk
    for row in rows:
        assert row["summary"].startswith(row["name"].split(".")[0].capitalize()), row
        assert len(row["summary"]) <= 100 and row["summary"].endswith("."), row
        assert row["runtime"], row


def test_a_programs_runtime_is_what_the_sandbox_would_use() -> None:
    for row in listing([GAMES["cave"]]):
        path = ROOT / "bots" / "cave" / row["file"]
        if path.suffix in samples.COMPILED:
            assert row["runtime"].startswith("native")
            continue
        info = describe(path.name, path.read_bytes())
        assert (row["runtime"], row["persistent"]) == (info["runtime"], info["persistent"])


@pytest.mark.parametrize(("game", "name", "path"), SAMPLES,
                         ids=[f"{game}-{name}" for game, name, _ in SAMPLES])
def test_a_sample_is_found_by_its_name_and_file_name(game, name, path) -> None:
    if path.suffix in samples.COMPILED and not HAS_CC:
        pytest.skip("no C compiler (cc) to build the C sample")
    for ref in {name, path.name}:
        bot = read_bot(ref, game)
        assert bot.source == runnable(path).read_bytes()
        assert bot.name == read_bot(runnable(path)).name


def test_a_file_here_comes_before_a_sample_and_paths_are_never_names(tmp_path,
                                                                     monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "forager.py").write_text("print('mine')\n")
    assert read_bot("forager.py", "cave").source == b"print('mine')\n"
    # A path is not resolved as the sample it names; the error says how to name it.
    with pytest.raises(InputError, match=r"bot file not found \(the bundled cave sample "
                                         r"`scout` is given by its name alone\)$"):
        read_bot("elsewhere/scout.js", "cave")
    with pytest.raises(InputError, match="bot file not found$"):
        read_bot("scout")                   # no game: no samples to look in


def test_a_shared_stem_is_the_python_sample_and_the_others_go_by_file_name(tmp_path) -> None:
    """`survivor` was refused as `several robotgame samples have this name`,
    though a sample's name works wherever a file does (and Ruby may not be installed)."""
    assert find_sample("robotgame", "survivor") == ROOT / "bots/robotgame/survivor.py"
    assert find_sample("robotgame", "survivor.rb") == ROOT / "bots/robotgame/survivor.rb"
    assert ("survivor", ROOT / "bots/robotgame/survivor.py") in named_samples("robotgame")
    assert ("survivor.rb", ROOT / "bots/robotgame/survivor.rb") in named_samples("robotgame")
    done = arena("run", "--game", "robotgame", "survivor", "example", "--max-turns", "2", "--seed",
                 "1", "--sandbox", "off", "--json", cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    bots = sorted(p["bot"] for p in json.loads(done.stdout)["players"])
    assert [os.path.basename(b) for b in bots] == ["example.py", "survivor.py"], bots


def test_a_bad_name_is_one_error_line_listing_the_samples(tmp_path) -> None:
    done = arena("run", "--game", "cave", "forager", "nosuch", cwd=tmp_path, timeout=120)
    assert done.returncode == 2
    names = ", ".join(name for name, _ in named_samples("cave"))
    assert done.stderr.strip() == (f"error: nosuch: bot file not found, nor a bundled cave "
                                   f"sample (samples: {names}; see `arena bots`)")


def test_bots_lists_as_json_and_as_a_table_per_game() -> None:
    runner = CliRunner()
    shown = json.loads(runner.invoke(app, ["bots", "--json"]).output)
    assert {row["game"] for row in shown} == set(GAMES)
    table = runner.invoke(app, ["bots", "--game", "race"], env={"COLUMNS": "200"}).output
    assert "random_bot" in table and "planner" in table and "forager" not in table
    bad = runner.invoke(app, ["bots", "--game", "chess"])
    assert isinstance(bad.exception, InputError)


def test_bots_shows_a_samples_name_and_line_as_text(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "bots" / "arena"
    folder.mkdir(parents=True)
    (folder / "[red]x.py").write_text('"""[bold]Loud[/bold]: hi."""\n')
    monkeypatch.setattr(samples, "bundled", lambda kind: tmp_path / kind)
    shown = CliRunner().invoke(app, ["bots", "--game", "arena"], env={"COLUMNS": "200"}).output
    assert "[red]x" in shown and "[bold]Loud[/bold]: hi." in shown


@NEEDS_CC
def test_the_c_sample_is_built_once_into_the_cache(tmp_path, monkeypatch) -> None:
    source = ROOT / "bots" / "cave" / "digger.c"
    first = build(source)
    assert first.is_relative_to(tmp_path / "cache" / "robot-arena")
    assert first.read_bytes().startswith(b"\x7fELF") and os.access(first, os.X_OK)
    assert [p.name for p in first.parent.iterdir()] == ["digger"]   # no temporary left
    monkeypatch.setattr(sample_folder.subprocess, "run", None)            # no second compile
    assert build(source) == first
    edited = tmp_path / "digger.c"
    edited.write_bytes(source.read_bytes() + b"\n/* edited */\n")
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert build(edited) != first and build(edited).parent.parent == first.parent.parent


@NEEDS_CC
def test_a_c_sample_that_does_not_compile_says_why(tmp_path) -> None:
    broken = tmp_path / "broken.c"
    broken.write_text("int main( {\n")
    with pytest.raises(Unbuildable, match="broken.c: cc could not build it: .*error"):
        build(broken)


def test_without_a_compiler_the_c_sample_is_refused_or_left_out(tmp_path,
                                                                monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))       # no cc on it
    with pytest.raises(Unbuildable, match=r"digger.c: .* no C compiler \(cc\) is on PATH"):
        read_bot("digger", "cave")
    skipped: list[str] = []
    lineup = GAMES["cave"].demo_lineup(on_skip=skipped.append)
    assert [p.name for p in lineup] == [b for b in GAMES["cave"].demo if b != "digger.c"]
    assert len(skipped) == 1 and "no C compiler" in skipped[0]
    with pytest.raises(Unbuildable):
        GAMES["cave"].demo_lineup()


@NEEDS_CC
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_cave_demo_plays_all_its_samples_from_the_checkout(tmp_path) -> None:
    done = arena("run", "--game", "cave", "--max-turns", "4", "--json", cwd=tmp_path, timeout=120,
                 env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    players = json.loads(done.stdout)["players"]
    assert sorted(p["name"] for p in players) == sorted(
        bot.split(".")[0] for bot in GAMES["cave"].demo)
    assert all(p["status"] == "ok" for p in players), players


@pytest.mark.parametrize("command", ["batch", "tournament"])
def test_batch_and_tournament_take_sample_names(command, tmp_path) -> None:
    seeds = ["--seeds", "1"] if command == "batch" else ["--games", "1"]
    done = arena(command, "--game", "arena", "hunter", "beeline.py", *seeds, "--max-turns", "3",
                 "--workers", "1", "--db", str(tmp_path / "r.sqlite"), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    played = {os.path.basename(p["bot"]) for p in json.loads(done.stdout)["players"]}
    assert played == {"hunter.py", "beeline.py"}
