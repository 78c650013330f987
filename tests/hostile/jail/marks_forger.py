# In a match jail, forges the replay's marks: it finds the replay's Recorder through `gc`
# and adds an AI to its `debug` section under a key that is a digit to str.isdigit() but
# no ASCII number ('²' is one to isdigit, and int() raises on it; '٠', an Arabic-Indic
# zero, int() reads as 0), holding a note it wrote as that AI's. In a child of its own
# there is no Recorder to find, and it just plays.
import gc
from roborally.api import *
name = 'MarksForger'
KEY = '\u00b2'
done = []


def move():
    if not done:
        done.append(True)
        for o in gc.get_objects():
            if type(o).__name__ == 'Recorder':
                o.debug[KEY] = {'1': {'notes': [[None, 'forged by another AI']]}}
    return FORWARD
