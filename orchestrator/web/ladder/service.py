"""The ladder: bots, the match loop, ratings and suspensions, behind one lock.

One thread (the loop) hands checks and matches to worker processes and records what they
return; the HTTP handlers call the public methods. Bot code never runs here: a check or a
match is plain data sent to a worker, which plays it in sandbox children. Everything the
ladder knows is in its SQLite file, so a restart rebuilds the same state, and replays the
matches that were in flight.
"""
from __future__ import annotations

import dataclasses
import hashlib
import hmac
import ipaddress
import itertools
import json
import logging
import random
import re
import secrets
import sqlite3
import threading
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from engine import InputError
from orchestrator import host_files
from orchestrator.games import GAMES, get_game, hint_for_ladder
from orchestrator.options import LadderSettings
from orchestrator.replay import debug
from orchestrator.replay import file as replay
from orchestrator.replay.reader import read_json
from orchestrator.results import penalties, score
from orchestrator.results.ratings import Ratings
from orchestrator.results.stats import wilson
from orchestrator.runner import execute
from orchestrator.runner.bots import BotFile, described
from orchestrator.runner.schedule import Planned, Setup
from orchestrator.text import ended, shown
from orchestrator.web.ladder.matchmaking import LadderRules, Standing, pick
from orchestrator.web.ladder.store import LadderStore, Queued
from sandbox.modes import DEFAULT_MODE, for_ladder

# A space only between two other characters, and never two in a row: HTML collapses a run
# of spaces and shows no leading or trailing one, so `alice ` would show as `alice`.
NAME = re.compile(r"(?=.{1,32}\Z)[A-Za-z0-9_.\-]+(?: [A-Za-z0-9_.\-]+)*\Z")
# Characters a page's sans-serif font draws alike once case is set aside (I, l and 1,
# and with case, i; O and 0): two names are one if they differ only in these or in case
# (`aIice`, with a capital I, showed as `alice`).
LOOKALIKE = str.maketrans({"i": "l", "1": "l", "0": "o"})
MAX_FILE = 64 * 1024
SUSPEND_AFTER = 3                 # erased or forfeited matches in a row (rated, or asked
                                  # for by the bot's own owner)
WORKER_NICE = 10                  # matches and checks yield the CPU to the web side
HISTORY = 300                     # rating points kept per bot for its chart
# Limits bind people, not tokens: each is counted per owner (the client address a bot was
# uploaded from: its tokens share them) and per client address (behind a proxy the
# operator names, the address it forwards), and a request over either is refused; how
# many is the ladder's settings' (LadderSettings: challenge_rate, upload_rate,
# upload_pending).
CHALLENGE_WINDOW_S = 3600.0
CHALLENGES_PENDING = 4            # an owner's or address's challenges waiting or playing (429)
UPLOAD_WINDOW_S = 3600.0
RATED_PER_CHALLENGE = 1           # while both wait, a challenge starts after this many rated
SWEEP_S = 60.0                    # how often the rate counts of the quiet are dropped
BUSY_RETRY_S = 30                 # Retry-After when what frees a place is a match finishing
CHECK_RETRY_S = 10                # Retry-After when it is an upload's check (seconds, each)

# The ladder's errors go through `logging` (`arena serve` shows them on stderr): a match
# that could not be recorded, a turn of the loop that failed, the loop's end.
log = logging.getLogger("orchestrator.ladder")


class LadderError(Exception):
    """A request the ladder refuses: an HTTP status, a short error and the reason."""

    def __init__(self, status: int, error: str, reason: str,
                 retry_after: int | None = None) -> None:
        super().__init__(reason)
        self.status, self.error, self.reason = status, error, reason
        self.retry_after = retry_after          # seconds, for a 429 or 503's Retry-After


# What a played match or a check records about the server itself: the sandbox layers it
# has and those it lacks (with why: a map for whoever looks for a way out), and where on
# its disk the replay is. The operator's, in the database; never in what a client reads.
HOST_FACTS = ("sandbox", "sandbox_missing", "replay")


def _score(game: str, players: list[dict], counts: dict, match: int) -> str:
    """A listed match's score (`12–7`, `9–9 draw`) from its seats, in seat order, and each
    seat's count of the game's score stat (`counts`, by (match, seat))."""
    stat = score.stat_of(game)
    return score.said(game, [{"rank": p["rank"], "seat": seat,
                              "stats": {stat: counts.get((match, seat))}}
                             for seat, p in enumerate(players)])


def public(record: dict) -> dict:
    """A match's result or a check's verdict, as any client may read it."""
    return {key: value for key, value in record.items() if key not in HOST_FACTS}


def token_hash(token: str) -> str:
    # Tokens are 256 random bits, so a plain digest is as good as a slow one here.
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Bot:
    """A bot as the ladder keeps it in memory (its files stay in the database)."""

    id: int
    game: str
    name: str
    token_hash: str
    status: str
    reason: str | None
    version: int
    filename: str
    sha256: str
    games: int = 0                  # rated games
    wins: int = 0                   # sole first places
    last: int = 0                   # the number of its latest finished match
    pending: int = 0                # rated matches queued or in flight
    streak: int = 0                 # failed matches in a row, of its current version
    # (the game's finished-match count, the match's id, Elo after it) per rated match
    history: deque = field(default_factory=lambda: deque(maxlen=HISTORY))

    def owns(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.token_hash, token_hash(token))  # type: ignore[arg-type]  # bool(token): not None


class Ladder:
    """Every enabled game's ladder, on one database and one set of workers."""

    def __init__(self, db: Path, settings: LadderSettings = LadderSettings()) -> None:
        """The ladder on the database `db`, with its `settings` (orchestrator/options/).
        `check_turns` and `check_limits` change the upload check's (default: as `arena
        check`); the matches always run under each game's own limits. At most
        `check_queue` uploads wait for a check worker: a flood is refused (503), not
        kept. At most `challenge_queue` challenges wait in all, taken round robin over
        their senders; an owner, and a client address, makes at most `challenge_rate` an
        hour (and has CHALLENGES_PENDING waiting or playing) and `upload_rate` uploads an
        hour, of which `upload_pending` at most wait for their check (each is a sandboxed
        check: the shared check queue is not one person's to fill). `trusted_proxies`:
        the addresses or networks of the reverse proxies whose X-Forwarded-For names the
        client (client_key); no other's is read.
        `sandbox`: the mode of matches and checks (a mode check may not use leaves
        the checks in the default mode); its record may refuse the ladder."""
        mode = for_ladder(settings.sandbox)    # the ladder's bots are strangers to each other
        self.settings = settings
        self.games = list(settings.games or GAMES)
        for game in self.games:
            get_game(game)
        self.rules: dict[str, LadderRules] = {}
        for game in self.games:
            rules = get_game(game).ladder_rules
            size = (settings.lineups or {}).get(game, rules.size)
            self.rules[game] = LadderRules(size, min(rules.minimum, size), rules.maps)
        self.db_path = Path(db)
        self.replays = self.db_path.with_name(self.db_path.stem + "-replays")
        self.workers, self.backend = settings.workers, settings.backend
        self.address, self.seed = settings.address, settings.seed
        self.check_workers, self.sandbox = settings.check_workers, settings.sandbox
        self.check_queue = settings.check_queue
        self.challenge_queue = settings.challenge_queue
        self.challenge_rate = settings.challenge_rate
        self.upload_rate, self.upload_pending = settings.upload_rate, settings.upload_pending
        self.trusted = proxies(settings.trusted_proxies)
        self.clock = time.monotonic                    # the challenges' rate (tests set it)
        limits = settings.check_limits
        self.check_options = {"turns": settings.check_turns,
                              "limits": dataclasses.asdict(limits) if limits else None,
                              "sandbox": mode.name if mode.checks else DEFAULT_MODE}
        self.lock = threading.RLock()
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.store = LadderStore(self.db_path)
        self.bots: dict[int, Bot] = {}
        self.ratings = {game: Ratings() for game in self.games}
        self.matches = dict.fromkeys(self.games, 0)
        self.boards: dict[str, bytes] = {}             # leaderboards as JSON, until a change
        self.replayed: deque[Queued] = deque()         # rated matches a restart replays
        self.pending: deque[Queued] = deque()          # challenges waiting to start
        self.rated_since = RATED_PER_CHALLENGE         # rated matches since a challenge
        self.by_token: dict[str, int] = {}             # token hash -> bot id
        self.owner_of: dict[int, str] = {}             # bot id -> its owner, where known
        self.challengers: dict[int, int] = {}          # challenge's match -> its challenger
        self.senders: dict[int, tuple[str, ...]] = {}  # challenge's match -> whom it charged
        self.challenges_of: dict[str, int] = {}        # owner/address -> challenges not done
        self.challenged_at: dict[str, deque] = {}      # owner/address -> its challenges' times
        self.uploaded_at: dict[str, deque] = {}        # owner/address -> its uploads' times
        self.swept = 0.0                               # when the quiet's counts were dropped
        self.uploads_of: dict[str, int] = {}           # owner/address -> uploads not answered
        self.served_at: dict[str, int] = {}            # sender -> when its last challenge began
        self.starts = itertools.count()
        self.running: dict[int, str] = {}             # match -> its digest
        self.checks: deque[tuple[dict, Future]] = deque()
        self.setups: dict[tuple[str, str], Setup] = {}
        self.turn = itertools.cycle(self.games)
        self.thread: threading.Thread | None = None
        self.loop_ended: str | None = None             # why the loop is no longer running
        self._load()

    # -- start-up and shutdown -----------------------------------------------------------
    def _load(self) -> None:
        """Rebuild the ladder from its database: bots, then every match in finishing order."""
        for row in self.store.bots():
            bot = Bot(*row)
            self.bots[bot.id] = bot
            self.by_token[bot.token_hash] = bot.id
        self.owner_of = self.store.owners()
        self._replay_history()
        for queued in self.store.unfinished():
            (self.replayed if queued.rated else self.pending).append(queued)
            if queued.challenger is not None:
                self.challengers[queued.id] = queued.challenger
            self._count_pending(queued, +1)

    def _replay_history(self) -> None:
        asked = self.store.challengers()
        for _seq, match, game, rated, seats in self.store.history():
            self._apply(match, game, rated, seats, self._asked_by(asked.get(match)))

    def owner(self, bot: Bot) -> str:
        """Who a bot's limits are counted for: the client address it was uploaded from
        (its owner's other bots' tokens share them); a bot of a ladder file made before
        owners were kept is its own."""
        return self.owner_of.get(bot.id) or f"bot {bot.id}"

    def _asked_by(self, challenger: int | None) -> str | None:
        bot = self.bots.get(challenger) if challenger is not None else None
        return self.owner(bot) if bot is not None else None

    def client_key(self, peer: str | None, forwarded: Sequence[str] = ()) -> str:
        """The client a request's limits are counted for: the address it came from, or,
        where that is a proxy the operator trusts (--trusted-proxy), the address its
        X-Forwarded-For names, read from the right past the trusted proxies (a client
        writes what it likes at the left). An IPv6 client is its /64 (one host's)."""
        address = _ip(peer)
        if address is None:
            return shown(peer or "unknown")[:64]
        if any(address in network for network in self.trusted):
            hops = [hop.strip() for line in forwarded for hop in line.split(",")]
            for hop in reversed(hops):
                found = _ip(hop)
                if found is None:
                    break
                address = found
                if not any(found in network for network in self.trusted):
                    break
        if address.version == 6:
            return str(ipaddress.ip_network(f"{address}/64", strict=False))
        return str(address)

    def start(self) -> None:
        """Start the workers and the loop."""
        self.replays.mkdir(parents=True, exist_ok=True)
        self.match_pool = execute.open_pool(self.backend, self.workers, self.address,
                                            start="spawn", capacity=self.workers,
                                            nice=WORKER_NICE)
        self.check_pool = execute.LocalPool(self.check_workers, start="spawn",
                                            nice=WORKER_NICE)
        self.thread = threading.Thread(target=self._loop, name="ladder", daemon=True)
        self.thread.start()

    def stop(self) -> int:
        """Stop the loop and the workers. Matches in flight are replayed at the next start;
        how many there are."""
        self.stopping.set()
        self.wake.set()
        if self.thread is not None:
            self.thread.join(timeout=30)
            self.match_pool.close()
            self.check_pool.close()
        for _, future in self.checks:
            future.set_exception(LadderError(503, "stopping", "the server is stopping"))
        self.store.close()
        return len(self.running) + len(self.replayed) + len(self.pending)

    # -- the loop ----------------------------------------------------------------------
    def _loop(self) -> None:
        why = "stopped"
        try:
            while not self.stopping.is_set():
                try:
                    self._turn()
                except Exception:               # (one failed turn must not end the ladder)
                    log.exception("ladder: a turn of the loop failed; it goes on in 1 s")
                    self.stopping.wait(1.0)
        except BaseException as exc:
            why = f"ended by {type(exc).__name__}"
            log.critical("ladder: the loop %s; no match is played until a restart", why,
                         exc_info=True)
            raise
        finally:
            self.loop_ended = why

    def _turn(self) -> None:
        """One turn of the loop: start what can start, record what finished, or wait."""
        self._start_checks()
        self._start_matches()
        for future, outcome in self.check_pool.wait(0):
            future.set_result(outcome)
        if self.match_pool.busy():
            for queued, outcome in self.match_pool.wait(0.02):
                self._record(queued, outcome)
        elif self.check_pool.busy():
            for future, outcome in self.check_pool.wait(0.05):
                future.set_result(outcome)
        else:
            self.wake.wait(0.1)
            self.wake.clear()

    def _start_checks(self) -> None:
        while self.check_pool.free() and self.checks:
            spec, future = self.checks.popleft()
            self.check_pool.submit(future, ("check", spec))

    def _start_matches(self) -> None:
        while self.match_pool.free():
            with self.lock:
                queued = self._next_match()
                if queued is None:
                    return
                planned = self._planned(queued)
                self.running[queued.id] = planned.match_id
            self.match_pool.submit(queued, ("match", planned.spec))

    def _next_match(self) -> Queued | None:
        """The match to start in a free slot (under the lock): a replayed rated match
        first; then, while challenges and rated play both wait, a challenge only after
        RATED_PER_CHALLENGE rated matches started since the last one, so a flood of
        challenges never takes more than its share of the workers (every other slot)."""
        if self.replayed:
            return self.replayed.popleft()
        if not (self.pending and self.rated_since >= RATED_PER_CHALLENGE):
            queued = self._matchmake()
            if queued is not None:
                self.rated_since += 1
                return queued
        if self.pending:
            self.rated_since = 0
            return self._next_challenge()
        return None

    def _sender(self, queued: Queued) -> str:
        challenger = self.challengers.get(queued.id)
        bot = self.bots.get(challenger) if challenger is not None else None
        return self.owner(bot) if bot is not None else f"match {queued.id}"

    def _next_challenge(self) -> Queued:
        """The waiting challenge of the sender (owner) served longest ago, each sender's
        in the order sent: round robin, so a sender with many waiting takes turns with
        one that has a single challenge, never the whole queue's time."""
        best = min(range(len(self.pending)), key=lambda i: (
            self.served_at.get(self._sender(self.pending[i]), -1), i))
        queued = self.pending[best]
        del self.pending[best]
        self.served_at[self._sender(queued)] = next(self.starts)
        return queued

    def _matchmake(self) -> Queued | None:
        """The next rated match of the first game (taken in turn) that can play one."""
        number = self.store.next_match_number()
        for _ in self.games:
            game = next(self.turn)
            standings = [Standing(b.id, self.ratings[game].elo_of(b.id),
                                  b.games + b.pending, b.last)
                         for b in self.bots.values() if b.game == game and b.status == "active"]
            rules = self.rules[game]
            rng = random.Random(f"{self.seed}/{number}")
            ids = pick(standings, rules, rng)
            if ids is None:
                continue
            queued = self.store.enqueue(game, rng.choice(rules.maps),
                                        [(i, self.bots[i].version) for i in ids], rated=True)
            self._count_pending(queued, +1)
            return queued
        return None

    def _count_pending(self, queued: Queued, step: int) -> None:
        if queued.rated:
            for bot_id, _ in queued.lineup:
                if bot_id in self.bots:
                    self.bots[bot_id].pending += step

    def _planned(self, queued: Queued) -> Planned:
        """The queued match as the schedule plans it, its replay sent back."""
        game = get_game(queued.game)
        key = (queued.game, queued.map)
        if key not in self.setups:
            self.setups[key] = Setup.make(game, queued.map, game.rules(game.presets[0]),
                                          game.limits, self.sandbox)
        lineup = []
        for bot_id, version in queued.lineup:
            filename, source, sha256 = self.store.source(bot_id, version)
            lineup.append(BotFile(f"ladder/{bot_id}/v{version}/{filename}", source, sha256,
                                  self.bots[bot_id].name))
        planned = self.setups[key].plan(queued.id, lineup, queued.seed)
        planned.spec = dataclasses.replace(planned.spec, replay=True)
        return planned

    def _record(self, queued: Queued, outcome: dict) -> None:
        """_finish, guarded: a match that cannot be recorded is logged, recorded as
        failed if it can be, and the loop goes on with the other matches."""
        try:
            self._finish(queued, outcome)
        except Exception as exc:
            log.exception("ladder: match %d could not be recorded", queued.id)
            with self.lock:
                if self.running.pop(queued.id, None) is not None:    # (not done yet)
                    self._count_pending(queued, -1)
                    self._challenge_done(queued.id)
                try:
                    if self.store.result(queued.id) is None:
                        self.store.fail(queued, f"it could not be recorded: "
                                                f"{type(exc).__name__}")
                except Exception:
                    log.exception("ladder: match %d could not be marked failed either; "
                                  "it is played again at the next start", queued.id)
                self._resync()

    def _resync(self) -> None:
        """Count the matches again from the database (under the lock): a match whose
        recording failed half-way leaves memory as the database has it."""
        self.ratings = {game: Ratings() for game in self.games}
        self.matches = dict.fromkeys(self.games, 0)
        self.boards.clear()
        for bot in self.bots.values():
            bot.games = bot.wins = bot.last = bot.streak = 0
            bot.history.clear()
        self._replay_history()

    def _challenge_done(self, match: int) -> int | None:
        """A challenge finished (or failed): its senders may send another. Its challenger."""
        for key in self.senders.pop(match, ()):
            left = self.challenges_of.get(key, 0) - 1
            if left > 0:
                self.challenges_of[key] = left
            else:
                self.challenges_of.pop(key, None)
        return self.challengers.pop(match, None)

    def _finish(self, queued: Queued, outcome: dict) -> None:
        """Record a match a worker returned, then update ratings and suspensions."""
        if "replay" in outcome:                 # the file first: the database points to it
            path = self.replays / f"{queued.id}.json.gz"
            try:
                host_files.write_file(path, outcome["replay"])
                self._set_marks_aside(queued.id, path)
                outcome["result"]["replay"] = str(path)
            except (OSError, InputError) as exc:
                log.error("ladder: match %d's replay could not be stored (%s); the match "
                          "is recorded as failed, unrated", queued.id, exc)
                outcome = {"error": f"its replay could not be stored: {exc}"}
        with self.lock:
            digest = self.running.pop(queued.id)
            self._count_pending(queued, -1)
            asked_by = self._asked_by(self._challenge_done(queued.id))
            if "fault" in outcome:             # ours, not the bots': for the operator
                log.error("ladder: match %d failed inside arena (%s); its traceback:\n%s",
                          queued.id, outcome["error"], outcome["fault"])
            if "error" in outcome:
                self.store.fail(queued, outcome["error"])
                return
            result = outcome["result"]
            seats = [(*queued.lineup[p["seat"]], p["rank"], p["status"], p["reason"])
                     for p in sorted(result["players"], key=lambda p: p["seat"])]
            suspend = self._apply(queued.id, queued.game, queued.rated, seats, asked_by)
            self.store.finish(queued, digest, result, outcome["wall_s"], suspend)

    def _apply(self, match: int, game: str, rated: bool, seats: list[tuple],
               asked_by: str | None = None) -> list[tuple[int, str]]:
        """Count one finished match in memory (live, or replaying the database at start-up).
        The bots it suspends, with why. A bot's failures count towards its suspension in
        rated matches, and in challenges its own owner asked for (`asked_by`: the
        challenger's owner), never in one a stranger asked for: else anyone could send a
        bot three matches it fails in and take it off the ladder."""
        if game not in self.ratings:
            return []
        self.matches[game] += 1
        self.boards.pop(game, None)
        firsts = sum(1 for seat in seats if seat[2] == 1)
        if rated:
            self.ratings[game].add([(seat[0], seat[2]) for seat in seats])
        suspend = []
        for bot_id, version, rank, status, *reason in seats:
            bot = self.bots.get(bot_id)
            if bot is None:
                continue
            bot.last = max(bot.last, match)
            if rated:
                bot.games += 1
                bot.wins += rank == 1 and firsts == 1
                bot.history.append((self.matches[game], match,
                                    round(self.ratings[game].elo[bot_id], 1)))
            if version != bot.version or not (rated or asked_by == self.owner(bot)):
                continue
            bot.streak = bot.streak + 1 if status != "ok" else 0
            if bot.streak >= SUSPEND_AFTER and bot.status == "active" and reason:
                why = (f"{status} in {bot.streak} matches in a row; the last: "
                       f"{reason[0] or status}")[:300]
                bot.status, bot.reason = "suspended", why
                suspend.append((bot_id, why))
        return suspend

    # -- requests ----------------------------------------------------------------------
    def game_of(self, game: str) -> str:
        if game not in self.rules:
            raise LadderError(404, "unknown game", f"no ladder for {game!r} (this server runs: "
                                                   f"{', '.join(self.games)})")
        return game

    def bot(self, bot_id: int) -> Bot:
        bot = self.bots.get(bot_id)
        if bot is None:
            raise LadderError(404, "unknown bot", f"no bot with id {bot_id}")
        return bot

    def submission(self, game: str, name: str, filename: str, source: bytes) -> BotFile:
        """An upload's file as a bot, once its size and name are acceptable."""
        if len(source) > MAX_FILE:
            raise LadderError(413, "file too large",
                              f"the file is {len(source)} bytes; the limit is {MAX_FILE}")
        if not source.strip():
            raise LadderError(422, "empty file", "the file is empty")
        stem = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(filename or "bot").name)[:60] or "bot"
        found = get_game(game)
        languages = (".py", *(suffix for suffix, _ in found.drivers))     # Robot Game: .rb
        if not found.programs and not stem.lower().endswith(languages):
            stem += ".py"
        return BotFile(f"upload/{stem}", source, hashlib.sha256(source).hexdigest(), name)

    def check(self, game: str, bot: BotFile) -> Future:
        """Queue `arena check` of a submission; the future gets the worker's outcome."""
        future: Future = Future()
        if self.stopping.is_set():
            future.set_exception(LadderError(503, "stopping", "the server is stopping"))
            return future
        if len(self.checks) >= self.check_queue:
            future.set_exception(LadderError(503, "busy", f"{len(self.checks)} uploads are "
                                             f"waiting for their check; try again in a minute"))
            return future
        # The gate's seed is drawn like a match's: a bot that knew it (arena check's
        # default is seed 1) could tell the gate from its key and behave only there.
        self.checks.append(({"game": game, "path": bot.path, "source": bot.source,
                             "sha256": bot.sha256, "name": bot.name,
                             "seed": secrets.randbits(63)} | self.check_options, future))
        self.wake.set()
        return future

    @staticmethod
    def verdict_of(outcome: dict) -> dict:
        """The check's verdict, or a LadderError if it failed or could not run."""
        if "fault" in outcome:
            log.error("ladder: a check failed inside arena (%s); its traceback:\n%s",
                      outcome["error"], outcome["fault"])
        if "error" in outcome:
            raise LadderError(500, "check failed to run", outcome["error"])
        verdict = outcome["verdict"]
        if not verdict["ok"]:
            raise LadderError(422, "check failed", hint_for_ladder(verdict["reason"]))
        return verdict

    def validate_name(self, game: str, name: str) -> str:
        self.game_of(game)
        if not NAME.fullmatch(name or ""):
            raise LadderError(422, "bad name", "a name is 1 to 32 characters: letters, digits, "
                                               "_, - and ., and single spaces between them")
        self._name_free(game, name)
        return name

    def _name_free(self, game: str, name: str) -> None:
        """422 if `game` has a bot whose name shows as this one: the same but for case, or
        for letters the pages' font draws alike (LOOKALIKE), so no one passes for another
        on the leaderboard."""
        seen = name.casefold().translate(LOOKALIKE)
        with self.lock:
            for bot in self.bots.values():
                if bot.game == game and bot.name.casefold().translate(LOOKALIKE) == seen:
                    alike = "" if bot.name == name else (
                        f", which {name!r} looks like (case, I l 1 and O 0 are not told apart)")
                    raise LadderError(422, "name taken",
                                      f"{game} already has a bot named {bot.name!r}{alike}")

    def add_bot(self, game: str, name: str, bot: BotFile, verdict: dict,
                owner: str | None = None) -> dict:
        """Accept a checked bot: its id and its token, which is shown this once. `owner`:
        the client it came from (client_key), whose limits its token shares."""
        token = secrets.token_urlsafe(32)
        filename = Path(bot.path).name
        with self.lock:
            self._name_free(game, name)      # (another upload of it may have won the race)
            try:
                bot_id = self.store.add_bot(game, name, token_hash=token_hash(token),
                                            filename=filename, sha256=bot.sha256,
                                            source=bot.source, verdict=verdict, owner=owner)
            except sqlite3.IntegrityError:
                raise LadderError(422, "name taken",
                                  f"{game} already has a bot named {name!r}") from None
            self.bots[bot_id] = Bot(id=bot_id, game=game, name=name,
                                    token_hash=token_hash(token), status="active", reason=None,
                                    version=1, filename=filename, sha256=bot.sha256)
            self.by_token[token_hash(token)] = bot_id
            if owner is not None:
                self.owner_of[bot_id] = owner
            self.boards.pop(game, None)
        self.wake.set()
        return {"id": bot_id, "name": name, "game": game, "version": 1, "token": token,
                "check": public(verdict)}

    def authorize(self, bot_id: int, token: str | None) -> Bot:
        bot = self.bot(bot_id)
        if not bot.owns(token):
            raise LadderError(401, "unauthorized", "this needs the bot's token: "
                                                   "Authorization: Bearer TOKEN")
        return bot

    def add_version(self, bot_id: int, bot: BotFile, verdict: dict) -> dict:
        with self.lock:
            known = self.bot(bot_id)
            if known.status == "retired":
                raise LadderError(422, "retired", "a retired bot takes no new versions")
            filename = Path(bot.path).name
            version = self.store.add_version(bot_id, filename, bot.sha256, bot.source, verdict)
            known.version, known.filename, known.sha256 = version, filename, bot.sha256
            known.status, known.reason, known.streak = "active", None, 0
            self.boards.pop(known.game, None)
        self.wake.set()
        return {"id": bot_id, "version": version, "check": public(verdict)}

    def retire(self, bot_id: int) -> None:
        with self.lock:
            self.store.set_status(bot_id, "retired")
            bot = self.bot(bot_id)
            bot.status, bot.reason = "retired", None
            self.boards.pop(bot.game, None)

    def admit_upload(self, client: str, bot: Bot | None = None) -> tuple[str, ...]:
        """Count an upload (a new bot, or `bot`'s new version) for its client address and
        its owner (the bot's; a new bot's is that address), before the body is read or
        checked: 429 past `upload_rate` an hour for either, or while either has
        `upload_pending` uploads not yet answered (waiting for their check, or in it).
        Whom it is counted for: hand them to upload_answered() once its check has
        answered, or once it failed before it reached one."""
        with self.lock:
            keys = (f"address {client}", f"owner {self.owner(bot) if bot else client}")
            for key in keys:
                if self.uploads_of.get(key, 0) >= self.upload_pending:
                    whose = "this bot's owner" if key.startswith("owner") else "this address"
                    raise LadderError(429, "too many uploads", f"{whose}'s "
                                      f"{self.upload_pending} uploads are still waiting for "
                                      f"their check; upload again when one is answered",
                                      CHECK_RETRY_S)
            self._within(self.uploaded_at, keys, self.upload_rate, UPLOAD_WINDOW_S, "uploads")
            for key in keys:
                self.uploaded_at.setdefault(key, deque()).append(self.clock())
                self.uploads_of[key] = self.uploads_of.get(key, 0) + 1
            return keys

    def upload_answered(self, keys: Sequence[str]) -> None:
        """An upload admit_upload counted is answered (its check ended, or it never
        reached one): its owner and address may send another."""
        with self.lock:
            for key in keys:
                left = self.uploads_of.get(key, 0) - 1
                if left > 0:
                    self.uploads_of[key] = left
                else:
                    self.uploads_of.pop(key, None)

    def _within(self, table: dict[str, deque], keys: Sequence[str], rate: int,
                window: float, what: str) -> None:
        """429 if any of `keys` has made `rate` of `what` within the last `window` s."""
        now = self.clock()
        if now - self.swept >= SWEEP_S:
            self._forget_the_quiet(now)
        for key in keys:
            times = table.get(key) or deque()
            while times and times[0] <= now - window:
                times.popleft()
            if len(times) >= rate:
                oldest = times[0] if times else now
                wait = max(1, int(oldest + window - now + 0.999))
                whose = "this bot's owner" if key.startswith("owner") else "this address"
                raise LadderError(429, f"too many {what}", f"{whose} makes at most {rate} "
                                  f"{what} an hour; the next one in {wait} s", wait)

    def _forget_the_quiet(self, now: float) -> None:
        """Drop the rate counts of whoever made nothing within their window (under the
        lock): else every address that ever uploaded or challenged kept its entries for
        the server's life, and a client with many addresses (an IPv6 /48 holds 65,536
        /64s, each an address here) grew its memory without bound."""
        self.swept = now
        for table, window in ((self.uploaded_at, UPLOAD_WINDOW_S),
                              (self.challenged_at, CHALLENGE_WINDOW_S)):
            for key in [key for key, times in table.items()
                        if not times or times[-1] <= now - window]:
                del table[key]

    def challenger(self, token: str | None, client: str = "") -> Bot:
        """The bot whose token this is, if it may challenge now. Decided from the request's
        headers alone, before its body is read: 401 without a token of a bot that still
        plays, 429 past its owner's or the client address's limits, 503 when the
        challenge queue is full."""
        with self.lock:
            bot = self.bots.get(self.by_token.get(token_hash(token), -1)) if token else None
            if bot is None or bot.status == "retired":
                raise LadderError(401, "unauthorized", "a challenge needs the token of one of "
                                                       "its bots: Authorization: Bearer TOKEN")
            if len(self.pending) >= self.challenge_queue:
                raise LadderError(503, "busy", f"{len(self.pending)} challenges are waiting "
                                  f"to start, the most this ladder keeps; try again later",
                                  BUSY_RETRY_S)
            for key in self._charged(bot, client):
                if self.challenges_of.get(key, 0) >= CHALLENGES_PENDING:
                    whose = "this bot's owner" if key.startswith("owner") else "this address"
                    raise LadderError(429, "too many challenges", f"{whose}'s "
                                      f"{CHALLENGES_PENDING} challenges are still waiting or "
                                      f"playing; challenge again when one has finished",
                                      BUSY_RETRY_S)
            self._within(self.challenged_at, self._charged(bot, client), self.challenge_rate,
                         CHALLENGE_WINDOW_S, "challenges")
            return bot

    def _charged(self, bot: Bot, client: str) -> tuple[str, ...]:
        """Whom a challenge with `bot`'s token from `client` counts for."""
        return (f"owner {self.owner(bot)}", f"address {client}")

    def challenge(self, bot_ids: Any, token: str | None, client: str = "") -> int:  # checked
        """Queue an unrated match between these bots, one of them the token's, sent from
        `client`; it starts before new rated matches, but at most in every other match
        slot while they wait, and in turn with other senders' challenges."""
        with self.lock:
            challenger = self.challenger(token, client)
            if not isinstance(bot_ids, list) or not bot_ids or not all(
                    type(i) is int for i in bot_ids):
                raise LadderError(422, "bad challenge", 'send {"bots": [id, id, ...]}')
            rules = self.rules.get(challenger.game)
            if rules is None:
                raise LadderError(422, "bad challenge", "the bots must all be of one game "
                                                        "this server runs")
            if len(set(bot_ids)) != len(bot_ids) or not \
                    max(2, rules.minimum) <= len(bot_ids) <= rules.size:
                raise LadderError(422, "bad challenge", f"a {challenger.game} match takes "
                                  f"{max(2, rules.minimum)} to {rules.size} different bots")
            bots = [self.bot(i) for i in bot_ids]
            if challenger.id not in bot_ids:
                raise LadderError(401, "unauthorized", "a challenge needs the token of one of "
                                                       "its bots")
            if any(bot.game != challenger.game for bot in bots):
                raise LadderError(422, "bad challenge", "the bots must all be of one game "
                                                        "this server runs")
            if any(bot.status == "retired" for bot in bots):
                raise LadderError(422, "bad challenge", "a retired bot plays no more")
            queued = self.store.enqueue(challenger.game, rules.maps[0],
                                        [(bot.id, bot.version) for bot in bots], rated=False,
                                        challenger=challenger.id)
            self.pending.append(queued)
            self.challengers[queued.id] = challenger.id
            self.senders[queued.id] = keys = self._charged(challenger, client)
            for key in keys:
                self.challenges_of[key] = self.challenges_of.get(key, 0) + 1
                self.challenged_at.setdefault(key, deque()).append(self.clock())
        self.wake.set()
        return queued.id

    # -- reading -----------------------------------------------------------------------
    def health(self) -> dict:
        """`ok` while the loop runs (it plays and records matches). Otherwise `status`
        says why not: `not started`, `stopping`, `stopped` (by stop()) or `ended by`
        an exception the loop could not go on after (logged)."""
        if self.thread is None:
            status = "not started"
        elif self.loop_ended is not None or not self.thread.is_alive():
            status = self.loop_ended or "stopped"
        elif self.stopping.is_set():
            status = "stopping"
        else:
            status = "ok"
        return {"ok": status == "ok", "status": status,
                "queue": len(self.replayed) + len(self.pending) + len(self.checks),
                "running": len(self.running)}

    def leaderboard(self, game: str) -> dict:
        self.game_of(game)
        with self.lock:
            bots = sorted((b for b in self.bots.values() if b.game == game),
                          key=lambda b: (-self.ratings[game].elo_of(b.id), b.id))
            rows = [self._row(b) | {"rank": rank} for rank, b in enumerate(bots, 1)]
            return {"game": game, "matches": self.matches[game], "bots": rows}

    def leaderboard_json(self, game: str) -> bytes:
        """The leaderboard, encoded once per change of it."""
        board = self.boards.get(game)
        if board is None:
            with self.lock:
                board = json.dumps(self.leaderboard(game), separators=(",", ":")).encode()
                self.boards[game] = board
        return board

    def _row(self, bot: Bot) -> dict:
        ratings = self.ratings[bot.game]
        mu, sigma = ratings.mu_sigma(bot.id)
        low, high = wilson(bot.wins, bot.games)
        return {"id": bot.id, "name": bot.name, "version": bot.version,
                "elo": round(ratings.elo_of(bot.id), 1), "mu": round(mu, 3),
                "sigma": round(sigma, 3), "games": bot.games, "wins": bot.wins,
                "win_rate": round(bot.wins / bot.games, 3) if bot.games else 0.0,
                "win_ci": [round(low, 3), round(high, 3)], "status": bot.status}

    def bot_info(self, bot_id: int, recent: int = 20) -> dict:
        with self.lock:
            bot = self.bot(bot_id)
            versions = []
            for version, sha, created, verdict in self.store.versions(bot_id):
                check = json.loads(verdict)
                versions.append({"version": version, "sha256": sha, "created": created,
                                 "check": {"ok": check["ok"], "reason": check["reason"]}})
            found = self.store.source(bot_id, bot.version)
            info = self._row(bot) | {"game": bot.game, "reason": bot.reason,
                                     "versions": versions, "history": self.history(bot_id),
                                     # what its latest file says of its strategy, as text
                                     "description": described(found[0], found[1])
                                     if found else ""}
        info["recent_matches"] = self.matches_list(bot=bot_id, limit=recent)
        # Its own time a game over those matches: a slow bot shows before it is erased
        # (None: none of them kept it, results from before own times).
        owns = [p["own_s"] for m in info["recent_matches"] for p in m["players"]
                if p["bot"] == bot_id and p["own_s"] is not None]
        info["mean_own_s"] = round(sum(owns) / len(owns), 3) if owns else None
        info["own_matches"] = len(owns)
        return info

    def history(self, bot_id: int) -> list[list]:
        """The bot's Elo after each of its latest rated matches (HISTORY of them), oldest
        first: [the game's finished matches then, the match's id, Elo]."""
        with self.lock:
            return [list(point) for point in self.bot(bot_id).history]

    def matches_list(self, game: str | None = None, bot: int | None = None,
                     limit: int = 50) -> list[dict]:
        """Finished matches, newest first."""
        with self.lock:
            rows = self.store.finished_matches(game, bot, limit)
            ids = [row[0] for row in rows]
            seats: dict[int, list] = {}
            for match, bot_id, name, rank, status, outcome, own in self.store.seats_of(ids):
                seats.setdefault(match, []).append(
                    {"bot": bot_id, "name": name, "rank": rank, "status": status,
                     "penalty": penalties.outcome(outcome) if outcome else "",
                     "own_s": own})
            counts = {name: self.store.stat_of(ids, score.stat_of(name))
                      for name in {row[1] for row in rows} if score.stat_of(name)}
        return [{"id": match, "game": g, "seed": seed, "map": map_name, "finished": finished,
                 "rated": bool(rated), "players": seats.get(match, []),
                 "score": _score(g, seats.get(match, []), counts.get(g, {}), match)}
                for match, g, seed, map_name, finished, rated in rows]

    def match(self, match_id: int) -> dict:
        with self.lock:
            result = self.store.result(match_id)
        if result is None:
            queued = match_id in self.running or any(
                q.id == match_id for q in (*self.replayed, *self.pending))
            raise LadderError(404, "unknown match", f"match {match_id} is "
                              f"{'not finished yet' if queued else 'not a finished match'}")
        found = public(json.loads(result))
        return found | {"id": match_id, "ended": ended(found.get("end")),
                        "score": score.named(found.get("game"), found.get("players") or [])}

    def _set_marks_aside(self, match_id: int, path: Path) -> None:
        """The bots' debug marks leave the public replay for a file of their own, read
        only for a bot's owner (`own_replay`): done before the match is recorded, so no
        client ever reads the replay with them."""
        data = replay.load(path, name=f"match {match_id}'s replay")
        if debug.SECTION not in data:
            return
        marks = self.replays / f"{match_id}.marks.json.gz"
        host_files.write_file(marks, replay.encode({debug.SECTION: data[debug.SECTION]}))
        host_files.write_file(path, replay.encode(debug.strip(data)))

    def own_replay(self, match_id: int, token: str | None) -> bytes:
        """The match's replay with the debug marks of the token's bot (each AI it played),
        and no other bot's: 401 unless the token is of a bot of the match, decided from
        the match's result before its replay is read (a wrong token costs no reading)."""
        result = self.match(match_id)
        owned_seats = set()
        for player in result.get("players", ()):
            found = re.match(r"ladder/([0-9]+)/", str(player.get("bot", "")))
            bot = self.bots.get(int(found.group(1))) if found else None
            if bot is not None and token and bot.owns(token):
                owned_seats.add(player["seat"])
        if not owned_seats:
            raise LadderError(401, "unauthorized", "a match's marks need the token of one of "
                              "its bots: `Authorization: Bearer TOKEN`")
        path = self.replay_file(match_id)
        data = replay.load(path, name=f"match {match_id}'s replay")
        marks_file = self.replays / f"{match_id}.marks.json.gz"
        if not marks_file.is_file():
            return replay.encode(data)
        kept = read_json(marks_file, f"match {match_id}'s marks")
        section = kept.get(debug.SECTION) if isinstance(kept, dict) else None
        owned = {ai for ai, seat in enumerate(data["seats"]) if seat in owned_seats}
        whole = {**data, debug.SECTION: section}
        try:        # as the reader holds a replay's: of its AIs, turns and board
            board = data["map"]
            debug.check(section, len(data["seats"]), {e["turn"] for e in data["turns"]},
                        (board.get("width", board["size"]), board.get("height", board["size"])))
        except debug.Bad as exc:
            raise LadderError(422, "unreadable replay", f"match {match_id}'s marks: {exc}") \
                from None
        return replay.encode(debug.only(whole, owned))

    def replay_file(self, match_id: int) -> Path:
        self.match(match_id)
        path = self.replays / f"{match_id}.json.gz"
        if not path.is_file():
            raise LadderError(404, "no replay", f"match {match_id} has no replay file")
        return path


def proxies(given: Sequence[str]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """The operator's trusted proxies (--trusted-proxy), each an address or a network."""
    found = []
    for item in given:
        try:
            found.append(ipaddress.ip_network(str(item).strip(), strict=False))
        except ValueError:
            raise InputError(f"--trusted-proxy {shown(item)[:60]}: give an address or a "
                             f"network (10.0.0.1, 10.0.0.0/8, ::1)") from None
    return tuple(found)


def _ip(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as a client or a proxy writes it (IPv4 in IPv6 as IPv4), or None."""
    if not text or len(text) > 64:
        return None
    try:
        found = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found
