class Robot:
    def act(self, game):
        hog = []
        while True:
            hog.append(bytearray(1 << 20))
