# Loops forever in act: each robot is stopped at the per-act limit and guards.
class Robot
  def act(game)
    loop {}
  end
end
