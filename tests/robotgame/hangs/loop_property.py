# arena check: timeout
# Thinks in a property's setter, which the runtime triggers when it sets hp.
class Robot:
    @property
    def hp(self):
        return 0

    @hp.setter
    def hp(self, value):
        while True:
            pass

    def act(self, game):
        return ['guard']
