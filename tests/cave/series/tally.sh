#!/bin/sh
# Tally: counts, in its scratch, every turn it is asked, across all the games of a series.
read -r n 2>/dev/null < asked || n=0
echo $((n + 1)) > asked
echo HNNHNN
