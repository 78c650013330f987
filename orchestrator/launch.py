"""The `arena` entry point: warms the sandbox up while the command's modules import.

`arena run` and `arena check` each need the sandbox's zygote (a fresh interpreter that
forks the children). Started first, it boots on the other core while this process
imports typer, rich, the engines and numpy, instead of after them.
"""
import sys

WARM_COMMANDS = ("run", "check")
WARM_TIERS = ("standard", "strict")     # off runs in-process; bwrap starts its own


def wants_zygote(args: list[str]) -> bool:
    """Whether this command line will start sandbox children through the zygote."""
    if not args or args[0] not in WARM_COMMANDS or "--help" in args:
        return False
    tier = "standard"
    for i, arg in enumerate(args):
        if arg == "--sandbox" and i + 1 < len(args):
            tier = args[i + 1]
        elif arg.startswith("--sandbox="):
            tier = arg.partition("=")[2]
    return tier in WARM_TIERS


def main() -> None:
    if wants_zygote(sys.argv[1:]):
        from sandbox.zygote import prestart
        prestart()
    from orchestrator.cli import main as cli_main
    cli_main()
