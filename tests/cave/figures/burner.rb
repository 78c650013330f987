# figures: game=robotgame cpu_per_turn=0.1 held_mb=38
# Holds 5 M array items (40 MB) and burns 0.1 s of CPU a turn, in the turn's first act
# (tests/cave/test_program_figures.py).
require 'rg'

HELD = Array.new(5_000_000) { |i| i }
$last_turn = nil

class Robot
  def act(game)
    if game.turn != $last_turn
      $last_turn = game.turn
      clock = Process::CLOCK_PROCESS_CPUTIME_ID
      stop = Process.clock_gettime(clock) + 0.1
      nil while Process.clock_gettime(clock) < stop
    end
    ['guard']
  end
end
