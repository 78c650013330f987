"""The results the Python API returns: dataclasses over the CLI's `--json` objects.

Each result keeps the very object the command prints with `--json` (`to_json()` gives it
back), and types its main parts as fields. In Jupyter a match shows its replay viewer and
a batch, tournament, comparison or store shows its table (`_repr_html_`); `to_pandas()`
gives a DataFrame where pandas is installed. Every string a bot chose (its name, its
reasons) is escaped wherever it is shown as HTML.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from html import escape
from typing import Any, Callable, Generic, Mapping, Sequence, TypeVar, cast

from orchestrator.results import notes
from orchestrator.results.match_result import MatchData
from orchestrator.text import ended, shown
from orchestrator.views import replay as replay_view

T = TypeVar("T")
VIEWER_HEIGHT = 760        # px: the viewer's board, controls and side panels


def _typed(cls: type[T], data: Mapping[str, Any]) -> T:
    """A dataclass of `cls` from the keys of `data` it names (missing ones: None)."""
    # Each cls is one of the dataclasses below, with a `data` field.
    return cls(**{f.name: data.get(f.name) for f in dataclasses.fields(cls)  # type: ignore[call-arg, arg-type]
                  if f.default is dataclasses.MISSING and f.name != "data"}, data=data)


def _plain(data: Any) -> Any:
    """JSON's own types (lists, not tuples): what `json.loads` of the CLI's output gives."""
    return json.loads(json.dumps(data))


def pandas_module():
    try:
        import pandas
    except ImportError:
        raise ImportError("to_pandas() needs pandas, an optional dependency: "
                          "pip install pandas, or install the package with its notebook "
                          "extra") from None
    return pandas


def html_table(rows: Sequence[Mapping[str, Any]],
               columns: Sequence[tuple[str, Callable[[Any], Any]]],
               caption: str = "") -> str:
    """An HTML table of `rows`; every cell and the caption are shown() (a bot's bidi
    override or zero-width character in a name or a note is its escape, as in the
    terminal) and escaped."""
    head = "".join(f"<th>{escape(title)}</th>" for title, _ in columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(shown(_cell(get(row))))}</td>"
                                    for _, get in columns) + "</tr>" for row in rows)
    caption = f"<caption>{escape(shown(caption))}</caption>" if caption else ""
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.0f}"
    return str(value)


J = TypeVar("J", bound=Mapping[str, Any])


class _Json(Generic[J]):
    """`to_json()`: a copy of the object `--json` prints."""

    data: J

    def to_json(self) -> J:
        """The JSON object the CLI prints with `--json` for the same arguments."""
        return cast(J, _plain(self.data))

    def __getitem__(self, key: str) -> Any:
        """`result["winner"]`: any key of the JSON object."""
        return self.data[key]


@dataclass(frozen=True)
class Replay(_Json[dict]):
    """A match's replay (docs/replay.md); in Jupyter it shows as the web viewer."""

    game: str
    seed: int
    map: dict
    players: list
    data: dict = field(repr=False)

    @classmethod
    def from_dict(cls, data: dict) -> "Replay":
        return _typed(cls, data)

    def html(self) -> str:
        """The self-contained viewer page (as `arena replay --html` writes it)."""
        return replay_view.page(self.data)

    def _repr_html_(self) -> str:
        # In an iframe: the page keeps its own CSP (no network) and its scripts run apart
        # from the notebook's; srcdoc is an attribute, so the page is escaped into it.
        return (f'<iframe srcdoc="{escape(self.html(), quote=True)}" sandbox="allow-scripts" '
                f'style="width:100%;height:{VIEWER_HEIGHT}px;border:0" '
                f'title="replay viewer"></iframe>')

    def save(self, path) -> str:
        """Write it as a replay file (gzip JSON), as `arena run --replay` does."""
        from orchestrator.replay import file as replay
        return str(replay.save(self.data, path))


@dataclass(frozen=True)
class PlayerResult(_Json[dict]):
    """One AI's place in a match."""

    name: str
    seat: int
    bot: str
    sha256: str
    description: str | None      # what the bot's file says of its strategy ("" if nothing)
    rank: int
    status: str                  # ok, erased, forfeit or load_error
    reason: str | None
    turn: int | None
    overheats: int
    cpu_s: float
    own_s: float | None          # its requests' wall time less their run-queue wait (None:
                                 # a results file from before own times)
    peak_rss_mb: float
    stats: dict
    note: str                    # what went wrong, in one line (results/notes.py)
    penalties: list              # the note's phrases, one a penalty (results/penalties.py)
    data: dict = field(repr=False)


@dataclass(frozen=True)
class MatchResult(_Json[MatchData]):
    """One match, as `arena run --json` prints it; `.replay` is its replay."""

    game: str
    map: str
    seed: int
    turns: int
    end: str
    winner: str | None
    runner_up: str | None
    restarts: int
    players: list[PlayerResult]
    data: MatchData = field(repr=False)
    replay: Replay | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], replay: dict | None = None) -> "MatchResult":
        found = _typed(cls, data)
        return dataclasses.replace(
            found, players=[_typed(PlayerResult, p) for p in data["players"]],
            replay=Replay.from_dict(replay) if replay is not None else None)

    def save_replay(self, path) -> str:
        """Write the replay to `path` and name it in the result (`"replay"` in the JSON),
        as `arena run --replay PATH` does."""
        if self.replay is None:
            raise ValueError("this result has no replay")
        saved = self.data["replay"] = self.replay.save(path)
        return saved

    def _repr_html_(self) -> str:
        summary = html_table(self.data["players"], MATCH_COLUMNS, caption=(
            f"{self.game} on {self.map}, seed {self.seed}: {self.turns} turns, "
            f"{ended(self.end)}; winner {self.winner or 'none'}"))
        return summary + (self.replay._repr_html_() if self.replay else "")

    def to_pandas(self):
        """One row per AI."""
        return pandas_module().DataFrame([_flat(p) for p in self.to_json()["players"]])


MATCH_COLUMNS = (("rank", lambda p: p["rank"]), ("AI", lambda p: p["name"]),
                 ("status", lambda p: p["status"]), ("overheats", lambda p: p["overheats"]),
                 ("CPU s", lambda p: round(p["cpu_s"], 2)),
                 ("own s", lambda p: _rounded(p.get("own_s"))),
                 ("note", notes.note))


def _rounded(value: float | None) -> float | None:
    """Seconds to the hundredth; None (not kept) stays None, shown as a dash."""
    return None if value is None else round(value, 2)


def _flat(row: dict) -> dict:
    """A row for a DataFrame: nested dicts become `stats.alive`-style columns."""
    flat: dict = {}
    for key, value in row.items():
        if isinstance(value, dict) and key != "reasons":
            flat |= {f"{key}.{k}": v for k, v in value.items()}
        else:
            flat[key] = value
    return flat


@dataclass(frozen=True)
class Standing(_Json[dict]):
    """One AI's row of a batch or tournament table (Elo and openskill: tournaments)."""

    name: str
    bot: str
    sha256: str
    description: str | None      # what the bot's file says of its strategy ("" if nothing)
    games: int                   # the games it played
    matches: int                 # the same: its old name, kept
    wins: int
    draws: int
    win_rate: float
    win_ci: list
    top2_rate: float
    mean_rank: float
    erased: int
    forfeits: int
    load_errors: int
    reasons: dict
    penalties: list              # each penalty counted over the games (results/penalties.py)
    mean_score: float | None
    mean_cpu_s: float | None     # CPU seconds a game
    mean_own_s: float | None     # own seconds a game (None: no game kept it)
    elo: float | None
    mu: float | None
    sigma: float | None
    ordinal: float | None
    points: int | None
    data: dict = field(repr=False)


STANDING_COLUMNS = (("AI", lambda r: r["name"]), ("games", lambda r: r["matches"]),
                    ("wins", lambda r: r["wins"]), ("draws", lambda r: r["draws"]),
                    ("win %", lambda r: round(100 * r["win_rate"], 1)),
                    ("95% interval", lambda r: "{:.3f}-{:.3f}".format(*r["win_ci"])),
                    ("mean rank", lambda r: r["mean_rank"]),
                    ("failed", lambda r: r["erased"] + r["forfeits"] + r["load_errors"]),
                    ("CPU s", lambda r: _rounded(r.get("mean_cpu_s"))),
                    ("own s", lambda r: _rounded(r.get("mean_own_s"))),
                    ("penalties", lambda r: "; ".join(r.get("penalties") or ())))
RATING_COLUMNS = (("Elo", lambda r: round(r["elo"])),
                  ("openskill", lambda r: f"{r['mu']:.1f} ± {r['sigma']:.1f}"))


@dataclass(frozen=True)
class BatchResult(_Json[dict]):
    """A batch (`arena batch --json`), a tournament (`arena tournament --json`), or a run
    read from a store (`arena results DB --run ID --json`)."""

    game: str
    matches: int
    skipped: int
    db: str
    players: list[Standing]
    lengths: dict
    data: dict = field(repr=False)
    title: str = field(default="", repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], title: str = "") -> "BatchResult":
        found = _typed(cls, data)
        return dataclasses.replace(found, title=title,
                                   players=[_typed(Standing, p) for p in data["players"]])

    @property
    def rated(self) -> bool:
        return bool(self.data["players"]) and "elo" in self.data["players"][0]

    def _repr_html_(self) -> str:
        columns = STANDING_COLUMNS + (RATING_COLUMNS if self.rated else ())
        return html_table(self.data["players"], columns, caption=self.title)

    def to_pandas(self):
        """One row per AI: the table `arena batch` or `arena tournament` prints."""
        return pandas_module().DataFrame([_flat(p) for p in self.to_json()["players"]])


@dataclass(frozen=True)
class CompareResult(_Json[dict]):
    """`arena compare --json`: the sequential test's verdict on NEW against OLD."""

    verdict: str                 # H1 (NEW is better), H0 (it is not), identical or undecided
    decided_by: str              # gsprt, betting, moves, or None when undecided
    exit_status: int             # `arena compare`'s: 0 H1, 1 H0, 3 undecided, 4 identical
    games: int
    pairs: int
    elo: float
    elo_ci: list
    nelo: float
    llr: float
    counts: list
    new: str
    old: str
    db: str
    data: dict = field(repr=False)
    new_name: str = field(default="", repr=False, compare=False)     # the bots' names
    old_name: str = field(default="", repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], new_name: str = "",
                  old_name: str = "") -> "CompareResult":
        return dataclasses.replace(_typed(cls, data), new_name=new_name, old_name=old_name)

    @property
    def record(self) -> dict:
        """NEW's pairs won, drawn and lost against OLD."""
        from orchestrator.results.sprt import pair_record

        return pair_record(self.counts)

    def _repr_html_(self) -> str:
        won, drawn, lost = (self.record[k] for k in ("won", "drawn", "lost"))
        rows = [{"what": "pairs (new)", "value": f"{won} won, {drawn} drawn, {lost} lost"}]
        rows += [{"what": key, "value": self.data[key]} for key in (
            "verdict", "decided_by", "exit_meaning", "games", "pairs", "elo_shown", "elo",
            "elo_ci", "nelo", "llr", "bounds", "log_wealth", "wealth_bounds", "counts",
            "outcomes", "model", "elo0", "elo1", "alpha", "beta", "uncounted", "db")
            if key in self.data]
        return html_table(rows, (("", lambda r: r["what"]), ("", lambda r: r["value"])),
                          caption=f"compare {self.new_name or self.new} (new) with "
                                  f"{self.old_name or self.old} (old)")

    def to_pandas(self):
        """One row: the JSON object, flat."""
        return pandas_module().DataFrame([_flat(self.to_json())])


@dataclass(frozen=True)
class RunInfo:
    """One run recorded in a store (`arena results DB --json`'s `runs`)."""

    id: str
    kind: str                    # batch, tournament or compare
    game: str
    created: float
    args: dict
    planned: int
    finished: int
    data: dict = field(repr=False)



@dataclass(frozen=True)
class Matchups(_Json[dict]):
    """Who beats whom (`arena results DB --matrix --json`): one cell per entrant,
    opponent (and map or seat with `by`), with games, wins, draws, losses, the win rate
    and its 95 % Wilson interval, and the ids of its games; in Jupyter, the heat map."""

    entrants: list
    cells: list
    games: dict
    data: dict = field(repr=False)

    @classmethod
    def from_dict(cls, data: dict) -> "Matchups":
        return _typed(cls, data)

    def rows(self) -> tuple[list[str], list[tuple]]:
        """The cells as flat rows, the columns of `--matrix --export csv`."""
        from orchestrator.service.matchups import matrix_rows
        return matrix_rows(self.data)

    def to_pandas(self):
        """One row per cell: the columns of `--matrix --export csv`."""
        columns, rows = self.rows()
        return pandas_module().DataFrame(rows, columns=columns)

    def html(self) -> str:
        """The self-contained page (as `--matrix --html` writes it)."""
        from orchestrator.views import matrix_page
        return matrix_page.page(self.data)

    def save(self, path) -> str:
        """Write the page, as `--matrix --html FILE` does."""
        from orchestrator.views import matrix_page
        return str(matrix_page.write_page(self.data, path))

    def _repr_html_(self) -> str:
        return (f'<iframe srcdoc="{escape(self.html(), quote=True)}" sandbox="allow-scripts" '
                f'style="width:100%;height:{VIEWER_HEIGHT}px;border:0" '
                f'title="matchups"></iframe>')
