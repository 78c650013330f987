import os
import subprocess
from roborally.api import *
name = 'ShellOut'
def move():
    if os.system('touch /tmp/arena-hostile-shell-out') == 0:
        print('LEAK: os.system ran')
    subprocess.run(['touch', '/tmp/arena-hostile-shell-out'], check=True)
    print('LEAK: subprocess ran')
    return FORWARD
