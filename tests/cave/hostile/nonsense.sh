#!/bin/sh
# Answers every turn, never in the game's syntax.
echo "go north"
