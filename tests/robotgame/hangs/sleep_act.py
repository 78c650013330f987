# arena check: hang
# Sleeps forever in act(): no CPU, so only the wall-clock limit stops it.
import time


class Robot:
    def act(self, game):
        while True:
            time.sleep(60)
