"""Robot Game: rgkit's rules (spec robotgame.md) on this project's engine protocol."""
