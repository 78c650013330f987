"""The front door: a README of one page that reaches a contestant's first bot early and
links onwards by role; LICENSE, CHANGELOG.md and CONTRIBUTING.md beside it; docs/ pages of
readable size, each listed by the index; every relative link resolving, anchor included;
and no ticket numbers of a tracker that does not ship. The README's first bots play."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support.paths import ROOT

README = ROOT / "README.md"
PAGES = [README, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md",
         *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
LINK = re.compile(r"\]\(([^)\s]+)\)")
# A tracker's numbers ("issue" or "issues" and a number, "#" and a number), outside URLs.
# (One digit after `#` is a name's number, as in `Hunter #2`.)
ISSUE = re.compile(r"\bissues?\s+#?\d+|(?<![\w/&#])#\d{2,}\b", re.I)
URL = re.compile(r"[a-z]+://\S+")


def fenced_blocks(text: str) -> list[tuple[int, str, str]]:
    """Each fenced code block: the line its fence opens on (1-based), its language, its body."""
    found = []
    for match in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.M | re.S):
        found.append((text.count("\n", 0, match.start()) + 1, match.group(1), match.group(2)))
    return found


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as
    hyphens."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor of a page (headings inside code blocks are not headings); a
    repeated heading's second anchor ends in -1, as GitHub numbers them."""
    seen: dict[str, int] = {}
    names = set()
    for line in FENCE.sub("", page.read_text(encoding="utf-8")).splitlines():
        if re.match(r"#{1,6} ", line):
            base = slug(line.lstrip("#"))
            count = seen.get(base, 0)
            seen[base] = count + 1
            names.add(base if count == 0 else f"{base}-{count}")
    return names


def test_the_readme_is_one_page_that_reaches_a_first_bot_early() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200, len(text.splitlines())
    bots = [line for line, lang, body in fenced_blocks(text)
            if lang == "python" and "def move(" in body]
    assert bots and bots[0] < 60, f"the first Robot Arena bot starts at line {bots}"
    roles = ["Contestant", "Game master", "CI", "Operator of the ladder", "Contributor"]
    for role in roles:
        assert re.search(rf"^- \*\*{role}\*\*: .*\]\(", text, re.M), role


def test_license_changelog_and_contributing_are_beside_it() -> None:
    for name in ("LICENSE", "CHANGELOG.md", "CONTRIBUTING.md"):
        assert (ROOT / name).is_file() and (ROOT / name).stat().st_size > 500, name
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]
    assert declared == "MIT", declared
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    contributing = (ROOT / "CONTRIBUTING.md").read_text()
    for named in ("make unit", "make test", "make lint", "make bench", "tests/test_layers.py",
                  "Adding a game", "Adding a runtime"):
        assert named in contributing, named
    assert "## [Unreleased]" in (ROOT / "CHANGELOG.md").read_text()


def test_no_page_of_docs_is_over_40_kb_and_the_index_lists_every_one() -> None:
    pages = sorted((ROOT / "docs").rglob("*.md"))
    big = {str(p.relative_to(ROOT)): p.stat().st_size for p in pages
           if p.stat().st_size > 40 * 1024}
    assert big == {}, big
    index = ROOT / "docs" / "index.md"
    listed = {(index.parent / target.split("#")[0]).resolve()
              for target in LINK.findall(index.read_text()) if "://" not in target}
    missing = [str(p.relative_to(ROOT)) for p in pages
               if p != index and p.resolve() not in listed]
    assert missing == [], f"docs/index.md does not list {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_tracker_numbers(page: Path) -> None:
    text = URL.sub("", page.read_text(encoding="utf-8"))
    found = [(text.count("\n", 0, m.start()) + 1, m.group()) for m in ISSUE.finditer(text)]
    assert found == [], f"{page.relative_to(ROOT)}: {found}"


def test_the_number_check_sees_what_it_should() -> None:
    for said in ("(issue 41)", "Issue 44's diet", "issues 43", "see #43", "(issue #7)"):
        assert ISSUE.search(said), said
    for fine in ("`Hunter #2`", "https://github.com/x/y/issues/620", "[a](#section-2)",
                 "colour #fff", "an issue of sizes"):
        assert not ISSUE.search(URL.sub("", fine)), fine


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_with_its_anchor(page: Path) -> None:
    """A link is read from the page's own folder, as a browser of the repository reads it."""
    broken = []
    for target in LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        if "://" in target or target.startswith("mailto:"):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or not file.is_relative_to(ROOT.resolve()):
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(target)
    assert broken == [], f"{page.relative_to(ROOT)}: {broken}"


def test_the_anchor_check_sees_what_it_should() -> None:
    arch = anchors(ROOT / "docs" / "architecture.md")
    assert "the-tree-a-folder-per-tier" in arch and "pyprojecttoml" not in arch
    assert slug("`--sandbox match`: whole matches in one jail") == \
        "--sandbox-match-whole-matches-in-one-jail"
    assert slug("The ladder's doors") == "the-ladders-doors"


# The README's first bots, by the game each is for: what its block shows, the file it is
# saved as (Cave's runtime comes from its #! line).
FIRST_BOTS = {"arena": ("def move(", "my_bot.py"), "robotgame": ("class Robot", "my_rgkit_bot.py"),
              "cave": ("#!/bin/sh", "my_bot"), "race": ("def bot(", "my_bot.py")}


@pytest.mark.parametrize("game", FIRST_BOTS)
def test_each_readme_bot_passes_the_check(game: str, tmp_path: Path) -> None:
    """Each game's first bot, copied from the README as a newcomer would, passes `arena
    check` in the sandbox."""
    shows, file = FIRST_BOTS[game]
    bodies = [body for _, lang, body in fenced_blocks(README.read_text())
              if lang in ("python", "sh") and shows in body]
    assert len(bodies) == 1, (game, bodies)
    bot = tmp_path / file
    bot.write_text(bodies[0])
    bot.chmod(0o755)
    done = subprocess.run([sys.executable, "-m", "orchestrator", "check", "--game", game,
                           file, "--once", "--turns", "20"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0 and done.stdout.startswith("ok:"), done.stdout + done.stderr
