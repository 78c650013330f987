"""A Robot Game bot whose act() never returns: it forfeits at turn 0
(tests/replay/test_erased_truth.py)."""


class Robot:
    def act(self, game):
        while True:
            pass
