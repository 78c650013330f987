"""A tiny Cave bot in every runtime of the project's runtime table, owned by the tests.

Each one does the same thing: for every turn it reads the status line and the view (a
block that ends with an empty line, or the end of input), counts in its scratch file
`games` the games it has begun (the status line's turns lasted is 0 on a game's first
turn), writes `game N block K` to stderr (K: the blocks this process has answered, so 1
every turn when started per turn) and answers HNNHNN. MARK becomes the line that makes it
persistent, or a line that does not."""
from __future__ import annotations

import sys
from dataclasses import dataclass

from sandbox import programs

MARK = "@MARK@"
PERSISTENT = "cave-protocol: persistent"
PER_TURN = "cave-protocol: one turn per start"


def runtime_names() -> list[str]:
    """The runtime table's rows (sandbox/programs.py RUNTIMES), by name."""
    return [runtime.name for runtime in programs.RUNTIMES]


@dataclass(frozen=True)
class Spelling:
    """One way a bot file names its runtime: its file name, and its #! line if any."""

    label: str
    filename: str
    shebang: str = ""


@dataclass(frozen=True)
class Tiny:
    source: str                       # MARK where the persistent line goes
    spellings: tuple[Spelling, ...]
    needs: str                        # the program this machine must have (skip if not)
    compiled: bool = False            # C source, built with cc into a native program
    slow_start: bool = False          # may not start within a per-turn second (the JVM)

    def text(self, spelling: Spelling, persistent: bool) -> str:
        body = self.source.replace(MARK, PERSISTENT if persistent else PER_TURN)
        return f"{spelling.shebang}\n{body}" if spelling.shebang else body


PYTHON = f"""# {MARK}
import sys

blocks = 0
while True:
    status = sys.stdin.readline()
    if not status:
        break
    if not status.strip():
        continue
    while sys.stdin.readline().strip():
        pass
    try:
        with open("games") as f:
            n = int(f.read())
    except (OSError, ValueError):
        n = 0
    if int(status.split(",")[2]) == 0:
        n += 1
        with open("games", "w") as f:
            f.write(str(n))
    blocks += 1
    print(f"game {{n}} block {{blocks}}", file=sys.stderr, flush=True)
    print("HNNHNN", flush=True)
"""

NODE = f"""// {MARK}
const fs = require('fs');
let blocks = 0, status = null;
function finish() {{
  let n = 0;
  try {{ n = parseInt(fs.readFileSync('games', 'utf8'), 10) || 0; }} catch (e) {{}}
  if (parseInt(status.split(',')[2], 10) === 0) {{ n += 1; fs.writeFileSync('games', String(n)); }}
  blocks += 1;
  status = null;
  process.stderr.write(`game ${{n}} block ${{blocks}}\\n`);
  process.stdout.write('HNNHNN\\n');
}}
const lines = require('readline').createInterface({{input: process.stdin}});
lines.on('line', (line) => {{
  if (status === null) {{ if (line.trim()) status = line; }}
  else if (!line.trim()) finish();
}});
lines.on('close', () => {{ if (status !== null) finish(); }});
"""

PERL = f"""# {MARK}
$| = 1;
my $blocks = 0;
while (defined(my $status = <STDIN>)) {{
  next if $status =~ /^\\s*$/;
  while (defined(my $line = <STDIN>)) {{ last if $line =~ /^\\s*$/; }}
  my $n = 0;
  if (open(my $in, '<', 'games')) {{ $n = (<$in> // 0) + 0; close $in; }}
  if ((split /,/, $status)[2] == 0) {{
    $n++;
    open(my $out, '>', 'games') or die "games: $!";
    print $out $n;
    close $out;
  }}
  $blocks++;
  print STDERR "game $n block $blocks\\n";
  print "HNNHNN\\n";
}}
"""

RUBY = f"""# {MARK}
$stdout.sync = true
blocks = 0
while (status = $stdin.gets)
  next if status.strip.empty?
  while (line = $stdin.gets) && !line.strip.empty?
  end
  n = File.exist?('games') ? File.read('games').to_i : 0
  if status.split(',')[2].to_i.zero?
    n += 1
    File.write('games', n.to_s)
  end
  blocks += 1
  $stderr.puts "game #{{n}} block #{{blocks}}"
  puts 'HNNHNN'
end
"""

# Builtins only: a bot may start no process (no cut, no $(...)).
SH = f"""# {MARK}
blocks=0
while IFS= read -r status; do
  [ -z "$status" ] && continue
  while IFS= read -r line && [ -n "$line" ]; do :; done
  saved=$IFS; IFS=,; set -- $status; IFS=$saved
  n=0
  [ -f games ] && read -r n < games
  if [ "$3" = 0 ]; then n=$((n + 1)); echo "$n" > games; fi
  blocks=$((blocks + 1))
  echo "game $n block $blocks" >&2
  echo HNNHNN
done
"""

AWK = f"""# {MARK}
function finish(   n, parts) {{
  n = 0
  if ((getline n < "games") > 0) n = n + 0
  close("games")
  split(status, parts, ",")
  if (parts[3] + 0 == 0) {{ n++; print n > "games"; close("games") }}
  blocks++
  print "game " n " block " blocks > "/dev/stderr"
  print "HNNHNN"
  fflush()
  status = ""
}}
status == "" {{ if ($0 ~ /[^ \\t]/) status = $0; next }}
$0 !~ /[^ \\t]/ {{ finish() }}
END {{ if (status != "") finish() }}
"""

JAVA = f"""// {MARK}
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Paths;

public class Tiny {{
  public static void main(String[] args) throws Exception {{
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    int blocks = 0;
    String status;
    while ((status = in.readLine()) != null) {{
      if (status.trim().isEmpty()) continue;
      String line;
      while ((line = in.readLine()) != null && !line.trim().isEmpty()) {{ }}
      int n = 0;
      try {{ n = Integer.parseInt(new String(Files.readAllBytes(Paths.get("games"))).trim()); }}
      catch (Exception missing) {{ }}
      if (Integer.parseInt(status.split(",")[2].trim()) == 0) {{
        n++;
        Files.write(Paths.get("games"), String.valueOf(n).getBytes());
      }}
      blocks++;
      System.err.println("game " + n + " block " + blocks);
      System.out.println("HNNHNN");
      System.out.flush();
    }}
  }}
}}
"""

# A native program is persistent when its binary holds the line (spec/cave.md).
C = f"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((used)) static const char mode[] = "{MARK}";

static int blank(const char *s) {{ return strspn(s, " \\t\\r\\n") == strlen(s); }}

int main(void) {{
  char status[256], line[256];
  int blocks = 0;
  while (fgets(status, sizeof status, stdin)) {{
    if (blank(status)) continue;
    while (fgets(line, sizeof line, stdin) && !blank(line)) {{ }}
    const char *third = strchr(status, ',');
    third = third ? strchr(third + 1, ',') : NULL;
    int n = 0;
    FILE *f = fopen("games", "r");
    if (f) {{ if (fscanf(f, "%d", &n) != 1) n = 0; fclose(f); }}
    if (third && atoi(third + 1) == 0) {{
      n++;
      if ((f = fopen("games", "w"))) {{ fprintf(f, "%d", n); fclose(f); }}
    }}
    blocks++;
    fprintf(stderr, "game %d block %d\\n", n, blocks);
    printf("HNNHNN\\n");
    fflush(stdout);
  }}
  return 0;
}}
"""

TINY: dict[str, Tiny] = {
    # Debian's python-is-python3: `python` means python3, however the #! line says it.
    "python3": Tiny(PYTHON, (Spelling("py", "tiny.py"),
                             Spelling("env-python", "tiny", "#!/usr/bin/env python"),
                             Spelling("usr-bin-python", "tiny", "#!/usr/bin/python")),
                    needs=sys.executable),
    "node": Tiny(NODE, (Spelling("js", "tiny.js"),), needs="node"),
    "perl": Tiny(PERL, (Spelling("pl", "tiny.pl"),), needs="perl"),
    "ruby": Tiny(RUBY, (Spelling("rb", "tiny.rb"),), needs="ruby"),
    "sh": Tiny(SH, (Spelling("sh", "tiny.sh"),), needs="sh"),
    "awk": Tiny(AWK, (Spelling("awk", "tiny.awk"),), needs="awk"),
    "java": Tiny(JAVA, (Spelling("java", "tiny.java"),), needs="java", slow_start=True),
    "native": Tiny(C, (Spelling("elf", "tiny"),), needs="cc", compiled=True),
}
