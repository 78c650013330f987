# Tries to start a process in act, with fork and with backticks.
class Robot
  def act(game)
    begin
      pid = fork { exit!(0) }
      $stderr.puts("LEAK: forked #{pid}") if pid
    rescue SystemCallError, NotImplementedError
    end
    out = `id` rescue nil
    $stderr.puts("LEAK: ran id: #{out}") if out && !out.empty?
    ['guard']
  end
end
