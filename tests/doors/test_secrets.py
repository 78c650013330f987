"""A bot learns only what the rules show (docs/security.md, "A bot learns only
what the rules show"): no match seed in any frame a bot can reach, no engine stream a
bot's own key lets it compute, and no host figures through sysinfo(2).

The hostile bots live in tests/hostile/secrets/ (the seed snooper that walks gc and its
call stack, an honest bot that prints its hand, a sysinfo caller)."""
from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

import orchestrator.arguments as arguments
from engine.race.factory import seed_factory
from engine.race.match import HAND, RaceMatch, new_deck
from engine.streams import bot_key, derive, stream
from orchestrator import api
from orchestrator.games import get_game
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from orchestrator.service import values as options
from orchestrator.web.ladder.store import LadderStore
from sandbox import host
from sandbox.limits import Limits
from tests.support.paths import BOTS
from tests.support.sandbox import by_name, play, tier_layers

HOSTILE = Path(__file__).parent.parent / "hostile" / "secrets"
SEED = 0x5EED_0F_7E57_5EED       # distinctive: its digits can be looked for in every frame


def _race(snooper_seat: int, seed: int | None, sandbox: str = "standard") -> dict:
    """A 2-round race between the snooper and the honest hand teller; the result dict."""
    bots = [HOSTILE / "race_snoop.py", HOSTILE / "hand_teller.py"]
    if snooper_seat:
        bots.reverse()
    found = api.play(bots, game="race", seed=seed, max_turns=2, sandbox=sandbox,
                     progress=False, record=False)
    return found.data


def _lines(output: str, tag: str) -> list[str]:
    return [line[len(tag) + 1:] for line in output.splitlines() if line.startswith(tag + " ")]


def _predicted_and_dealt(result: dict) -> tuple[list[str], str, str]:
    players = by_name(result)
    snoop, teller = players["race_snoop"], players["hand_teller"]
    predicted = _lines(snoop["output"], "PREDICT")
    hand = next(line.split(" ", 1)[1] for line in _lines(teller["output"], "HAND")
                if line.startswith("1 "))
    return predicted, hand, snoop["output"]


@pytest.mark.parametrize("sandbox", ["standard", "bwrap"])
@pytest.mark.parametrize("snooper_seat", [0, 1])
def test_a_snooper_cannot_predict_an_opponents_race_hand(sandbox: str,
                                                         snooper_seat: int) -> None:
    """Before: the start frame held the seed (and `random`'s pending seed string held it
    too), so the snooper dealt the opponent's deck itself: its predicted first hand was
    the opponent's, card for card (5 matches of 5 on the old code). Now the child holds
    only its own key, and a drawn seed is 63 bits: no seed found, no prediction."""
    if sandbox == "bwrap":
        tier_layers("bwrap")                     # skips with the reason where bwrap lacks
    predicted, hand, output = _predicted_and_dealt(_race(snooper_seat, None, sandbox))
    assert "SEEDS []" in output, output
    assert f"{1 - snooper_seat} {hand}" not in predicted, (hand, predicted)
    assert predicted == []


def test_a_users_small_seed_is_guessable_and_the_docs_say_so() -> None:
    """`--seed 7` is the user's choice: a bot that tries the small seeds against its own
    key finds it (docs/security.md says so). The streams it then computes are the
    engine's: the honest bot's first hand is among the predictions."""
    predicted, hand, output = _predicted_and_dealt(_race(0, 7))
    assert "SEEDS [7]" in output, output
    assert f"1 {hand}" in predicted


@pytest.mark.parametrize("game", ["arena", "race", "robotgame", "cave"])
def test_no_frame_sent_to_a_child_holds_the_seed(monkeypatch, game: str) -> None:
    """Every frame the host writes to a child (load, start, each turn), walked whole: no
    integer equal to the seed, no text or bytes holding its digits or its 8 bytes. The
    start frame holds `key`, and it is the AI's own."""
    sent: list = []
    real = host._wire.write_frame

    def record(fd, obj):
        sent.append(obj)
        return real(fd, obj)

    monkeypatch.setattr(host._wire, "write_frame", record)
    if game == "arena":
        result = play([BOTS / "randy.py", BOTS / "hunter.py"], seed=SEED, robots=2, turns=3)
    else:
        result = api.play(None, game=game, seed=SEED, max_turns=3, progress=False,
                          record=False).data
    assert result["seed"] == SEED
    starts = [frame["start"] for frame in sent if isinstance(frame, dict) and "start" in frame]
    assert len(starts) == len(result["players"]) >= 2
    n = len(starts)
    for start in starts:
        assert set(start) == {"names", "ai", "key", "info"}
        assert start["key"] == bot_key(SEED, start["ai"], n)
    assert len({start["key"] for start in starts}) == n     # each AI its own
    digits, packed = str(SEED), SEED.to_bytes(8, "big")
    for frame in sent:
        for value in _walk(frame):
            assert value != SEED
            if isinstance(value, str):
                assert digits not in value
            if isinstance(value, (bytes, bytearray)):
                assert packed not in value and digits.encode() not in value


def _walk(obj):
    stack = [obj]
    while stack:
        value = stack.pop()
        yield value
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)


def test_each_stream_and_key_is_its_own_one_way_derivation() -> None:
    """A deck's stream is no longer `Random(f"{seed}:deck:{i}")`, whose seed string (and
    so the match seed) a bot could read back from its own generator; and no two purposes
    share a derivation."""
    seed = 12345
    old = random.Random(f"{seed}:deck:1").random()
    assert stream(seed, "deck", 1).random() != old
    keys = {derive(seed, *p) for p in [("deck", 0), ("deck", 1), ("spawn",), ("attack",),
                                       ("starts",), ("fallback",), ("order", 1),
                                       ("bot", 0, 2), ("bot", 1, 2), ("bot", 0, 3)]}
    assert len(keys) == 10
    assert bot_key(seed, 0, 2) == derive(seed, "bot", 0, 2).hex()
    assert str(seed) not in bot_key(seed, 0, 2)
    # The engine deals from those streams: a match's first hand is the derived stream's.
    match = RaceMatch.start(seed_factory(), ["a", "b"], seed, 5)
    deck = new_deck()
    stream(seed, "deck", 1).shuffle(deck)
    assert match.deal(1)[0] == deck[:HAND]


def test_a_drawn_seed_is_63_bits_from_the_os() -> None:
    """`arena run` without --seed: a seed anywhere in 0..2^63-1 (before: below 2^31)."""
    drawn = [options.seed_or_draw(None) for _ in range(64)]
    assert all(0 <= s <= arguments.SEED_MAX for s in drawn)
    assert max(drawn) >= 1 << 40 and len(set(drawn)) == 64
    assert options.seed_or_draw(5) == 5


def test_sysinfo_is_refused_to_a_python_bot() -> None:
    """sysinfo(2) gave a bot the host's uptime, load, free memory and task count; now it
    answers EPERM, like the other refused calls, and the bot overheats."""
    active, _ = tier_layers("standard")
    if "seccomp" not in active:
        pytest.skip("needs seccomp")
    result = play([HOSTILE / "sysinfo.py", BOTS / "turtle.py"], robots=1, turns=2)
    player = by_name(result)["Sysinfo"]
    text = str(player)
    assert "LEAK" not in text
    assert "sysinfo refused: Operation not permitted" in text, text


def test_sysinfo_is_refused_to_a_cave_program() -> None:
    """The programs' own filter (a Cave bot in any language) refuses it too."""
    active, _ = tier_layers("standard")
    if "seccomp" not in active:
        pytest.skip("needs seccomp")
    cave = get_game("cave")
    limits = Limits(cpu_per_call_s=1.0, wall_per_call_s=2.0, watchdog_grace_s=5.0,
                    memory_mb=160, first_wall_s=5.0)
    bot = read_bot(HOSTILE / "cave_sysinfo.py")
    spec = MatchSpec("cave", cave.find_map(None), [bot, bot], 5,
                     cave.rules("seed", max_turns=2), limits, "standard")
    result = run_match(spec)
    text = " ".join(p["output"] for p in result["players"])
    assert "LEAK" not in text, text
    assert "sysinfo refused: Operation not permitted" in text, text


def _seeds(db) -> list[int]:
    with sqlite3.connect(db) as con:
        return sorted(row[0] for row in con.execute("SELECT seed FROM matches"))


def test_a_batch_without_a_first_seed_draws_one_and_the_same_call_resumes_it(tmp_path) -> None:
    """Before, a batch started at seed 1 (and the ladder at its --seed plus the match's
    public number): seeds any bot could try. Now the first is drawn (63 bits), and the
    same call on the same results file goes on with it: nothing is played twice."""
    def run(db):
        return api.batch(["hunter", "beeline"], seeds=2, max_turns=3, robots=2, db=db,
                         workers=1, progress=False)
    db, other = tmp_path / "r.sqlite", tmp_path / "other.sqlite"
    first = run(db)
    seeds = _seeds(db)
    assert first.matches == 2 and first.skipped == 0
    assert seeds[1] == seeds[0] + 1 and seeds[0] >= 1 << 32, seeds
    again = run(db)
    assert again.skipped == 2 and _seeds(db) == seeds
    run(other)
    assert _seeds(other) != seeds


def test_the_ladder_draws_each_matchs_seed(tmp_path) -> None:
    """The ladder's queue: each match's seed is 63 bits from the OS, kept with it; not
    the server's seed plus the match's number."""
    store = LadderStore(tmp_path / "ladder.sqlite")
    try:
        queued = [store.enqueue("robotgame", "default", [(1, 1), (2, 1)], rated=True)
                  for _ in range(8)]
        kept = {q.id: q.seed for q in store.unfinished()}
    finally:
        store.close()
    seeds = [q.seed for q in queued]
    assert kept == {q.id: q.seed for q in queued}
    assert len(set(seeds)) == 8 and max(seeds) >= 1 << 40
    assert all(0 <= s <= arguments.SEED_MAX for s in seeds)
