from roborally.api import *
name = '[/]'
def move():
    print('[bold red]not markup[/] [/] [link=http://x]y[/link] :skull:')
    return FORWARD
