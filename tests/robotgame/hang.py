"""A Robot Game bot whose act() never returns."""


class Robot:
    def act(self, game):
        while True:
            pass
