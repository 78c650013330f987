from roborally.api import *
name = 'Spinner'
def move():
    while True:
        pass
