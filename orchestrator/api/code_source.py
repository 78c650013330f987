"""The source text of a function or class given as a bot: the definition that made that
very object, found by its code objects and checked by compiling it, never by its name.

`inspect.getsource` finds a class by name, so an earlier definition of the same name (say
under `if False:`) is what it returns; a function's code can also come from text other
than the lines its code names (its file changed, or `compile(text, "bots.py", ...)`).
Here the definition is the one whose lines the object's code objects start at, and its
text must compile to that code, or the object is refused with the reason.
"""
from __future__ import annotations
import __future__

import ast
import inspect
import linecache
import sys
import textwrap
from dataclasses import dataclass
from types import CodeType
from typing import Any, Callable, Iterator

from engine import InputError

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
_CO_NESTED = inspect.CO_NESTED       # set for code compiled inside a function: not its text
# The __future__ features that change what a text compiles to (in 3.11: annotations).
_FUTURES = {name: getattr(__future__, name).compiler_flag
            for name in ("annotations", "barry_as_FLUFL")}


class _Miss(str):
    """Why a file holds no definition of the object (a reason, not a text)."""


@dataclass(frozen=True)
class Definition:
    """A definition's dedented text and the `__future__` features it was compiled with
    (a file of it must start with them to compile to the same code)."""

    text: str
    futures: tuple[str, ...]


def definition(obj: Callable | type) -> Definition:
    """The text that defines `obj` (a function or class) and compiles to its code, or an
    InputError saying why there is none."""
    label = getattr(obj, "__qualname__", repr(obj))
    codes = [obj.__code__] if inspect.isfunction(obj) else own_codes(obj)  # type: ignore[arg-type]  # not a function: a class
    flags = codes[0].co_flags if codes else 0
    futures = tuple(name for name, flag in _FUTURES.items() if flags & flag)
    compile_flags = sum(_FUTURES[name] for name in futures)
    why = None
    for filename, module_globals in _files(obj, codes):
        lines = linecache.getlines(filename, module_globals)
        found = _find(obj, codes, filename, lines, compile_flags)
        if isinstance(found, _Miss):            # its cached lines may be stale: re-read
            linecache.checkcache(filename)
            fresh = linecache.getlines(filename, module_globals)
            if fresh != lines:
                lines, found = fresh, _find(obj, codes, filename, fresh, compile_flags)
        if not isinstance(found, _Miss):
            return Definition(found, futures)
        if lines and why is None:
            why = found
    if why is None:
        raise InputError(f"{label}: its source cannot be found (define it in a file or a "
                         f"notebook cell, not with exec or at an interactive prompt)")
    raise InputError(f"{label}: {why}, so its source would not be the code passed")


def own_codes(cls: type) -> list[CodeType]:
    """The code of the functions in a class's own namespace: methods, static and class
    methods, a property's accessors."""
    return [fn.__code__ for value in vars(cls).values() for fn in _functions(value)]


def _functions(value: Any) -> list[Callable]:
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        return [f for f in (value.fget, value.fset, value.fdel) if inspect.isfunction(f)]
    return [value] if inspect.isfunction(value) else []


def _files(obj: Any, codes: list[CodeType]) -> Iterator[tuple[str, dict | None]]:
    """The files the definition may be in, with the module globals linecache needs for a
    module loaded from elsewhere than a plain file: its code's files (a notebook cell's
    is the one IPython put in linecache), then its module's file (a class)."""
    module = sys.modules.get(getattr(obj, "__module__", None) or "")
    module_globals = getattr(module, "__dict__", None)
    seen = []
    for code in codes:
        if code.co_filename not in seen:
            seen.append(code.co_filename)
    module_file = getattr(module, "__file__", None)
    if module_file and module_file not in seen:
        seen.append(module_file)
    for filename in seen:
        yield filename, module_globals


def _find(obj: Any, codes: list[CodeType], filename: str, lines: list[str],
          flags: int) -> str | _Miss:
    """The dedented text of the definition in `lines` that made `obj` and compiles to its
    code, or why there is none."""
    changed = "its file changed after it was defined, or its code came from other text"
    try:
        tree = ast.parse("".join(lines), filename)
    except (SyntaxError, ValueError):
        return _Miss(f"{filename} does not parse as Python ({changed})")
    named = [node for node in _definitions(tree) if node.name == obj.__name__
             and isinstance(node, ast.ClassDef) == inspect.isclass(obj)]
    starts = {code.co_firstlineno for code in codes if code.co_filename == filename}
    if inspect.isfunction(obj):
        located = [node for node in named if _start(node) in starts]
        missing = f"no definition of it starts at {filename}:{min(starts, default=0)} " \
                  f"({changed})"
    else:
        located = [node for node in named
                   if starts & {_start(item) for item in _body_defs(node)}]
        if not located and len(named) == 1:    # defined once: its name tells which
            located = named
        missing = f"no definition of it in {filename} holds its methods ({changed})"
        if not starts:
            missing = f"it is defined {len(named)} times in {filename} and has no " \
                      f"methods of its own to tell which one it is (give each a name of " \
                      f"its own)" if named else f"no definition of it is in {filename}"
    if len(located) != 1:
        return _Miss(missing)
    node = located[0]
    at = f"its definition at {filename}:{_start(node)}"
    text = textwrap.dedent("".join(lines[_start(node) - 1:node.end_lineno]))
    # The file's module-level imports, compiled (never run) ahead of the text: CPython
    # compiles `math.floor()` differently where `math` is a module-level import of the
    # same file, so without them a bot that calls a module imported in its own file would
    # not compile to its code. The text written for the sandbox stays the definition.
    header = _module_imports(tree)
    try:
        module = compile(header + text, filename, "exec", flags=flags, dont_inherit=True)
    except (SyntaxError, ValueError):
        return _Miss(f"{at} does not compile on its own")
    made = [c for c in module.co_consts if isinstance(c, CodeType) and c.co_name == node.name]
    if len(made) != 1:
        return _Miss(f"{at} does not compile on its own")
    if inspect.isfunction(obj):
        return text if _same(made[0], obj.__code__) else \
            _Miss(f"{at} does not compile to the code it runs ({changed})")
    replaced = _unlike_methods(obj, node, made[0], filename, header.count("\n"))
    if replaced:
        return _Miss(f"its method {replaced} is not the one {at} makes (the file changed "
                     f"after it was defined, or the method was replaced after the class was "
                     f"made)")
    return text


def _module_imports(tree: ast.Module) -> str:
    """The import statements of a module's own scope (also under its `if` and `try`, not
    inside its functions or classes), one per line, `__future__` ones left out."""
    found: list[str] = []
    blocks: list[list[ast.AST]] = [list(tree.body)]
    while blocks:
        for item in blocks.pop(0):
            if isinstance(item, (ast.Import, ast.ImportFrom)):
                if not (isinstance(item, ast.ImportFrom) and item.module == "__future__"):
                    found.append(ast.unparse(item) + "\n")
            elif not isinstance(item, (*_DEFS, ast.Lambda)):
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    inner = getattr(item, field, None)
                    if isinstance(inner, list):
                        blocks.append([i for i in inner if isinstance(i, ast.AST)])
    return "".join(found)


def _definitions(tree: ast.AST) -> Iterator[_Def]:
    for node in ast.walk(tree):
        if isinstance(node, _DEFS):
            yield node


def _start(node: _Def) -> int:
    """A definition's first line: its first decorator's, as its code's co_firstlineno."""
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def _body_defs(node: _Def) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions a class body defines, also under its `if`, `try`, `with` and loops
    (not inside its functions or nested classes)."""
    blocks: list[list[ast.AST]] = [list(node.body)]
    while blocks:
        for item in blocks.pop():
            if isinstance(item, _FUNCS):
                yield item
            elif not isinstance(item, ast.ClassDef):
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    inner = getattr(item, field, None)
                    if isinstance(inner, list):
                        blocks.append([i for i in inner if isinstance(i, ast.AST)])


def _unlike_methods(cls: type, node: _Def, body: CodeType, filename: str,
                    header: int = 0) -> str | None:
    """The name of a method of the class that is not the code its definition makes: one
    whose lines in the definition compile to other code, or one the body defines that was
    replaced afterwards by code from elsewhere. None when every one matches."""
    start, end = _start(node), node.end_lineno or 0
    compiled = {(c.co_name, c.co_firstlineno - header + start - 1): c
                for c in _nested(body)}

    def inside(code: CodeType) -> bool:
        return code.co_filename == filename and start <= code.co_firstlineno <= end

    for attr, value in vars(cls).items():
        for code in (fn.__code__ for fn in _functions(value)):
            if inside(code):
                made = compiled.get((code.co_name, code.co_firstlineno))
                if made is None or not _same(made, code):
                    return attr
    for item in _body_defs(node):
        attr = _mangled(cls, item.name)
        live = [fn.__code__ for fn in _functions(vars(cls).get(attr))]
        if live and not any(inside(code) for code in live):
            return attr
    return None


def _nested(code: CodeType) -> Iterator[CodeType]:
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield const
            yield from _nested(const)


def _mangled(cls: type, name: str) -> str:
    """The attribute a class body's `name` is stored as (`__x` becomes `_Class__x`)."""
    if name.startswith("__") and not name.endswith("__"):
        return f"_{cls.__name__.lstrip('_')}{name}"
    return name


def _same(a: CodeType, b: CodeType) -> bool:
    """Whether two code objects run the same: bytecode, names, constants (nested code
    compared the same way), arguments and flags; not their file or line numbers."""
    fields = ("co_code", "co_names", "co_varnames", "co_freevars", "co_cellvars",
              "co_argcount", "co_posonlyargcount", "co_kwonlyargcount",
              "co_exceptiontable", "co_name")
    if any(getattr(a, f, None) != getattr(b, f, None) for f in fields):
        return False
    if (a.co_flags ^ b.co_flags) & ~_CO_NESTED:      # a class made inside a function
        return False
    return _same_const(a.co_consts, b.co_consts)


def _same_const(x: Any, y: Any) -> bool:
    if type(x) is not type(y):
        return False
    if isinstance(x, CodeType):
        return _same(x, y)
    if isinstance(x, tuple):
        return len(x) == len(y) and all(_same_const(p, q) for p, q in zip(x, y, strict=True))
    if isinstance(x, (float, complex)):
        return repr(x) == repr(y)              # 0.0 is not -0.0; nan is nan
    return x == y
