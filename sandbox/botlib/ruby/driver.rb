# Robot Game's driver for Ruby bots: `ruby driver.rb BOT_FILE`, one process per game.
#
# It loads the bot (a file defining `class Robot` with `act(game)`), then reads one JSON
# line per turn and writes one JSON line of actions, as `_rg_program.py` describes. The
# bot's own output goes to stderr, so it cannot garble the answers; a bot that still
# writes to the answer stream only spoils its own turn, since the keeper checks every
# action. Before each act, `location`, `hp`, `player_id` and `robot_id` are set on the
# one Robot instance, and `rand` is seeded from the player's own key (never the match
# seed), the turn and the robot.
require 'json'
$LOAD_PATH.unshift(__dir__)
require 'rg'

# One watchdog thread for the whole game raises Expired in the main thread when an act runs
# past its limit. (Timeout.timeout starts a thread for every call: about 70 us an act.)
class ActTimer
  class Expired < Exception; end # rubocop:disable Lint/InheritException -- past StandardError

  def initialize
    @main = Thread.current
    @lock = Mutex.new
    @wake = ConditionVariable.new
    @deadline = nil
    Thread.new { watch }
  end

  # Runs the block with `limit` seconds; Expired can land only inside it.
  def run(limit)
    @lock.synchronize do
      @deadline = now + limit
      @wake.signal
    end
    Thread.handle_interrupt(Expired => :immediate) { yield }
  ensure
    @lock.synchronize { @deadline = nil }
    drop_late_expiry
  end

  private

  def now
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end

  # An expiry raised just as the act returned stays pending: drop it here, so that it
  # does not land in the next act.
  def drop_late_expiry
    return unless Thread.pending_interrupt?(Expired)

    Thread.handle_interrupt(Expired => :immediate) { Thread.pass }
  rescue Expired
    nil
  end

  def watch
    @lock.synchronize do
      loop do
        if @deadline.nil?
          @wake.wait(@lock)
        elsif (left = @deadline - now).positive?
          @wake.wait(@lock, left)
        else
          @deadline = nil
          @main.raise(Expired)
        end
      end
    end
  end
end

answers = $stdout.dup
answers.sync = true
$stdout = $stderr

def fatal(answers, text)
  answers.puts(JSON.generate({ 'fatal' => text[0, 200] }))
  exit(0)
end

# What the bot draws with `rand` as it loads (a strategy chosen at load, or in
# Robot#initialize) is the same in every run: Ruby seeds its generator from the OS at each
# start. A constant: the key comes with the first turn.
srand(0)
begin
  load ARGV[0]
  robot_class = Object.const_get(:Robot) if Object.const_defined?(:Robot)
  unless robot_class.is_a?(Class) && robot_class.method_defined?(:act)
    fatal(answers, 'load_error: the bot has no Robot class with an act method')
  end
  robot_class.class_eval { attr_accessor :location, :hp, :player_id, :robot_id }
  robot = robot_class.new
rescue ScriptError, StandardError => e
  fatal(answers, "load_error: #{e.class}: #{e.message}")
end

# A robot record: hash or method access, as `game.robots` holds them.
def record(row, own)
  fields = { 'location' => [row[0], row[1]], 'hp' => row[2], 'player_id' => row[3] }
  fields['robot_id'] = row[4] if own
  RG::AttrHash.from(fields)
end

# What an action becomes on the wire: strings and [x, y], or the reason it cannot. Built
# of new plain Arrays and Strings (Array's own map, interpolation), so that writing it as
# JSON runs none of the bot's methods; what it calls of the bot's runs under the act timer.
ARRAY_MAP = Array.instance_method(:map)

def plain(action)
  return { 'error' => "an action is an Array, not #{action.class}" } unless Array === action

  ARRAY_MAP.bind_call(action) do |part|
    case part
    when Array then ARRAY_MAP.bind_call(part) { |v| Integer === v ? v : "#{v}" }
    when Integer then part
    else "#{part}"
    end
  end
end

acted = false
timer = ActTimer.new
# The timer's expiry may land inside an act only (see ActTimer#run).
Thread.handle_interrupt(ActTimer::Expired => :never) do
  while (line = $stdin.gets)
    data = JSON.parse(line)
    RG.configure(data['info']) if data['info']
    me = data['player_id']
    key = data['key'].to_i(16)
    robots = RG::AttrHash.new
    own = []
    data['robots'].each do |row|
      mine = row[4] >= 0
      robots[[row[0], row[1]]] = record(row, mine)
      own << row if mine
    end
    game = RG::AttrHash.from('robots' => robots, 'turn' => data['turn'])
    actions = own.map do |row|
      limit = acted ? data['soft'] : data['first_soft']
      acted = true
      # Everything that may run the bot's code is timed: its attribute writers, `srand`
      # (a bot may redefine it), act, and turning the answer and any error into text.
      timer.run(limit) do
        robot.location, robot.hp, robot.player_id, robot.robot_id = [row[0], row[1]], row[2],
                                                                     me, row[4]
        srand(((key * 1_000_003) + data['turn']) * 1_000_003 + row[4])
        plain(robot.act(game))
      rescue ActTimer::Expired, NoMemoryError, SystemExit, Interrupt
        raise
      rescue Exception => e # rubocop:disable Lint/RescueException -- any bot error guards
        { 'error' => "#{e.class}: #{e.message}"[0, 200] }
      end
    rescue ActTimer::Expired
      { 'timeout' => true }
    end
    answers.puts(JSON.generate(actions))
  end
end
