import os
from roborally import api
from roborally.api import *
name = 'Scribbler'
def move():
    for path in ('/tmp/arena-hostile-escape', api.__file__,
                 os.path.join(os.path.dirname(api.__file__), 'injected.py')):
        try:
            with open(path, 'a') as f:
                f.write('# LEAK\n')
            print('LEAK: wrote', path)
        except OSError:
            pass
    with open('note.txt', 'w') as f:     # its own scratch directory: allowed
        f.write('fine')
    raise PermissionError('could not write outside scratch')
