#!/bin/sh
# A Cave program that never answers.
while :; do :; done
