from roborally.api import *
# Beside two Hunters, the name a host's ' #2' suffix would give the second one.
name = 'Hunter #2'
def move():
    return TURN_LEFT if bumps_into_wall(FORWARD) else FORWARD
