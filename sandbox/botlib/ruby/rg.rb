# The `rg` module of Robot Game for Ruby bots: `require 'rg'`, then RG.dist, RG.wdist,
# RG.loc_types, RG.locs_around, RG.toward, RG::CENTER_POINT and RG.settings, with the same
# results as the Python `rg` (a test compares them on every square of the default map).
# Locations are [x, y] arrays. The sandbox calls RG.configure with the match's map and
# settings before the first act.
require 'set'

module RG
  # A hash whose keys can also be read as methods: settings.spawn_every, game.robots.
  class AttrHash < Hash
    def self.from(pairs)
      hash = new
      pairs.each { |key, value| hash[key.to_s] = value }
      hash
    end

    def [](key)
      super(key.is_a?(Symbol) ? key.to_s : key)
    end

    def method_missing(name, *args)
      key = name.to_s
      return fetch(key) if args.empty? && key?(key)
      super
    end

    def respond_to_missing?(name, include_private = false)
      key?(name.to_s) || super
    end
  end

  @settings = AttrHash.from(
    'spawn_every' => 10, 'spawn_per_player' => 5, 'board_size' => 19, 'robot_hp' => 50,
    'attack_range' => [8, 10], 'collision_damage' => 5, 'suicide_damage' => 15,
    'max_turns' => 100, 'spawn_coords' => [], 'obstacles' => [], 'player_count' => 2
  )
  @spawn = Set.new
  @obstacles = Set.new
  @types = {}
  CENTER_POINT = [9, 9].freeze

  class << self
    attr_reader :settings

    # Called by the sandbox once per match: {'map' => {'spawn', 'obstacle'}, 'settings'}.
    def configure(info)
      info['settings'].each { |key, value| @settings[key.to_s] = value }
      @settings['spawn_coords'] = info['map']['spawn'].map { |loc| loc.to_a.freeze }
      @settings['obstacles'] = info['map']['obstacle'].map { |loc| loc.to_a.freeze }
      @spawn = Set.new(@settings['spawn_coords'])
      @obstacles = Set.new(@settings['obstacles'])
      @types = {}
    end

    def dist(p1, p2)
      ((p2[0] - p1[0])**2 + (p2[1] - p1[1])**2)**0.5
    end

    def wdist(p1, p2)
      (p2[0] - p1[0]).abs + (p2[1] - p1[1]).abs
    end

    # A set of 'invalid', or 'normal' plus 'spawn' and/or 'obstacle'.
    def loc_types(loc)
      key = [loc[0], loc[1]]
      @types[key] ||= begin
        size = @settings['board_size']
        if key[0] < 0 || key[0] >= size || key[1] < 0 || key[1] >= size
          Set['invalid']
        else
          types = Set['normal']
          types << 'spawn' if @spawn.include?(key)
          types << 'obstacle' if @obstacles.include?(key)
          types
        end
      end
    end

    # The 4 neighbours of loc, without those of any type in filter_out.
    def locs_around(loc, filter_out: nil)
      x, y = loc[0], loc[1]
      near = [[x, y + 1], [x + 1, y], [x, y - 1], [x - 1, y]]
      return near if filter_out.nil? || filter_out.empty?
      drop = Set.new(Array(filter_out).map(&:to_s))
      near.reject { |n| loc_types(n).intersect?(drop) }
    end

    # One greedy step from curr toward dest, avoiding obstacles.
    def toward(curr, dest)
      return [curr[0], curr[1]] if curr[0] == dest[0] && curr[1] == dest[1]
      x0, y0 = curr[0], curr[1]
      x_diff, y_diff = dest[0] - x0, dest[1] - y0
      move_y = [x0, y0 + sign(y_diff)]
      move_x = [x0 + sign(x_diff), y0]
      if y_diff.abs > x_diff.abs
        @obstacles.include?(move_y) ? move_x : move_y
      else
        @obstacles.include?(move_x) ? move_y : move_x
      end
    end

    private

    # rgkit's _sign: 1 for a positive number, else -1 (0 included).
    def sign(x)
      x.positive? ? 1 : -1
    end
  end
end
