#!/usr/bin/env no-such-runtime
# A Cave program whose runtime is not installed: a load error, so the match plays without
# its seat from turn 1 (a program is never erased for what it does in a turn).
puts 'HNNHNN'
