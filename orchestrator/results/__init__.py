"""What matches leave behind, and what is reckoned from it: a match's result, typed
(`match_result.py`, from the match loop to the store and `--json`), the results store
(`store.py`), summaries and stats (`summary.py`, `stats.py`), ratings (`ratings.py`), the
sequential tests of `arena compare` (`sprt.py`, `betting.py`), and the words of every
penalty and a player's note (`penalties.py`, `notes.py`).

May import games (tests/test_layers.py, MAY_IMPORT).
"""
