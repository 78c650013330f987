# Loops forever in act: each robot is stopped at the per-act limit and guards, and two turns
# of nothing but timeouts forfeit the game.
class Robot
  def act(game)
    loop {}
  end
end
