"""Debug marks and notes, for any Python bot of any game: `import marks`, then
`marks.note(text)`, `marks.dot(square, "red")`, `marks.line(square, square, "blue")`.
Squares are named as the game's bots name them (docs/contestant-loop.md, "Marks and
notes"); colours are those of `marks.PALETTE`. Only the bot's owner sees them."""
from _marks import PALETTE, dot, line, note

__all__ = ["PALETTE", "dot", "line", "note"]
