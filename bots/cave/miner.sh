#!/bin/sh
# Miner: a shell bot that walks a square spiral. The spiral's side grows with the turns it
# has lasted; it uses only the shell's own commands (a bot may start no process).
IFS=, read -r health gold turns poison stuck revealer knife
case $(( (turns / 3) % 4 )) in
  0) dir=NN ;;
  1) dir=EE ;;
  2) dir=SS ;;
  *) dir=WW ;;
esac
printf 'M%sM%s\n' "$dir" "$dir"
