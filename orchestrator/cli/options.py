"""The option groups (orchestrator/options/) as typer options: a command takes the groups
it needs as parameters and `grouped` offers their options; and the options a few commands
share outside any group (`--json`)."""
from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Annotated, Any, Callable

import typer

from engine import InputError
from orchestrator.assets import CHECKOUT
from orchestrator.options import build, is_group, members, option_of


def missing_server_extra(command: str, exc: ImportError) -> InputError:
    """The error for a command whose web stack is not installed (`arena serve`, `maps
    edit`), with the install line that works here: the package is not on PyPI, so in a
    checkout it is the checkout's own extra, elsewhere the wheel's."""
    if (CHECKOUT / "pyproject.toml").is_file():
        pip = Path(sys.prefix) / "bin" / "pip"
        how = f"{pip} install -e '{CHECKOUT}[server]'"
    else:
        from importlib.metadata import version  # noqa: PLC0415  (an error path: 15 ms)
        how = (f"pip install 'robot_arena-{version('robot-arena')}-py3-none-any.whl[server]' "
               f"(the wheel this came from, with its server extra)")
    return InputError(f"{command} needs the server extra ({exc.name} is missing): {how}")


def grouped(command: Callable[..., None]) -> Callable[..., None]:
    """A typer command whose parameters typed as an option group (orchestrator/options/)
    are offered as that group's options, each with the flag and help its field declares
    (a nested group's too), in the group's place; the command is called with the group
    built from them. So a command that takes a group offers all of its options, as every
    sibling that takes it does, and `commands_groups` can say which groups it takes."""
    signature = inspect.signature(command, eval_str=True)
    groups = {p.name: p.annotation for p in signature.parameters.values()
              if is_group(p.annotation)}
    parameters: list[inspect.Parameter] = []
    for parameter in signature.parameters.values():
        if parameter.name in groups:
            parameters += _offered(parameter.annotation)
        else:
            parameters.append(parameter)

    def adapter(**given: Any) -> None:
        for name, group in groups.items():
            given[name] = build(group, given)
        command(**given)

    adapter.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    adapter.__name__, adapter.__qualname__ = command.__name__, command.__qualname__
    adapter.__doc__, adapter.__module__ = command.__doc__, command.__module__
    adapter.groups = tuple(groups.values())  # type: ignore[attr-defined]
    adapter.__wrapped__ = command  # type: ignore[attr-defined]  # the command as written
    adapter.__annotations__ = {}        # typer reads its types from the signature above
    return adapter


def _offered(group: type) -> list[inspect.Parameter]:
    """A group's options as a command's parameters, in the order its fields are declared."""
    found = []
    for item, kind in members(group):
        if is_group(kind):
            found += _offered(kind)
            continue
        flag = option_of(item)
        if flag is None:
            continue
        found.append(inspect.Parameter(
            item.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=item.default,
            annotation=Annotated[kind, typer.Option(*flag.names, help=flag.text(),
                                                    show_default=flag.show_default)]))
    return found


def one_option(group: type, name: str, help: str | None = None) -> Any:
    """One field of a group as a command's option (its default, flag and help), for a
    command that takes that field alone (`arena check --cpu-limit`), with its own help
    where it means something more there."""
    [item] = [f for f, _ in members(group) if f.name == name]
    flag = option_of(item)
    assert flag is not None, f"{group.__name__}.{name} is offered by no command"
    return typer.Option(item.default, *flag.names, help=help or flag.text(),
                        show_default=flag.show_default)


def commands_groups(command: Callable[..., Any]) -> tuple[type, ...]:
    """The option groups a command takes (`grouped`)."""
    return getattr(command, "groups", ())


JsonOption = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object.")]
