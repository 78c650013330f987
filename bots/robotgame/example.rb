# Example, in Ruby: the seed's example robot. It attacks any enemy next to it, and otherwise
# walks to the center and stays there (bots/robotgame/example.py is the same in Python).
require 'rg'

class Robot
  def act(game)
    # if we're in the center, stay put
    return ['guard'] if location == RG::CENTER_POINT

    # if there are enemies around, attack them
    game.robots.each do |loc, bot|
      return ['attack', loc] if bot.player_id != player_id && RG.dist(loc, location) <= 1
    end

    # move toward the center
    ['move', RG.toward(location, RG::CENTER_POINT)]
  end
end
