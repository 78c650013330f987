# Tries to read files outside its own: the host's passwords, the project's maps (next to
# the driver's folder, which it may read) and another process's environment.
class Robot
  def act(game)
    project = File.expand_path('../../..', $LOAD_PATH.first)
    ['/etc/passwd', File.join(project, 'maps/robotgame/default.py'),
     '/proc/1/environ'].each do |path|
      begin
        $stderr.puts("LEAK: #{path}: #{File.read(path)[0, 40]}")
      rescue SystemCallError
      end
    end
    ['guard']
  end
end
