from roborally.api import *
name = 'PasswdReader'
def move():
    with open('/etc/passwd') as f:
        print('LEAK:', f.read(200))
    return FORWARD
