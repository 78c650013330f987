# Raises in act: each robot guards, and the error is reported.
class Robot
  def act(game)
    raise ArgumentError, 'boom'
  end
end
