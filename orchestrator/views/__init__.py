"""Rendering only, for people: a replay in the terminal or as a page (`replay.py`, the
pages' assets in `viewer/`), the board helpers a game's `terminal.py` draws with
(`board.py`), the plain view of a game without one (`plain.py`), a comparison's verdict
(`compare.py`), who beats whom (`matchups.py`), the matrix page, a turn's changes
(`turn_report.py`). Every bot-supplied string is shown as text.

May import results, replay and games (tests/test_layers.py, MAY_IMPORT); never the
service above it.
"""
