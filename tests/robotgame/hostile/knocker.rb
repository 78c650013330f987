# Tries to reach the host over TCP.
require 'socket'

class Robot
  def act(game)
    begin
      TCPSocket.new('127.0.0.1', 48917).write('knock')
      $stderr.puts('LEAK: connected')
    rescue SystemCallError, SocketError
    end
    ['guard']
  end
end
