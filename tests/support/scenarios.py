"""A scenario's expectations, checked against the state it ended in."""
from __future__ import annotations


def check_expected(state: dict, expect: dict, pieces: str, whole: tuple[str, ...]) -> None:
    """A scenario's `expect` block against the state it ended in: the `whole` keys exactly,
    and of each listed piece (`robots`, `bots`) by id, only the fields it names."""
    for key in whole:
        if key in expect:
            assert state[key] == expect[key], f"{key}: {state[key]!r} != {expect[key]!r}"
    by_id = {piece["id"]: piece for piece in state[pieces]}
    for pid, fields in expect.get(pieces, {}).items():
        got = {k: by_id[pid][k] for k in fields}
        assert got == fields, f"{pieces} {pid}: {got} != {fields}"
