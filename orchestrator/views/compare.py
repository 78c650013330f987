"""How a comparison reads in the terminal: the verdict in words, the test's figures, and
a stored run by bot (`arena compare`, and `arena results DB --run ID` of a compare run)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from orchestrator.text import shown_text

out = Console()


def headline(report: dict, new: str, old: str) -> str:
    """The verdict in one sentence a contestant reads once."""
    verdict, unit = report["verdict"], "nElo" if report["model"] == "normalized" else "Elo"
    elo0, elo1 = report["elo0"], report["elo1"]
    if verdict == "identical":
        return (f"{new} and {old} are identical on {report['pairs']} pairs: they played "
                f"every game move for move alike (not an improvement)")
    if verdict == "undecided":
        return (f"undecided after {report['games']} games: --max-games ran out before "
                f"either test decided")
    if verdict == "H1":
        said = (f"{new} is not worse than {old} by {-elo0:g} {unit} or more" if elo0 < 0
                else f"{new} is better than {old}" + (f" by more than {elo0:g} {unit}"
                                                       if elo0 > 0 else ""))
        return f"{said} (H1 accepted)"
    if report["elo_ci"][1] < 0:
        said = f"{new} is worse than {old}: not an improvement"
    elif elo1 > 0:
        said = f"{new} is not better than {old} by {elo1:g} {unit} (H1's step) or more"
    else:
        said = f"{new} is worse than {old} by about {-elo0:g} {unit} or more"
    return f"{said} (H0 accepted)"


DECIDED_BY = {"gsprt": "the GSPRT (fishtest's test, sharpest near elo0 and elo1)",
              "betting": "the betting test of the mean score (any size of difference)",
              "moves": "the moves: every game of each pair was played alike"}


def print_record(report: dict, new: str, old: str) -> None:
    """A comparison by bot (`arena results DB --run ID` of a compare run): NEW's pairs
    won, drawn and lost against OLD, then the verdict and the estimate."""
    from orchestrator.results.sprt import pair_record

    record = pair_record(report["counts"])
    out.print(shown_text(f"{new} against {old}: {record['won']} pairs won, "
                         f"{record['drawn']} drawn, {record['lost']} lost"))
    print_report(report, new, old)


def print_report(report: dict, new: str, old: str) -> None:
    verdict = report["verdict"]
    out.print(shown_text(headline(report, new, old), style="bold"))
    table = Table(show_header=False, box=None)
    table.add_row("Elo", report["elo_shown"])
    if report["decided_by"]:
        table.add_row("decided by", DECIDED_BY[report["decided_by"]])
    lower, upper = report["bounds"]
    table.add_row("LLR", f"{report['llr']:+.3f}  (bounds {lower:+.3f}, {upper:+.3f}; "
                         f"{report['model']} elo0 {report['elo0']:g}, elo1 "
                         f"{report['elo1']:g}, alpha {report['alpha']:g}, beta "
                         f"{report['beta']:g})")
    up, down = report["log_wealth"]
    table.add_row("betting", f"log-wealth {up:+.2f} against H0, {down:+.2f} against H1 "
                             f"(decides at {report['wealth_bounds'][0]:.2f}, "
                             f"{report['wealth_bounds'][1]:.2f})")
    played = f"{report['games']} counted in {report['pairs']} pairs"
    if verdict != "undecided" and report["uncounted"]:
        played += f"; {report['uncounted']} more played past the verdict, not counted"
    table.add_row("games", played)
    names = ("0", "½", "1", "1½", "2") if len(report["counts"]) == 5 else (
        "worse", "as well", "better")
    label = "pair points" if len(report["counts"]) == 5 else "new finished"
    if report.get("design") == "pool":           # NEW's points less OLD's, same opponent
        names, label = ("-1", "-½", "0", "+½", "+1"), "new's points less old's"
    table.add_row(label, ", ".join(f"{n}: {c}" for n, c in zip(names, report["counts"],
                                                               strict=True)))
    table.add_row("results", shown_text(report["db"]))
    if report.get("sandbox"):
        table.add_row("sandbox", shown_text(report["sandbox"]))   # a results file's: text
    table.add_row("exit status", f"{report['exit_status']} ({report['exit_meaning']})")
    out.print(table)
    if "nElo" in report["elo_shown"]:
        out.print("[dim]nElo: normalized Elo, the mean score's distance from ½ in standard "
                  "deviations of a game's score, times 800/ln 10 (the unit of --elo0 and "
                  "--elo1 under --model normalized)[/dim]")
