"""The package bots import: `from roborally.api import *`."""
