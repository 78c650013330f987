# Defines no Robot class.
class Bot
  def act(game)
    ['guard']
  end
end
