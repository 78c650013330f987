"""A seeded mutator of JSON-like samples, for the fuzz tests of the doors: every
format read from a bot, a jail or a file is fed the project's own samples, changed in the
ways an attacker changes them, and must give its value or its one refusal.

`mutants(sample, seed, count)` yields `count` changed copies of `sample` (each shares
with it what it did not change: a reader must not change what it reads). Each copy has 1 to
3 changes, each at a node of the sample picked at random: a value replaced by a hostile
one (NaN, Infinity, out-of-range numbers, Unicode digits, bool for int, oversized text,
deep nesting, another type), a key dropped, added or respelled (Unicode digits, leading
zeros), a list cut, doubled or grown. `text_mutants` changes the JSON text instead, where
the decoder is the door (NaN, a cut, a digit respelled). The same seed gives the same
mutants, on every machine.
"""
from __future__ import annotations

import json
import random
from typing import Any, Iterator

DEEP = "\x00deep\x00"            # a marker `as_json` writes as nesting past any reader's cap
BIG = 1 << 20                    # characters of an oversized string

# Spellings of numbers a reader must not take for the number.
DIGIT_SPELLINGS = ["²", "٠", "٢", "１", "𝟎", "00", "01", " 0", "0 ", "+0", "-0", "0_0", "1e3",
                   "0x1", "NaN", "Infinity", "-1", "99999999999999999999999"]
HOSTILE = [float("nan"), float("inf"), float("-inf"), -0.0, 1.5, 1e308,
           2**31, 2**53 + 1, 2**63, 2**64, 10**40, -1, -2**63 - 1, -10**40,
           True, False, None, 0, 1, "", "x", "\x00", "\x1b[31m", "\u202e", "\ud800",
           [], {}, [None], {"": None}, [[[]]], *DIGIT_SPELLINGS]
# Values past every reader's bounds, made once and shared by the mutants that hold them.
OVERSIZED = ["a" * BIG, "٠" * (BIG // 4), [0] * 200_000, {str(i): i for i in range(50_000)}]


def _nodes(value: Any, path: tuple[Any, ...], found: list[tuple[Any, ...]],
           most: int) -> None:
    found.append(path)
    if len(found) >= most:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _nodes(item, (*path, key), found, most)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _nodes(item, (*path, i), found, most)


def nodes(sample: Any, most: int = 200_000) -> list[tuple[Any, ...]]:
    """The paths to every node of `sample` (up to `most`), the root's `()` first."""
    found: list[tuple[Any, ...]] = []
    _nodes(sample, (), found, most)
    return found


def deep(depth: int) -> Any:
    """A list nested `depth` deep, as a Python value (for in-process doors)."""
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def _other_type(value: Any, rng: random.Random) -> Any:
    """A value of another type that looks like `value`: its text, its number, its
    container of the other kind, bool for int."""
    if type(value) is bool:
        return int(value)
    if type(value) is int:
        return rng.choice([str(value), float(value), value == 1, bool(value), [value],
                           value + 2**40, -value - 1, value * 10**20])
    if type(value) is float:
        return rng.choice([str(value), int(value) if value == value and abs(value) < 1e300
                           else 0, [value]])
    if type(value) is str:
        digits = [c for c in value if c.isdigit()]
        if digits and rng.random() < 0.5:
            return value.replace(digits[0], rng.choice(["²", "٠", "１", "𝟎"]), 1)
        return rng.choice([len(value), [value], {value: value},
                           value.encode("utf-8", "surrogatepass").hex()])
    if isinstance(value, list):
        return rng.choice([dict(enumerate(value)), {str(i): v for i, v in enumerate(value)},
                           tuple(value) and list(value)[:1], len(value)])
    if isinstance(value, dict):
        return rng.choice([list(value.values()), list(value), len(value)])
    return rng.choice(HOSTILE)


def _respelled(key: Any, rng: random.Random) -> Any:
    """Another spelling of a dict key: a number's in another script or with a zero in
    front, or a name's with a letter changed."""
    if isinstance(key, str) and key.isascii() and key.isdigit():
        return rng.choice([key.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")),
                           key.translate(str.maketrans("0123456789", "０１２３４５６７８９")),
                           "0" + key, f" {key}", f"+{key}", key + "\u0660",
                           "²" if key == "2" else key + "²", int(key)])
    if isinstance(key, str) and key:
        return rng.choice([key.upper(), key + "²", key[:-1], key + " ", key + "\x00"])
    return rng.choice(DIGIT_SPELLINGS)


def _changed(value: Any, rng: random.Random, oversize: bool) -> Any:
    """One change to the value at a node (the node's own new value)."""
    roll = rng.random()
    if roll < 0.30:
        return rng.choice(HOSTILE)
    if roll < 0.55:
        return _other_type(value, rng)
    if roll < 0.60:
        return rng.choice([DEEP, deep(rng.choice([40, 200, 3000]))])
    if roll < 0.61 and oversize:
        return rng.choice(OVERSIZED)
    if isinstance(value, dict):
        copy = dict(value)
        if copy and rng.random() < 0.4:
            del copy[rng.choice(list(copy))]
        elif copy and rng.random() < 0.5:
            key = rng.choice(list(copy))
            copy[_respelled(key, rng)] = copy.pop(key)
        else:
            copy[rng.choice([*DIGIT_SPELLINGS, "extra", "0", "1", "__proto__"])] = \
                rng.choice(HOSTILE + ([rng.choice(list(value.values()))] if value else []))
        return copy
    if isinstance(value, list):
        copy = list(value)
        kind = rng.random()
        if copy and kind < 0.3:
            del copy[rng.randrange(len(copy))]
        elif copy and kind < 0.5:
            copy.insert(rng.randrange(len(copy) + 1), rng.choice(copy))
        elif copy and kind < 0.6:
            copy = copy * rng.choice([2, 50, 1000 if len(copy) < 10 else 3])
        elif kind < 0.75:
            copy = copy[:rng.randrange(len(copy) + 1)]
        else:
            copy.append(rng.choice(HOSTILE))
        return copy
    if isinstance(value, str):
        return rng.choice([value + rng.choice(DIGIT_SPELLINGS), value[:len(value) // 2],
                           value * 3, value + "\u202e\x1b]52;c;aGk=\x07"])
    if type(value) is int:
        return rng.choice([value + 1, value - 1, -value, value * 1000, value + 2**62])
    return _other_type(value, rng)


def _put(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    """`root` with the node at `path` replaced by `value`: the containers along the path
    copied, all else shared. The root itself unchanged where the path no longer leads."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(root, dict) and head in root:
        return {**root, head: _put(root[head], rest, value)}
    if isinstance(root, list) and isinstance(head, int) and head < len(root):
        copy = list(root)
        copy[head] = _put(root[head], rest, value)
        return copy
    return root


def _get(root: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        if isinstance(root, dict) and step in root or \
                isinstance(root, list) and isinstance(step, int) and step < len(root):
            root = root[step]
        else:
            return None
    return root


def mutants(sample: Any, seed: int, count: int, oversize: bool = True) -> Iterator[Any]:
    """`count` mutants of `sample`, the same for the same seed."""
    rng = random.Random(seed)
    paths = nodes(sample)
    for _ in range(count):
        value = sample
        for _ in range(rng.choice([1, 1, 2, 3])):
            # the leaves are most of the nodes: a container is picked as often as a leaf
            path = rng.choice(paths)
            if rng.random() < 0.3 and len(path) > 1:
                path = path[:rng.randrange(1, len(path))]
            value = _put(value, path, _changed(_get(value, path), rng, oversize))
        yield value


def as_json(value: Any) -> bytes:
    """`value` as JSON text, NaN and Infinity as Python writes them, the DEEP marker as
    5,000 nested lists; a key JSON cannot hold (a tuple) as its text."""
    def key(k: Any) -> Any:
        return k if isinstance(k, (str, int, float, bool)) or k is None else str(k)

    def plain(v: Any) -> Any:
        if isinstance(v, dict):
            return {key(k): plain(item) for k, item in v.items()}
        if isinstance(v, (list, tuple)):
            return [plain(item) for item in v]
        return v.decode("latin-1") if isinstance(v, bytes) else v

    try:
        text = json.dumps(value, separators=(",", ":"))
    except TypeError:                   # a key JSON cannot hold
        text = json.dumps(plain(value), separators=(",", ":"))
    except (RecursionError, ValueError):
        text = json.dumps("too deep to write")
    return text.replace(json.dumps(DEEP), "[" * 5000 + "]" * 5000).encode("utf-8",
                                                                         "surrogatepass")


def text_mutants(text: bytes, seed: int, count: int) -> Iterator[bytes]:
    """`count` changes of the JSON `text` itself: a byte changed or dropped, the text cut,
    a digit respelled, NaN or a huge number put in place of a number."""
    rng = random.Random(seed)
    for _ in range(count):
        data = bytearray(text)
        for _ in range(rng.choice([1, 2])):
            where = rng.randrange(len(data) + 1)
            kind = rng.random()
            if kind < 0.2:
                data[where:where + 1] = bytes([rng.randrange(256)])
            elif kind < 0.35:
                del data[where:where + rng.randrange(1, 40)]
            elif kind < 0.45:
                del data[where:]
            elif kind < 0.7:
                digits = [i for i in range(max(0, where - 200), min(len(data), where + 200))
                          if 48 <= data[i] <= 57]
                if digits:
                    i = rng.choice(digits)
                    data[i:i + 1] = rng.choice(["²", "٠", "１", "NaN", "Infinity", "-0",
                                                "1e999", "9" * 400, "00"]).encode()
            else:
                data[where:where] = rng.choice([b"NaN", b"-Infinity", b"1e400", b"[" * 100,
                                                b'"\\ud800"', b"\xff", b",", b"}"])
        yield bytes(data)
