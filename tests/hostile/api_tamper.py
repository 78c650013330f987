# Widens the bot API's window, hoping to see beyond its own 11x11 sight.
from roborally import api
from roborally.api import *
name = 'Tamperer'
def move():
    api._SIZE = 41
    api._CENTER = (20, 20)
    seen = sum(1 for row in sight() for cell in row if cell is not None)
    if seen > 121:
        print('LEAK: saw', seen, 'cells')
    return FORWARD
