# Survivor, in Ruby: the careful one. It keeps off the spawn squares, guards when
# outnumbered, trades only when safe, and blows itself up when it is about to die anyway
# (bots/robotgame/survivor.py is the same robot in Python).
require 'rg'

OPEN = %w[invalid obstacle].freeze

class Robot
  def act(game)
    me = location
    enemies = RG.locs_around(me, filter_out: OPEN).select do |loc|
      game.robots.key?(loc) && game.robots[loc].player_id != player_id
    end
    spawn_soon = (game.turn % RG.settings.spawn_every).zero?
    if RG.loc_types(me).include?('spawn') && spawn_soon
      RG.locs_around(me, filter_out: OPEN + ['spawn']).each do |loc|
        return ['move', loc] unless game.robots.key?(loc)
      end
    end
    return ['suicide'] if enemies.size >= 2 && hp <= 9 * enemies.size
    return ['guard'] if enemies.size >= 2
    return ['attack', enemies[0]] unless enemies.empty?

    step = RG.toward(me, RG::CENTER_POINT)
    return ['guard'] if step == me || game.robots.key?(step) || RG.loc_types(step).include?('spawn')

    ['move', step]
  end
end
