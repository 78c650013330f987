"""Each option is declared once (orchestrator/options/), as a group that the command line,
the API and the ladder share, and a command takes the groups it needs: so `arena run`,
`batch`, `tournament` and `compare` offer every option that applies to all of them, with
one help text, and none can exist for one and be missing from a sibling by accident
(`--random-spawn` was offered by run and batch only). Read from the commands as click
builds them, not from their source.

And no public function or method of the three packages takes more than 8 parameters
besides the API's documented keyword groups (`**options`: the fields of the groups it
takes, docs/python-api.md): a longer list is where an option gets spelled again."""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from pathlib import Path

import click
import pytest
import typer

from orchestrator import api
from orchestrator.cli.app import app
from orchestrator.cli.options import commands_groups
from orchestrator.options import (
    GROUPS,
    CheckSettings,
    CompareBounds,
    Confinement,
    Execution,
    LadderSettings,
    MatchSettings,
    TournamentFormat,
    accepted,
    is_group,
    keywords,
    members,
    option_of,
    taken,
)

ROOT = Path(__file__).resolve().parent.parent
MATCH_COMMANDS = ("run", "batch", "tournament", "compare")
RUN_COMMANDS = ("batch", "tournament", "compare")       # many matches into a results file

# The options that apply to every match a command plays, spelled out: the test of the
# groups below reads them from the groups, this one does not trust them.
EVERY_MATCH = {"--game", "--map", "--rules", "--robots", "--max-turns", "--random-spawn",
               "--sandbox", "--cpu-limit", "--memory-mb", "--json"}
EVERY_RUN = {"--workers", "--db", "--backend", "--address"}


def command(name: str) -> click.Command:
    root = typer.main.get_command(app)
    assert isinstance(root, click.Group)
    found = root.commands[name]
    assert isinstance(found, click.Command)
    return found


def options(name: str) -> dict[str, click.Parameter]:
    """A command's options by each of their flags."""
    return {flag: param for param in command(name).params if isinstance(param, click.Option)
            for flag in param.opts}


def flags(group: type) -> set[str]:
    """The flags a group's fields are offered as (a nested group's too), as click names
    them from the command a group is offered by."""
    found = set()
    for item, kind in members(group):
        if is_group(kind):
            found |= flags(kind)
        elif option_of(item) is not None:
            flag = option_of(item)
            assert flag is not None
            found.add(flag.names[0] if flag.names else "--" + item.name.replace("_", "-"))
    return found


def test_run_batch_tournament_and_compare_offer_every_option_of_every_match() -> None:
    for name in MATCH_COMMANDS:
        missing = EVERY_MATCH - set(options(name))
        assert not missing, f"arena {name} lacks {sorted(missing)}"
    for name in RUN_COMMANDS:
        missing = EVERY_RUN - set(options(name))
        assert not missing, f"arena {name} lacks {sorted(missing)}"


def test_a_shared_option_says_the_same_in_every_command() -> None:
    """Declared once: one help, one default, one type, wherever it is offered."""
    for flag in sorted(EVERY_MATCH | EVERY_RUN):
        seen = {}
        for name in MATCH_COMMANDS:
            param = options(name).get(flag)
            if param is not None:
                seen[name] = (param.help, param.default, param.type.name, param.is_flag)  # type: ignore[attr-defined]
        assert len(set(seen.values())) == 1, f"{flag}: {seen}"


def _functions() -> dict[str, object]:
    import orchestrator.cli.batch
    import orchestrator.cli.check
    import orchestrator.cli.compare
    import orchestrator.cli.replay
    import orchestrator.cli.run
    import orchestrator.cli.serve

    return {"run": orchestrator.cli.run.run, "batch": orchestrator.cli.batch.batch,
            "tournament": orchestrator.cli.batch.tournament,
            "compare": orchestrator.cli.compare.compare,
            "check": orchestrator.cli.check.check,
            "replay": orchestrator.cli.replay.replay_command,
            "serve": orchestrator.cli.serve.serve}


def test_each_command_offers_every_option_of_each_group_it_takes() -> None:
    """The groups a command takes are the whole of what it offers of them; the four
    match commands take the match group, the three that fill a results file the
    execution group too."""
    taken = {name: commands_groups(function) for name, function in _functions().items()}
    for name in MATCH_COMMANDS:
        assert MatchSettings in taken[name], name
    for name in RUN_COMMANDS:
        assert Execution in taken[name], name
    assert TournamentFormat in taken["tournament"] and CompareBounds in taken["compare"]
    assert CheckSettings in taken["check"] and Confinement in taken["replay"]
    assert LadderSettings in taken["serve"]
    for name, groups in taken.items():
        offered = set(options(name))
        for group in groups:
            missing = flags(group) - offered
            assert not missing, f"arena {name} takes {group.__name__} but lacks {missing}"


def test_every_field_of_the_commands_groups_is_an_option() -> None:
    """A field of the match, confinement or execution group with no option would be one
    the API has and the command line lacks."""
    for group in (MatchSettings, Confinement, Execution, TournamentFormat, CompareBounds,
                  CheckSettings):
        for item, kind in members(group):
            assert is_group(kind) or option_of(item) is not None, f"{group.__name__}.{item.name}"


# ---- the API's keyword groups ----------------------------------------------------------

API_GROUPS = {"play": [MatchSettings], "check": [CheckSettings, Confinement],
              "batch": [MatchSettings, Execution],
              "tournament": [MatchSettings, TournamentFormat, Execution],
              "compare": [MatchSettings, CompareBounds, Execution]}


def test_each_api_function_takes_the_groups_of_its_command() -> None:
    """The groups are parameters of their own (`match=MatchSettings(...)`), typed, and
    every field of each is a keyword the function takes too."""
    for function, groups in API_GROUPS.items():
        assert taken(getattr(api, function)) == groups, function
        assert {k for g in groups for k in keywords(g)} <= accepted(getattr(api, function))


def test_the_api_takes_each_groups_fields_as_keywords_and_refuses_another() -> None:
    """A misspelt option is Python's TypeError, before anything is played; every
    keyword of a group the function takes gets past that door."""
    calls = {"play": lambda **kw: api.play(["hunter"], progress=False, **kw),
             "check": lambda **kw: api.check("hunter", progress=False, **kw),
             "batch": lambda **kw: api.batch(["hunter"], progress=False, **kw),
             "tournament": lambda **kw: api.tournament(["hunter"], progress=False, **kw),
             "compare": lambda **kw: api.compare("hunter", "beeline", progress=False, **kw)}
    for name, call in calls.items():
        with pytest.raises(TypeError, match=rf"{name}\(\) got an unexpected keyword "
                                            r"argument 'max_turn'"):
            call(max_turn=5)
        with pytest.raises(TypeError, match="'workerz'"):
            call(workerz=1)


def test_the_python_api_page_names_every_keyword_of_every_group() -> None:
    """The groups are the API's documented keywords: docs/python-api.md names each
    group a function takes and each of its keywords."""
    page = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    for function, groups in API_GROUPS.items():
        signature = inspect.signature(getattr(api, function))
        assert any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()), function
        for group in groups:
            assert group.__name__ in page, group.__name__
            for keyword in keywords(group):
                assert f"`{keyword}`" in page, f"{group.__name__}: {keyword}"
    assert set(GROUPS.values()) >= {g for groups in API_GROUPS.values() for g in groups}


# ---- no long parameter lists -----------------------------------------------------------

MAX_PARAMETERS = 8
PACKAGES = ("orchestrator", "sandbox", "engine")


def public_functions() -> dict[str, object]:
    """Every public function and method of the three packages, by its dotted name: a
    module, class or function whose name starts with `_` is private (a class's own
    `__init__` is public). A dataclass's generated `__init__` is a record's fields, not
    a parameter list someone wrote; a typer command counts as written (`grouped` offers
    each group it takes as that group's options)."""
    found: dict[str, object] = {}
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            if any(part.startswith("_") for part in info.name.split(".")):
                continue
            try:
                module = importlib.import_module(info.name)
            except ImportError:            # an optional extra's module (rgkit, fastapi)
                continue
            for name, value in vars(module).items():
                if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
                    continue
                if inspect.isfunction(value):
                    found[f"{info.name}.{name}"] = value
                elif inspect.isclass(value):
                    for attribute, member in vars(value).items():
                        if attribute.startswith("_") and attribute != "__init__":
                            continue
                        if isinstance(member, (staticmethod, classmethod)):
                            member = member.__func__
                        if inspect.isfunction(member):
                            found[f"{info.name}.{name}.{attribute}"] = member
    return found


def parameters(function: object) -> list[str]:
    """The parameters a function takes as written, `self` and `cls` and the `*args` and
    `**options` aside."""
    written = inspect.unwrap(function)           # type: ignore[arg-type]
    return [p.name for p in inspect.signature(written, follow_wrapped=False).parameters.values()
            if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL,
                                                                 p.VAR_KEYWORD)]


def generated(function: object) -> bool:
    return getattr(getattr(function, "__code__", None), "co_filename", "") == "<string>"


# Functions still allowed a longer list, while they wait for their group (none now). Each
# must still be long: one made short leaves this list.
NOT_YET: set[str] = set()


def test_no_public_function_takes_more_than_eight_parameters() -> None:
    found = {name: len(parameters(f)) for name, f in public_functions().items()
             if not generated(f)}
    assert len(found) > 500 and "orchestrator.api.compare" in found
    assert all(found[name] > MAX_PARAMETERS for name in NOT_YET), "shorten NOT_YET"
    long = sorted(f"{name}: {count} parameters" for name, count in found.items()
                  if count > MAX_PARAMETERS and name not in NOT_YET)
    assert not long, ("take an option group (orchestrator/options/) or a settings "
                      "dataclass:\n" + "\n".join(long))


def test_the_count_reads_a_command_as_written_and_skips_a_records_init() -> None:
    from orchestrator.cli.run import run

    assert parameters(run) == ["bots", "seed", "match", "replay_file", "open_viewer", "start",
                               "turns", "as_json"]
    assert len(inspect.signature(run).parameters) > MAX_PARAMETERS   # what typer reads
    assert generated(MatchSettings.__init__)
    assert dataclasses.is_dataclass(LadderSettings)
