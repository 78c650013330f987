# Thinks for half a second on every act: past the 300 ms limit, so every robot guards.
import time


class Robot:
    def act(self, game):
        end = time.process_time() + 0.5
        while time.process_time() < end:
            pass
        return ['suicide']
