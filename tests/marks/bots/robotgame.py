"""The seed's example robot, thinking aloud: each robot notes where it heads, dots the
center it walks to and draws a line to it (rg.note, rg.dot, rg.line)."""
import rg


class Robot:
    def act(self, game):
        rg.note(f"robot {self.robot_id} heads for the center")
        rg.dot(rg.CENTER_POINT, "yellow")
        rg.line(self.location, rg.CENTER_POINT, "blue")
        if self.location == rg.CENTER_POINT:
            return ['guard']
        for loc, bot in game.robots.items():
            if bot.player_id != self.player_id and rg.dist(loc, self.location) <= 1:
                return ['attack', loc]
        return ['move', rg.toward(self.location, rg.CENTER_POINT)]
