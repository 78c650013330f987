# Runs a command once, at import, then plays fairly: only the record of refused attempts
# shows what it tried (the issue's `os.system("id")`).
import os
from roborally.api import *
name = 'QuietShell'
if os.system('id') == 0:
    print('LEAK: os.system ran at import')


def move():
    return TURN_LEFT
