"""`arena publish` leaves the bots' debug marks out of the site it writes: the
replays of a results file keep them, for `arena replay`; the published ones do not."""
from __future__ import annotations

from orchestrator import api
from tests.support.paths import ROOT
from tests.support.thinkers import thinker


def test_a_published_replay_has_no_marks(tmp_path) -> None:
    db = tmp_path / "results.sqlite"
    api.tournament([str(thinker("arena")), str(ROOT / "bots/arena/hunter.py")],
                   format="round-robin", games=1, map="tiny", max_turns=6, first_seed=3,
                   workers=1, db=db, progress=False, replays=True)
    kept = list((tmp_path / "replays").glob("*.json.gz"))
    assert kept and all(api.load_replay(path).data.get("debug") for path in kept)
    out = tmp_path / "site"
    api.publish(db, out, progress=False)
    published = "".join(path.read_text(encoding="utf-8", errors="replace")
                        for path in out.rglob("*") if path.is_file() and
                        path.suffix in (".js", ".html"))
    assert "replays" in {p.name for p in out.iterdir()}
    assert '"debug":{' not in published and "life 10, flag" not in published
