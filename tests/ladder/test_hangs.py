"""Uploads that hang: a real `arena serve` answers one with 422 after a check of
a few turns, and a flood of them neither stalls the pages nor the matches: the checks run
in a fixed number of workers, a bounded number wait, and the rest are refused at once.

No wall time is asserted tightly: the check's forfeit turn says it was quick, and page
latency has a generous bound (the numbers are printed; `pytest -s` shows them).
"""
from __future__ import annotations

import re
import statistics
import threading
import time

import httpx

from tests.support.ladder import SAMPLES, Server, upload, wait_for
from tests.support.marks import LONG
from tests.support.paths import ROOT

LOOPER = ROOT / "tests" / "robotgame" / "hangs" / "loop_act.py"
HANGERS = sorted((ROOT / "tests" / "robotgame" / "hangs").glob("*.py"))
WORKERS, QUEUE, FLOOD = 2, 2, 7       # four checked, three refused at once
PAGE_BOUND_S = 5.0          # generous: a page renders in milliseconds


def forfeit_turn(reason: str) -> int:
    found = re.search(r"\(turn (\d+)\)$", reason)
    assert found, reason
    return int(found.group(1))


@LONG
def test_hanging_uploads_are_refused_quickly_and_a_flood_stalls_nothing(tmp_path) -> None:
    server = Server(tmp_path / "ladder.sqlite", "--games", "robotgame", "--workers", "1",
                    "--check-workers", str(WORKERS), "--check-queue", str(QUEUE),
                    "--upload-pending", str(FLOOD))     # (the flood is one address's)
    try:
        for name in ("example", "rusher"):
            answer = server.upload("robotgame", name, SAMPLES / "robotgame" / f"{name}.py")
            assert answer.status_code == 201, answer.text

        started = time.monotonic()
        answer = server.upload("robotgame", "looper", LOOPER)
        single_s = time.monotonic() - started
        assert answer.status_code == 422, answer.text
        reason = answer.json()["reason"]
        assert reason.startswith("timeout") and forfeit_turn(reason) <= 3, reason

        def played() -> int:
            return server.client.get("/api/ladders/robotgame").json()["matches"]

        wait_for(played, 120, "a first match")
        before = played()
        answers: list[httpx.Response] = []

        # Every client made before any upload is sent: on a busy machine, making them one
        # after another spread the flood over longer than a hanging check lasts, so that
        # every upload found a free place and none was refused.
        ready = threading.Barrier(FLOOD)

        def flood(i: int) -> None:
            bot = HANGERS[i % len(HANGERS)]
            with httpx.Client(base_url=server.url, timeout=120) as client:
                ready.wait(timeout=120)
                answers.append(upload(client, "robotgame", f"hanger {i}", bot))

        threads = [threading.Thread(target=flood, args=(i,)) for i in range(FLOOD)]
        flood_started = time.monotonic()
        for thread in threads:
            thread.start()
        latencies = []
        while any(thread.is_alive() for thread in threads):
            for page in ("/", "/ladder/robotgame", "/api/ladders/robotgame"):
                asked = time.monotonic()
                assert server.client.get(page, timeout=30).status_code == 200, page
                latencies.append(time.monotonic() - asked)
            time.sleep(0.1)
        flood_s = time.monotonic() - flood_started
        for thread in threads:
            thread.join()
        after = played()
        print(f"\none hanging upload: 422 in {single_s:.1f} s; {FLOOD} at once: answered in "
              f"{flood_s:.1f} s; pages during the flood: median "
              f"{statistics.median(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} "
              f"ms over {len(latencies)}; matches {before} -> {after}")

        statuses = sorted(a.status_code for a in answers)
        assert len(answers) == FLOOD and set(statuses) <= {422, 503}, statuses
        # All that could wait were checked: the queue's, and those the check workers took
        # before the queue filled (none, on a loaded machine); the rest were refused.
        assert statuses.count(422) >= QUEUE, statuses
        # The rest were refused: at least one, since the flood is more than the workers and
        # the queue hold. (A check that ends while the flood still arrives frees its place,
        # so on a quiet machine more than WORKERS + QUEUE may be checked.)
        assert statuses.count(503) >= 1, statuses
        for refused in answers:
            body = refused.json()
            if refused.status_code == 503:
                assert body["error"] == "busy", body
            else:
                assert body["error"] == "check failed" and "crash" not in body["reason"], body
        assert max(latencies) < PAGE_BOUND_S, latencies
        assert after > before, "no match finished during the flood"
        assert server.client.get("/api/health").status_code == 200
    finally:
        server.stop()
