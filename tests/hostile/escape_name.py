from roborally.api import *
# OSC 0 (retitle), OSC 52 (write the clipboard), CSI (clear), a C1 CSI, a bidi override.
name = 'Esc\x1b]0;pwned\x07\x1b]52;c;Zm9v\x07\x1b[2J\x9b31m\u202eape'
def move():
    print('\x1b]0;pwned\x07\x1b]52;c;Zm9v\x07\x1b[2J\x9d0;c1\x9c\u202e\r\x1b[1A')
    raise ValueError('\x1b]0;pwned\x07\x1b]52;c;Zm9v\x07\x1b[2J\u202e[/]')
