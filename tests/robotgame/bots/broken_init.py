class Robot:
    def __init__(self):
        raise RuntimeError('cannot start')

    def act(self, game):
        return ['guard']
