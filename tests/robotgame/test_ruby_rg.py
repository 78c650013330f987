"""Ruby's `rg` (sandbox/botlib/ruby/rg.rb) answers as the Python `rg` does, on every square
of the default map and around it: a generated table of inputs, computed by both."""
from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.robotgame.game import RobotGame
from engine.robotgame.mapfile import load_map
from engine.robotgame.rules import rules_from
from sandbox.paths import BOTLIB

ROOT = Path(__file__).resolve().parents[2]
RUBY_RG = BOTLIB / "ruby" / "rg.rb"
TARGETS = [(9, 9), (3, 15), (0, 0), (18, 4), (12, 12)]
FILTERS = [None, [], ["invalid"], ["invalid", "obstacle"], ["spawn"], ["normal", "spawn"]]
PROBE = r"""
require 'json'
require_relative ARGV[0]
data = JSON.parse($stdin.read)
RG.configure(data['info'])
out = data['locs'].map do |loc|
  { 'types' => RG.loc_types(loc).to_a.sort,
    'around' => data['filters'].map { |f| RG.locs_around(loc, filter_out: f) },
    'toward' => data['targets'].map { |t| [RG.toward(loc, t), RG.toward(t, loc)] },
    'dist' => data['targets'].map { |t| [RG.dist(loc, t), RG.wdist(loc, t)] } }
end
puts JSON.generate({ 'table' => out, 'center' => RG::CENTER_POINT,
                     'settings' => RG.settings.to_h,
                     'attr' => [RG.settings.spawn_every, RG.settings[:robot_hp]] })
"""


def python_table(info: dict) -> dict:
    # Our rg, by its path: other tests may have put rgkit's own `rg` in sys.modules.
    spec = importlib.util.spec_from_file_location("arena_rg_for_ruby_test", BOTLIB / "rg.py")
    rg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rg)
    rg._configure(info)
    locs = [(x, y) for x in range(-1, 20) for y in range(-1, 20)]
    table = [{"types": sorted(rg.loc_types(loc)),
              "around": [[list(n) for n in rg.locs_around(loc, filter_out=f)]
                         for f in FILTERS],
              "toward": [[list(rg.toward(loc, t)), list(rg.toward(t, loc))] for t in TARGETS],
              "dist": [[rg.dist(loc, t), rg.wdist(loc, t)] for t in TARGETS]}
             for loc in locs]
    settings = {k: (list(v) if isinstance(v, tuple) else v) for k, v in rg.settings.items()}
    settings["spawn_coords"] = [list(loc) for loc in settings["spawn_coords"]]
    settings["obstacles"] = [list(loc) for loc in settings["obstacles"]]
    return {"locs": locs, "table": table, "center": list(rg.CENTER_POINT),
            "settings": settings, "attr": [rg.settings.spawn_every, rg.settings["robot_hp"]]}


@pytest.mark.skipif(shutil.which("ruby") is None,
                    reason="Ruby bots need Debian's ruby (make test installs it as root)")
def test_ruby_rg_matches_python_rg_on_every_square() -> None:
    match = RobotGame(load_map(ROOT / "maps" / "robotgame" / "default.py"), ["a", "b"],
                           0, rules_from())
    info = json.loads(json.dumps(match.start_info(0)))
    expected = python_table(info)
    request = {"info": info, "locs": expected["locs"], "filters": FILTERS, "targets": TARGETS}
    done = subprocess.run(["ruby", "-e", PROBE, str(RUBY_RG)], input=json.dumps(request),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert len(got["table"]) == len(expected["table"]) == 441
    for loc, ours, theirs in zip(expected["locs"], expected["table"], got["table"], strict=True):
        assert theirs == ours, loc
    assert got["center"] == expected["center"] == [9, 9]
    assert got["settings"] == expected["settings"]
    assert got["attr"] == expected["attr"] == [10, 50]
    # The table exercised every kind of square.
    kinds = {tuple(row["types"]) for row in expected["table"]}
    assert {("invalid",), ("normal",), ("normal", "spawn"), ("normal", "obstacle")} <= kinds
