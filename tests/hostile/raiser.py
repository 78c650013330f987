from roborally.api import *
name = 'Raiser'
def move():
    raise ValueError('boom')
