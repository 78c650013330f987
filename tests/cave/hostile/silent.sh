#!/bin/sh
# Never answers: it reads its turn, then spins.
read -r status
while :; do :; done
