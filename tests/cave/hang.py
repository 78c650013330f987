#!/usr/bin/env python3
"""A Cave program that never answers."""
while True:
    pass
