"""The table of the numbers a user gives (orchestrator/arguments.py): each row takes its
range and nothing else, and says so in one line that names the flag and the value."""
from __future__ import annotations

import math

import pytest

from engine import InputError
from orchestrator.arguments import ARGUMENTS, SEED_MAX, check, check_span, shown_value

ROWS = sorted(ARGUMENTS)


@pytest.mark.parametrize("name", ROWS)
def test_the_example_and_both_ends_fit(name: str) -> None:
    row = ARGUMENTS[name]
    check(**{name: row.example})
    if not row.low_open:
        check(**{name: int(row.low) if row.whole else row.low})
    if not row.high_open:
        check(**{name: int(row.high) if row.whole else row.high})


@pytest.mark.parametrize("name", ROWS)
def test_just_outside_the_range_is_refused_with_the_rule(name: str) -> None:
    row = ARGUMENTS[name]
    step = 1 if row.whole else 1e-9 * max(1.0, abs(row.high))
    outside = [row.low - (0 if row.low_open else step), row.high + (0 if row.high_open else
                                                                    step)]
    for value in outside:
        value = int(value) if row.whole else float(value)
        with pytest.raises(InputError) as refused:
            check(**{name: value})
        said = str(refused.value)
        assert said == f"{row.flag} {shown_value(value)}: must be {row.rule()}", said


@pytest.mark.parametrize("name", ROWS)
@pytest.mark.parametrize("value", [True, "3", None.__class__, [1], math.nan, math.inf],
                         ids=["bool", "text", "type", "list", "nan", "inf"])
def test_what_is_not_a_number_of_its_kind_is_refused(name: str, value: object) -> None:
    row = ARGUMENTS[name]
    with pytest.raises(InputError, match=f"^{row.flag} .*: must be {row.rule()}$"):
        check(**{name: value})


@pytest.mark.parametrize("name", [n for n in ROWS if ARGUMENTS[n].whole])
def test_a_whole_number_refuses_a_float_even_a_round_one(name: str) -> None:
    with pytest.raises(InputError, match="must be a whole number"):
        check(**{name: float(ARGUMENTS[name].example)})


def test_none_is_the_default_and_is_not_checked() -> None:
    check(**{name: None for name in ROWS})


def test_the_first_bad_value_is_the_one_named() -> None:
    with pytest.raises(InputError, match=r"^--robots 0:"):
        check(seed=1, robots=0, workers=0)


@pytest.mark.parametrize("value, shown", [
    (10 ** 400, "(a 1329-bit integer)"), (0.0, "0"), (0, "0"), (2.5, "2.5"),
    ("x" * 100, repr("x" * 100)[:37] + "..."), ("a\nb", "'a\\nb'")])
def test_a_value_is_shown_short_and_on_one_line(value: object, shown: str) -> None:
    assert shown_value(value) == shown


def test_the_rule_words() -> None:
    assert ARGUMENTS["cpu_limit"].rule() == "a number greater than 0 and at most 3600 seconds"
    assert ARGUMENTS["alpha"].rule() == "a number between 0 and 0.5, both excluded"
    assert ARGUMENTS["seed"].rule() == f"a whole number from 0 to {SEED_MAX}"


def test_a_run_s_seeds_must_all_fit_a_seed() -> None:
    check_span(SEED_MAX - 9, 10)
    with pytest.raises(InputError) as refused:
        check_span(SEED_MAX - 9, 11)
    assert str(refused.value) == (
        f"--first-seed {SEED_MAX - 9}: the run's seeds would go past {SEED_MAX}, the largest "
        f"seed (at most {SEED_MAX - 10} for 11 seeds)")
