# Does not parse.
class Robot
  def act(game
