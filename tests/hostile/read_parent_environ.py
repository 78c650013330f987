import os
from roborally.api import *
name = 'EnvironReader'
def move():
    for pid in (os.getppid(), 1, 'self'):
        try:
            with open(f'/proc/{pid}/environ', 'rb') as f:
                print('LEAK:', pid, f.read(200))
        except OSError:
            pass
    if os.environ:
        print('LEAK: environment', dict(os.environ))
    raise PermissionError('nothing readable')
