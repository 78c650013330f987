"""Executable bots' runtimes: the seed's own random bot as it was pasted, a persistent Java
bot and a Perl bot through whole games (as root and as an ordinary user), `check`'s word
on a per-turn Java bot, and the finder of what a runtime loads, on the machine's real
binaries (against `ldd`) and on a runtime built here that no table names."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from orchestrator.options import CheckSettings
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from orchestrator.service.check import check_bot
from sandbox.limits import Limits
from sandbox.loader import is_elf, link_chain, loaded_files, read_elf, runtime_home
from sandbox.paths import interpreter_files
from sandbox.programs import BOT, BY_NAME, PERSISTENT, RUNTIMES, describe
from tests.sandbox import as_user
from tests.support.cave import GAME, SAMPLES
from tests.support.paths import ARENA_CMD

BOTS = Path(__file__).parent / "bots"
# The seed's "Here's some code for a random bot", saved verbatim: its #!/usr/bin/python
# line, Python 2 era, and all. Its hash keeps anyone from "fixing" it.
RANDOM_BOT = BOTS / "randombot"
RANDOM_BOT_SHA256 = "c3f4e52a368d78b187f6dc6bb96f6a51b3d93481df9efa7e6b660ba368647440"
JAVA_BOT, PERL_BOT = BOTS / "Ranger.java", BOTS / "tunneler.pl"
INSTALLED = [row for row in RUNTIMES if not row.native and row.binary()]


def needs(*names: str):
    missing = [name for name in names if BY_NAME[name].binary() is None]
    return pytest.mark.skipif(bool(missing), reason=f"runtime not installed: {missing}")


def clean(player: dict) -> None:
    """A player that the sandbox did not fault: every turn it played was answered, in
    time and valid."""
    stats = player["stats"]
    assert player["status"] == "ok", player
    assert stats["faults"] == {} and stats["invalid"] == 0, (stats, player["output"][-600:])
    assert stats["decisions"] == stats["turns"], stats
    assert player["violations"] == [], player["violations"]


def test_the_seeds_random_bot_is_kept_byte_for_byte() -> None:
    data = RANDOM_BOT.read_bytes()
    assert hashlib.sha256(data).hexdigest() == RANDOM_BOT_SHA256
    assert data.startswith(b"#!/usr/bin/python\n")


@pytest.mark.parametrize("line", ["#!/usr/bin/python", "#!/usr/bin/env python",
                                  "#!/usr/bin/python3", "#!/usr/bin/env python3",
                                  "#!/usr/bin/env python3.11", "#!/usr/local/bin/python3.11",
                                  "#!python"])
def test_every_python_name_is_the_hosts_python3(line: str) -> None:
    """As Debian's python-is-python3 has it, even where /usr/bin/python does not exist."""
    info = describe("bot", f"{line}\nprint('HNNHNN')\n".encode())
    assert info["problem"] is None
    assert info["runtime"] == "python3" and info["exec"] == interpreter_files()[0]
    assert info["argv"][0] == info["exec"] and info["exec"] in info["files"]


def test_the_seeds_random_bot_plays_a_whole_game_in_the_sandbox() -> None:
    spec = MatchSpec("cave", GAME.find_map(None), [read_bot(RANDOM_BOT),
                                                   read_bot(SAMPLES / "forager.py")],
                     4, GAME.rules("seed"), None, "standard")
    result = run_match(spec)
    assert result["sandbox_missing"] == {}
    bot = next(p for p in result["players"] if p["name"] == "randombot")
    clean(bot)
    assert bot["stats"]["turns"] == result["turns"] or not bot["stats"]["alive"]


LINEUP = [JAVA_BOT, PERL_BOT, RANDOM_BOT, SAMPLES / "forager.py"]


@needs("java", "perl")
def test_a_persistent_java_bot_and_a_perl_bot_play_a_whole_game() -> None:
    assert PERSISTENT in JAVA_BOT.read_bytes()[:400]
    assert not describe(PERL_BOT.name, PERL_BOT.read_bytes())["persistent"]
    spec = MatchSpec("cave", GAME.find_map(None), [read_bot(b) for b in LINEUP], 3,
                     GAME.rules("seed"), None, "standard")
    result = run_match(spec)
    assert result["sandbox_missing"] == {}
    for player in result["players"]:
        clean(player)


@needs("java", "perl")
@pytest.mark.skipif(os.geteuid() != 0,
                    reason="not root: the test above already plays as an ordinary user")
def test_a_java_and_a_perl_bot_play_a_whole_game_as_an_ordinary_user(ordinary_user) -> None:
    done = ordinary_user.run([*ARENA_CMD, "run", "--game", "cave", "--seed", "3", "--json",
                              *[str(b) for b in LINEUP]], timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["sandbox_missing"] == {} and "user_ns" in result["sandbox"]
    assert ordinary_user.uid == as_user.ORDINARY_UID
    for player in result["players"]:
        clean(player)


@needs("java")
@pytest.mark.parametrize("turns", [2, 4], ids=["played-out", "stopped-early"])
def test_check_tells_a_per_turn_java_bot_to_go_persistent(tmp_path, turns: int) -> None:
    """A turn's time far below any JVM's start: the failure line says why, and the fix,
    whether the check played every turn or stopped after 3 turns in a row out of time."""
    bot = tmp_path / "Bot.java"
    bot.write_text(re.sub(r"// cave-protocol: persistent\n", "", JAVA_BOT.read_text()))
    limits = Limits(cpu_per_call_s=1.0, wall_per_call_s=0.1, watchdog_grace_s=5.0,
                    first_wall_s=5.0, output_bytes=16 << 10)
    found = check_bot(bot, "cave", CheckSettings(turns=turns, once=True), limits=limits)
    assert found["failure"] in ("hang", "cpu"), found["reason"]
    assert ("stopped early" in found["reason"]) is (turns > 3), found["reason"]
    assert ("java starts afresh every turn and cannot start within the 0.1 s a turn "
            "allows: add `cave-protocol: persistent` in a comment in its first 5 lines"
            ) in found["reason"]
    # The persistent bot under the same limits: its first turn has first_wall_s.
    assert check_bot(JAVA_BOT, "cave", CheckSettings(turns=2, once=True), limits=limits)["ok"]


# A per-turn Java bot: it reads its turn and holds, a valid answer every turn.
PER_TURN_JAVA = """public class Bot {
    public static void main(String[] args) throws Exception {
        System.in.readAllBytes();
        System.out.println("HNNHNN");
    }
}
"""


@needs("java")
def test_check_tells_a_per_turn_java_bot_whose_starts_stall_a_match_to_go_persistent(
        tmp_path) -> None:
    """Every turn in time, but a JVM's start each turn adds up past the own-time bank: a
    small bank here, which a full match at any JVM's pace passes (50 starts of at least
    0.4 s of own time against 10 s) and the check's three turns do not use up, however
    busy the machine: `stalls`, and the fix."""
    bot = tmp_path / "Bot.java"
    bot.write_text(PER_TURN_JAVA)
    limits = Limits(cpu_per_call_s=5.0, wall_per_call_s=5.0, watchdog_grace_s=5.0,
                    first_wall_s=5.0, output_bytes=16 << 10, own_per_turn_s=5.0,
                    own_bank_s=10.0)
    found = check_bot(bot, "cave", CheckSettings(turns=3, once=True), limits=limits)
    assert found["failure"] == "stalls", found["reason"]
    assert ("java starts afresh every turn, and its starts are most of that time: add "
            "`cave-protocol: persistent` in a comment in its first 5 lines") in found["reason"]


def test_a_per_turn_program_that_hangs_gets_no_java_advice() -> None:
    found = check_bot(Path(__file__).parent / "hostile" / "silent.sh", "cave",
                      CheckSettings(turns=2, once=True),
                      limits=Limits(cpu_per_call_s=1.0, wall_per_call_s=0.3,
                                    watchdog_grace_s=5.0, output_bytes=16 << 10))
    assert found["failure"] in ("hang", "cpu") and "persistent" not in found["reason"]


def _ldd(binary: str) -> list[str]:
    """What the system's own loader resolves for `binary`: the paths of `ldd`."""
    done = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "not found" not in done.stdout, done.stdout
    return [m.group(1) for m in re.finditer(r"(?:=> )?(/\S+) \(0x", done.stdout)]


def _shown(path: str, files: tuple[str, ...]) -> bool:
    """Whether `path` resolves among `files` as a private root would show them."""
    chain = link_chain(path)
    return all(any(step == f or step.startswith(f.rstrip("/") + "/") for f in files)
               for step in chain)


@pytest.mark.skipif(not shutil.which("ldd"), reason="ldd is not installed")
@pytest.mark.parametrize("row", INSTALLED, ids=lambda row: row.name)
def test_the_finder_shows_what_the_loader_loads(row) -> None:
    binary = row.binary()
    files = loaded_files(binary)
    assert files[0] == os.path.realpath(binary)
    elf = read_elf(binary)
    assert elf.interp and _shown(elf.interp, files)
    for library in _ldd(os.path.realpath(binary)):
        assert _shown(library, files), (library, files)


def test_each_row_of_the_table_is_recognised_by_its_extension() -> None:
    """A row installed here runs; one that is not is a load error that names it."""
    for row in RUNTIMES:
        for extension in row.extensions:
            info = describe(f"bot{extension}", b"x = 1\n")
            assert info["runtime"] == row.name
            if row.binary() is None:
                assert "is not installed on this machine" in info["problem"], info
            else:
                assert info["problem"] is None and info["exec"] == row.binary(), info
    assert describe("bot", b"\x7fELF\x02\x01\x01")["runtime"] == "native"


@pytest.mark.parametrize("row", INSTALLED, ids=lambda row: row.name)
def test_each_installed_row_is_recognised_by_its_shebang(row) -> None:
    info = describe("bot", f"{row.shebang}\n".encode())
    assert info["runtime"] == row.name and info["problem"] is None, info
    assert info["exec"] == row.binary() and info["argv"][0] == info["exec"]
    assert info["argv"][-1] == BOT and info["env"]["LD_ORIGIN_PATH"]
    assert info["argv"][-1 - len(row.file_flags):-1] == list(row.file_flags)


@pytest.mark.skipif(not (shutil.which("java") and shutil.which("ldd")), reason="no JVM here")
def test_the_jvms_home_is_found_with_what_it_links_to() -> None:
    binary = os.path.realpath(shutil.which("java"))
    home = runtime_home(binary, read_elf(binary))
    assert home is not None and os.path.isfile(os.path.join(home, "lib", "modules"))
    files = loaded_files(binary)
    assert home in files
    for top, dirs, names in os.walk(home):
        for name in dirs + names:
            path = os.path.join(top, name)
            if os.path.islink(path) and os.path.exists(path):
                assert _shown(os.path.realpath(path), files), path


def test_link_chains_hold_each_link_on_the_way_then_the_real_file() -> None:
    for path in ["/lib64/ld-linux-x86-64.so.2", "/bin/sh", "/usr/bin/env"]:
        if not os.path.exists(path):
            continue
        chain = link_chain(path)
        assert all(os.path.islink(step) for step in chain[:-1]), chain
        assert not os.path.islink(chain[-1]) and chain[-1] == os.path.realpath(path)
        assert all(os.path.realpath(os.path.dirname(s)) == os.path.dirname(s) for s in chain)


LIB_C = '#include <stdio.h>\nint answer_line(char *out) { return sprintf(out, "HNNHNN"); }\n'
RUNTIME_C = """#include <stdio.h>
int answer_line(char *out);
int main(int argc, char **argv) {
    char line[4096], out[16];
    FILE *extra = fopen(HOME "/share/greeting", "r");
    if (!extra) return 3;
    while (fgets(line, sizeof line, stdin)) {}
    answer_line(out);
    puts(out);
    return 0;
}
"""


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler (apt-get install gcc)")
def test_a_runtime_no_table_names_runs_from_its_own_home(tmp_path) -> None:
    """A runtime built here: its library found through `$ORIGIN/../lib`, and a file its
    home links to outside itself, both shown in the private root, where it plays."""
    home = tmp_path / "fakeruntime"
    for part in ("bin", "lib"):
        (home / part).mkdir(parents=True)
    outside = tmp_path / "etc-fakeruntime"
    outside.mkdir()
    (outside / "greeting").write_text("hello\n")
    (home / "share").symlink_to(outside)
    (tmp_path / "lib.c").write_text(LIB_C)
    (tmp_path / "main.c").write_text(RUNTIME_C)
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(home / "lib" / "libanswer.so"),
                    str(tmp_path / "lib.c")], check=True)
    subprocess.run(["cc", f'-DHOME="{home}"', "-o", str(home / "bin" / "fakert"),
                    str(tmp_path / "main.c"), f"-L{home / 'lib'}", "-lanswer",
                    "-Wl,-rpath,$ORIGIN/../lib"], check=True)
    for path in [tmp_path, home, outside, *home.rglob("*"), *outside.rglob("*")]:
        path.chmod(0o755)                 # the sandbox's uid must enter them
    binary = str(home / "bin" / "fakert")
    assert is_elf(binary) and loaded_files(binary)[0] == binary
    files = loaded_files(binary)
    assert str(home) in files and str(outside) in files
    assert str(home / "lib" / "libanswer.so") in files
    bot = tmp_path / "bot"
    bot.write_text(f"#!{binary}\n")
    spec = MatchSpec("cave", GAME.find_map(None), [read_bot(bot),
                                                   read_bot(SAMPLES / "forager.py")],
                     2, GAME.rules("seed", max_turns=3), None, "standard")
    player = next(p for p in run_match(spec)["players"] if p["name"] == "bot")
    clean(player)
