"""A bot that floods marks and notes: thousands of each, every act, long notes, every
colour; it plays as the example robot does."""
import rg

COLOURS = ["red", "green", "blue", "yellow", "orange", "purple", "cyan", "white"]


class Robot:
    def act(self, game):
        x, y = self.location
        for i in range(2000):
            rg.note("flood " + "\u2603" * 300)
            rg.dot(((x + i) % 19, (y + i) % 19), COLOURS[i % 8])
            rg.line(self.location, (i % 19, (i * 7) % 19), COLOURS[i % 8])
        if self.location == rg.CENTER_POINT:
            return ['guard']
        return ['move', rg.toward(self.location, rg.CENTER_POINT)]
