# Finds the project from where the bot API lives, and reads what it should never see.
import os
from roborally import api
from roborally.api import *
name = 'ProjectReader'
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(api.__file__))))
TARGETS = {'map': 'maps/arena/official.txt', 'bot': 'bots/arena/hunter.py',
           'engine': 'engine/arena/match.py'}
def move():
    what = list(TARGETS)[memory().setdefault('n', 0) % len(TARGETS)]
    memory()['n'] += 1
    with open(os.path.join(ROOT, TARGETS[what]), 'rb') as f:
        print('LEAK:', what, f.read(100))
    return FORWARD
