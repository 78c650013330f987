# Red team, or an honest habit: a strategy drawn with `rand` when the bot loads. Ruby seeds
# its generator from the OS at each start, so each run drew another (its stderr says which).
STYLE = rand(1_000_000)
$stderr.puts("style #{STYLE}")

class Robot
  def act(game)
    STYLE.even? ? ['guard'] : ['suicide']
  end
end
