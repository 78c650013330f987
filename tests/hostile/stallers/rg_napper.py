"""Robot Game: naps 0.25 s in every act and guards. Each act is far under the 300 ms a
robot has (it uses no CPU), every answer is legal: before the own-time bank one 100-turn
match against example.py took 125 s, the napper `ok`. Its bank forfeits it now."""
import time


class Robot:
    def act(self, game):
        time.sleep(0.25)
        return ['guard']
