"""The ladder server (`arena serve`): contestants upload bots, the bots play each other all
the time, and web pages show the ratings and replays.

- `store`: the ladder's tables, beside the results store's own;
- `matchmaking`: who plays next, as a pure function of the ladder's state and seed;
- `service`: the ladder itself: uploads, the match loop, ratings, suspensions;
- `app`: the HTTP API and the pages (FastAPI, Jinja2).
"""
