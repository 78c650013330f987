"""Thinker: the seed's example robot, thinking aloud. Each robot notes what it chose, dots
the square it acts on and draws a line to the center it walks to (`rg.note`, `rg.dot`,
`rg.line`: its owner sees them under `--turns`, in `arena replay` and in the viewer)."""
import rg

name = 'Thinker'


class Robot:
    def act(self, game):
        if self.location == rg.CENTER_POINT:
            rg.note(f"robot {self.robot_id} holds the center, hp {self.hp}")
            rg.dot(self.location, "green")
            return ['guard']
        for loc, bot in game.robots.items():
            if bot.player_id != self.player_id and rg.dist(loc, self.location) <= 1:
                rg.note(f"robot {self.robot_id} attacks {loc}, hp {self.hp}")
                rg.dot(loc, "red")
                return ['attack', loc]
        step = rg.toward(self.location, rg.CENTER_POINT)
        rg.note(f"robot {self.robot_id} heads for the center by {step}")
        rg.line(self.location, rg.CENTER_POINT, "blue")
        return ['move', step]
