"""What runs behind a web server: the ladder (`ladder/`, `arena serve`), the map editor
(`map_editor.py` and its page in `editor/`, `arena maps edit`) and the guard both put in
front of their routes (`guard.py`: hosts, origins, bodies).

May import the service and below, and the views (tests/test_layers.py, MAY_IMPORT).
"""
