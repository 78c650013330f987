"""The replay: the file a match writes and the frames it is watched by (`file.py`), its
bounded, checked reader (`reader.py`), and position files (`position.py`).

May import games (tests/test_layers.py, MAY_IMPORT).
"""
