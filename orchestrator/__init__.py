"""The `arena` command: runs matches of every game through the sandbox."""
