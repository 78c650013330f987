"""Debug marks and notes: for every game of the registry, a sample bot that
thinks aloud (tests/marks/bots/<game>.py: a note per robot, a dot, a line) plays a short
match; its marks are read back from the replay (through the bounded reader), drawn in the
terminal and printed with `--turns`' report, drawn in the page in a real browser with a
toggle per AI and a robot's note on click, and found in no other bot's reach.

The toy game (tests/toy/, a plugin) takes part like the others: it opts in to squares by
`mark_square`/`mark_piece` (engine/protocol.py); any game's bots' notes are kept without.
"""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from orchestrator.games import GAMES
from orchestrator.replay import debug
from orchestrator.replay import file as replay
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from orchestrator.views import replay as replay_view
from orchestrator.views import turn_report
from tests.browser import ARGS, CHROMIUM, SKIP_REASON
from tests.support.thinkers import opponent, thinker

GAME_NAMES = sorted(GAMES)            # every game of the registry, the toy plugin too
TURNS = {"race": 4}


def play(name: str, bots: list, mode: str = "standard", turns: int | None = None,
         seed: int = 5) -> tuple[dict, dict]:
    game = GAMES[name]
    rules = game.rules(game.presets[0], max_turns=turns or TURNS.get(name, 6))
    spec = MatchSpec(name, game.find_map(None), bots, seed, rules, None, mode)
    replays: list[dict] = []
    result = run_match(spec, replays=replays)
    return result, replays[0]


_PLAYED: dict[str, tuple[dict, dict]] = {}


def played(name: str, tmp_path_factory) -> tuple[dict, dict]:
    """The thinker against the game's first sample: its result, and its replay as the
    reader reads it back from the file."""
    if name not in _PLAYED:
        result, built = play(name, [read_bot(thinker(name)), opponent(name)])
        path = replay.save(built, tmp_path_factory.mktemp(name) / "match.json.gz")
        _PLAYED[name] = result, replay.load(path)
    return _PLAYED[name]


def marked_turn(data: dict) -> tuple[int, int, dict]:
    """The first frame whose turn has marks of AI 0 with a note, a dot and a line where the
    game has squares: (frame index, turn number, its marks). In a game that names turns as
    its bots see them (Robot Game's game.turn), the frame is the board they were made on,
    and the turn its number: one before the replay's entry that keeps them."""
    seen = 1 if GAMES[data["game"]].shown.seen_turns else 0
    for index, entry in enumerate(data["turns"], start=1):
        found = debug.turn_marks(data, entry["turn"]).get(0)
        if found and found.get("notes") and found.get("dots"):
            return index - seen, entry["turn"] - seen, found
    raise AssertionError(f"no turn with a note and a dot: {data.get('debug')!r:.300}")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_marks_are_kept_in_the_replay_and_read_back(name, tmp_path_factory) -> None:
    result, data = played(name, tmp_path_factory)
    assert [p["status"] for p in result["players"]] == ["ok"] * len(result["players"])
    section = data[debug.SECTION]
    assert set(section) == {"0"}, "only the bot that made marks has a part, under its AI"
    _, turn, found = marked_turn(data)
    size = data["map"]["size"]
    assert found["notes"] and all(type(text) is str and text for _, text in found["notes"])
    assert all(0 <= x < data["map"].get("width", size) and 0 <= y < data["map"].get(
        "height", size) for x, y, _ in found["dots"])
    assert all(colour in debug.PALETTE for *_, colour in found["dots"] + found.get("lines", []))
    thinker_seat = next(p for p in result["players"] if p["seat"] == 0)
    assert debug.CUT_WARNING not in thinker_seat["warnings"]     # within the caps
    # The same match without marks makes a replay without the section, turn for turn the
    # same: the marks change nothing of the game.
    plain = data["turns"]
    assert turn + (1 if GAMES[name].shown.seen_turns else 0) in {e["turn"] for e in plain}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_terminal_draws_the_marks_and_a_chosen_robots_note(name, tmp_path_factory) -> None:
    _, data = played(name, tmp_path_factory)
    index, turn, found = marked_turn(data)
    piece, note = found["notes"][0]
    frames = replay.Frames(data)
    shown = Console(file=io.StringIO(), width=200, color_system="truecolor",
                    force_terminal=True)
    shown.print(replay_view.screen(data, frames, index, False,
                                   replay_view.Look(keys=False, robot=piece)))
    text = shown.file.getvalue()
    plain_text = Console(file=io.StringIO(), width=200)
    plain_text.print(replay_view.screen(data, frames, index, False,
                                   replay_view.Look(keys=False, robot=piece)))
    words = plain_text.file.getvalue()
    assert f"robot {piece}'s note: {note}" in words, words
    assert "marks of" in words and "dots (" in words
    # The marked squares are drawn on the board in their colour (a background).
    assert "\x1b[" in text and replay_view.marked_squares({0: found})
    # Without marks at that frame (turn 0), no marks line.
    plain_text = Console(file=io.StringIO(), width=200)
    plain_text.print(replay_view.screen(data, frames, 0, False, replay_view.Look(keys=False)))
    assert "marks of" not in plain_text.file.getvalue()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_turn_report_prints_each_turns_marks(name, tmp_path_factory) -> None:
    _, data = played(name, tmp_path_factory)
    _, turn, found = marked_turn(data)
    report = turn_report.played_turns(data)
    entry = next(t for t in report if t["turn"] == turn)
    thinker_name = data["players"][data["seats"][0]]["name"]
    assert entry["marks"] == {thinker_name: found}
    printed = Console(file=io.StringIO(), width=300)
    turn_report.print_turns(printed, report, data)
    assert f"marks of {thinker_name}: note" in printed.file.getvalue()


# -- the page, in a real browser -----------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if CHROMIUM is None:            # as every browser test of the suite (make test installs it)
        pytest.skip(SKIP_REASON)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_page_draws_the_marks_with_a_toggle_and_shows_a_note_on_click(
        name, tmp_path_factory, browser, tmp_path) -> None:
    _, data = played(name, tmp_path_factory)
    index, _, found = marked_turn(data)
    html = replay_view.write_html(data, tmp_path / "page.html")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(html.as_uri())
    page.evaluate(f"viewer.go({index})")
    drawn = len(found.get("dots", [])) + len(found.get("lines", []))
    assert page.evaluate("viewer.drawnMarks") == drawn
    piece, note = found["notes"][0]
    assert note in page.evaluate(f"viewer.notesOf({piece!r})")
    # Click the piece the note is about: its panel shows the note, as text.
    robot = next((r for r in page.evaluate(f"viewer.robots({index})")
                  if r.get("key", r["id"]) == piece), None)
    assert robot is not None, page.evaluate(f"viewer.robots({index})")
    x, y = page.evaluate(f"viewer.cellCenter({robot['r']}, {robot['c']})")
    page.mouse.click(x, y)
    assert note in page.inner_text("#robot")
    # The AI's toggle hides its marks and notes.
    toggle = page.locator("#markToggles input[data-ai='0']")
    assert toggle.is_checked()
    toggle.uncheck()
    assert page.evaluate("viewer.drawnMarks") == 0
    assert note not in page.inner_text("#robot")
    assert page.locator("#markToggles input").count() == 1     # only the thinker has marks
    assert errors == []
    page.close()


# -- no other bot's reach -------------------------------------------------------------------
SPY = '''import _marks
import marks
import rg


class Robot:
    def act(self, game):
        # What the marks' buffer holds when this robot is asked: its own notes only.
        marks.note(f"seen {len(_marks._entries)} of robot {self.robot_id}")
        return ['guard']
'''


@pytest.mark.parametrize("mode", ["standard", "off", "match"])
def test_no_other_bot_sees_a_bots_marks(mode, tmp_path) -> None:
    """A spy beside the thinker reads the marks' buffer each time it is asked: it holds
    only what the spy itself said, in every mode (in `off`, both bots share the host's
    process and the buffer's module)."""
    spy = tmp_path / "spy.py"
    spy.write_text(SPY)
    result, data = play("robotgame", [read_bot(thinker("robotgame")), read_bot(spy)], mode)
    assert [p["status"] for p in result["players"]] == ["ok", "ok"], result["players"]
    section = data[debug.SECTION]
    assert set(section) == {"0", "1"}
    notes = [text for turn in section["1"].values() for _, text in turn["notes"]]
    assert notes and all(text.startswith("seen ") for text in notes)
    # Each of the spy's robots saw only the spy's own notes of this turn: as many as the
    # robots asked before it.
    for turn in section["1"].values():
        assert [int(text.split()[1]) for _, text in turn["notes"]] == \
            list(range(len(turn["notes"])))


# -- a note is text, wherever it is shown -----------------------------------------------------
HOSTILE_NOTE = "<img src=x onerror=alert(1)>\x1b]52;c;aGk=\x07\x1b[31mred\u202e"


def hostile_noted() -> dict:
    from tests.replay.hostile_replays import valid
    data = valid()
    data["debug"] = {"0": {"1": {"notes": [[0, HOSTILE_NOTE]], "dots": [[1, 1, "red"]]}}}
    return data


def test_a_hostile_note_is_text_in_the_terminal(tmp_path) -> None:
    path = tmp_path / "noted.json.gz"
    path.write_bytes(replay.encode(hostile_noted()))
    data = replay.load(path)
    shown = Console(file=io.StringIO(), width=200, force_terminal=True)
    shown.print(replay_view.screen(data, replay.Frames(data), 1, False,
                                   replay_view.Look(keys=False, robot=0)))
    text = shown.file.getvalue()
    assert "\x1b]52" not in text and "\x07" not in text and "\u202e" not in text
    assert "<img src=x onerror=alert(1)>" in text and "\\x1b" in text


def test_a_hostile_note_is_text_in_the_page(browser, tmp_path) -> None:
    html = replay_view.write_html(hostile_noted(), tmp_path / "noted.html")
    page = browser.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(html.as_uri())
    page.evaluate("viewer.go(1)")
    notes = page.evaluate("viewer.notesOf(0)")
    assert len(notes) == 1 and notes[0].startswith("<img src=x onerror=alert(1)>")
    x, y = page.evaluate("viewer.cellCenter(1, 2)")        # robot 0 at row 1, col 2 then
    page.mouse.click(x, y)
    assert "<img src=x onerror=alert(1)>" in page.inner_text("#robot")
    assert page.locator("#robot img").count() == 0 and dialogs == []
    page.close()


def test_a_match_jails_forged_marks_send_the_match_to_the_standard_mode() -> None:
    """A jail runs every bot in one process, so its replay's marks may be forged: held to
    what the host keeps, as the reader holds a file's (orchestrator/runner/jail_result.py)."""
    from orchestrator.runner import jail_result
    result, data = play("robotgame", [read_bot(thinker("robotgame")), opponent("robotgame")],
                        "match")
    assert result["sandbox_mode"] == "match" and "sandbox_note" not in result
    assert jail_result._overgrown(result, data, 6, 2, 64 << 10) is None
    for forged in ({"1": {"9999": {"notes": [[0, "x"]]}}}, {"0": []},
                   {"0": {"1": {"dots": [[500, 0, "red"]]}}},
                   {"0": {"1": {"notes": [[0, "n" * 101]]}}}):
        assert jail_result._overgrown(result, {**data, debug.SECTION: forged}, 6, 2,
                                      64 << 10) == "its replay's marks are past what the host keeps"


def test_a_programs_mark_line_takes_ascii_numbers_only(tmp_path) -> None:
    """A Cave program's `#dot ROW COL COLOUR` line: its numbers are ASCII decimal. Before,
    int() read '٠' (an Arabic-Indic zero) and '１' (a fullwidth one) as 0 and 1 and kept
    the dot; now such a line is no mark."""
    path = tmp_path / "odd_digits.py"
    path.write_text("import sys\nsys.stdin.read()\n"
                    "print('#dot \u0660 \uff11 orange', file=sys.stderr)\n"
                    "print('#line \u0660 0 1 1 purple', file=sys.stderr)\n"
                    "print('#note kept', file=sys.stderr)\nprint('MN')\n", encoding="utf-8")
    path.chmod(0o755)
    _, data = play("cave", [read_bot(path), opponent("cave")], turns=3)
    mine = data.get(debug.SECTION, {}).get("0", {})
    assert mine and all(set(marks) == {"notes"} for marks in mine.values()), mine
