"""Red team: a bot that reads the host's memory size from its private root: a tmpfs
mounted with the default inode count (half the machine's pages) says it in
`statvfs("/").f_files`."""
import os

from roborally.api import *

name = 'MemoryTeller'

_root = os.statvfs("/")
print("root", _root.f_files, _root.f_blocks)


def move():
    return FORWARD
