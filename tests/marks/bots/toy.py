"""A toy bot thinking aloud (`import marks`): a note, a dot where it stands, a line to the
first coin."""
import marks

name = "toythinker"


def step(view):
    x, y = view["me"]
    marks.note(f"at {x},{y}, {len(view['coins'])} coins left")
    marks.dot((x, y), "white")
    if view["coins"]:
        marks.line((x, y), tuple(view["coins"][0]), "green")
    return "E"
