"""A bot given as code is the object passed: the source written for a function or class
(and its helpers) is the definition that compiles to that object's code, never another
definition of the same name in its file, and the sha256 a result records is that of the
file that played. Where no text is that object's code, the call is refused with why."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from orchestrator import api
from tests.api import twice
from tests.support.paths import ROOT

CASES = [pytest.param(twice.move_hidden_first, "arena", "hunter", id="function-hidden-first"),
         pytest.param(twice.move_hidden_after, "arena", "hunter", id="function-hidden-after"),
         pytest.param(twice.RobotHiddenFirst, "robotgame", "rusher", id="class-hidden-first"),
         pytest.param(twice.RobotHiddenAfter, "robotgame", "rusher", id="class-hidden-after")]


def played(code, game: str, opponent: str, **options):
    """The code bot's player in a short match, and the text of the file that played."""
    got = api.play([code, opponent], game=game, seed=2, max_turns=3, progress=False,
                   **options)
    mine = next(p for p in got.players if p.name == code.__name__)
    return mine, Path(mine.bot).read_bytes()


@pytest.mark.parametrize("code, game, opponent", CASES)
def test_the_object_passed_plays_not_a_hidden_definition_of_its_name(code, game, opponent
                                                                     ) -> None:
    mine, text = played(code, game, opponent)
    assert mine.status == "ok", mine.reason
    assert "passed" in mine.data["output"] and "hidden" not in mine.data["output"]
    assert b'"hidden"' not in text and b"if False" not in text
    assert mine.sha256 == hashlib.sha256(text).hexdigest()        # the sha of what played


def test_a_helper_class_defined_twice_is_the_one_passed() -> None:
    got = api.play([api.bot_file(twice.says_marker, helpers=[twice.Marker]), "hunter"],
                   seed=2, max_turns=3, progress=False)
    mine = next(p for p in got.players if p.name == "says_marker")
    text = Path(mine.bot).read_bytes()
    assert mine.status == "ok", mine.reason
    assert "passed" in mine.data["output"] and "hidden" not in mine.data["output"]
    assert b'"hidden"' not in text and mine.sha256 == hashlib.sha256(text).hexdigest()


def refused(code, game: str = "arena", helpers=()) -> str:
    with pytest.raises(api.InputError) as caught:
        api.bot_file(code, game, helpers=helpers)
    return str(caught.value)


def test_a_class_whose_method_was_replaced_after_it_was_made_is_refused() -> None:
    why = refused(twice.RobotPatched, "robotgame")
    assert why.startswith("RobotPatched: its method act is not the one its definition at ")
    assert "replaced after the class was made" in why and "\n" not in why


def test_a_class_defined_twice_with_nothing_to_tell_which_is_refused() -> None:
    why = refused(twice.says_marker, helpers=[twice.Plain])
    assert why.startswith("Plain: it is defined 2 times in ") and "twice.py" in why


def test_code_compiled_from_other_text_under_a_files_name_is_refused() -> None:
    """Its code names twice.py and a line there; the text at that line is not its code."""
    namespace: dict = {}
    lines = "\n" * (twice.move_hidden_after.__code__.co_firstlineno - 1)
    exec(compile(lines + "def move_hidden_after(*args):\n    print('evil')\n",
                 twice.__file__, "exec"), namespace)
    why = refused(namespace["move_hidden_after"])
    assert why.startswith("move_hidden_after: its definition at ")
    assert "does not compile to the code it runs" in why


def test_a_bot_whose_file_changed_after_it_was_defined_is_refused(tmp_path) -> None:
    """An editor saved the file after the module was imported: the text there now is not
    the code the object runs, so it is not written as if it were."""
    module_file = tmp_path / "edited_bot.py"
    module_file.write_text("def move():\n    print('passed')\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("edited_bot", module_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module_file.write_text("def move():\n    print('edited')\n", encoding="utf-8")
    why = refused(module.move)
    assert "does not compile to the code it runs" in why and "edited_bot.py:1" in why
    module_file.write_text("\n\ndef move():\n    print('passed')\n", encoding="utf-8")
    assert "no definition of it starts at " in refused(module.move)


def test_a_class_in_a_notebook_cell_is_the_one_passed() -> None:
    """IPython keeps each cell's text in linecache under the cell's own file name; a class
    (whose source inspect cannot find there) is found by its methods' code."""
    cells = ['if False:\n    class Robot:\n        def act(self, game):\n'
             '            print("hidden")\n            return ["guard"]\n',
             'class Robot:\n    def act(self, game):\n        print("passed")\n'
             '        return ["guard"]\n',
             'from orchestrator import api\n'
             'got = api.play([Robot, "rusher"], game="robotgame", seed=2, max_turns=3, '
             'progress=False)\n'
             'mine = next(p for p in got.players if p.name == "Robot")\n'
             'print("RESULT", json.dumps([mine.status, mine.data["output"], mine.bot, '
             'mine.sha256]))\n']
    script = textwrap.dedent(f"""
        import json
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        for cell in {cells!r}:
            shell.run_cell("import json\\n" + cell).raise_error()
        """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    line = next(x for x in done.stdout.splitlines() if x.startswith("RESULT"))
    status, output, bot, sha = json.loads(line.split(" ", 1)[1])
    assert status == "ok" and "passed" in output and "hidden" not in output
    assert sha == hashlib.sha256(Path(bot).read_bytes()).hexdigest()


def test_a_bot_from_a_file_with_postponed_annotations_plays_as_compiled(tmp_path) -> None:
    """Under `from __future__ import annotations` an annotation is never evaluated; the
    bot file starts with the same import, so its text compiles to the same code and an
    annotation naming something the sandbox lacks does not stop it."""
    module_file = tmp_path / "annotated_bot.py"
    module_file.write_text("from __future__ import annotations\n\n\ndef move():\n"
                           "    def inner(x: Missing) -> Missing:\n        return x\n"
                           "    print('passed')\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("annotated_bot", module_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    mine, text = played(module.move, "arena", "hunter")
    assert text.startswith(b"from __future__ import annotations\n")
    assert mine.status == "ok" and "passed" in mine.data["output"], mine.reason


def test_code_using_a_module_imported_at_the_top_of_its_file_is_accepted() -> None:
    """The definition is checked against its code with the file's imports compiled ahead
    of it (not run, not written): the bot file holds the definition alone, so the calls on
    the module raise NameError in the sandbox, and the note says how to fix it."""
    from tests.api import imports_outside

    path = api.bot_file(imports_outside.uses_imported)
    assert "import math" not in path.read_text() and "math.floor(0)" in path.read_text()
    robot = api.bot_file(imports_outside.Floors, "robotgame")
    assert "math.floor(0.5)" in robot.read_text()
    played = api.play([imports_outside.uses_imported, "hunter"], seed=2, max_turns=3,
                      robots=2, progress=False, record=False)
    me = next(p for p in played.players if p.name == "uses_imported")
    assert "NameError: name 'math' is not defined" in me.note
    assert "import what it uses inside the function" in me.note
