# Masks the interrupt the per-act timeout sends, and loops: only the turn's watchdog, outside
# Ruby, can stop it, and its game is forfeited.
class Robot
  def act(game)
    Thread.handle_interrupt(Object => :never) { loop {} }
  end
end
