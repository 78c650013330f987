# Reads what it must not: the project's files, other bots' scratch, the host's /tmp and
# devices, the host's name; writes outside its own scratch. It needs /dev/null and
# /dev/urandom to answer.
import glob
import os
import sys

sys.stdin.read()
targets = ["/etc/passwd", "/proc/1/environ", "/tmp", "/root", "/home", "/dev/zero",
           "/dev/mem", "/dev/kmsg", "/dev/shm", "/dev/tty"]
for pattern in ("/*/*/README.md", "/*/*/bots/*/*", "/tmp/arena-*", "/tmp/*/scratch/*",
                "/root/*", "/home/*/*", "/dev/sd*", "/dev/nvme*", "/dev/vd*"):
    targets += glob.glob(pattern)
for path in targets:
    try:
        if os.path.isdir(path):
            if os.listdir(path):
                print(f"LEAK: listed {path}", file=sys.stderr)
        else:
            open(path, "rb").read(10)
            print(f"LEAK: read {path}", file=sys.stderr)
    except OSError:
        pass
for path in ("/tmp/arena-hostile-escape", "/bot/injected", "../escape"):
    try:
        open(path, "w").write("x")
        print(f"LEAK: wrote {path}", file=sys.stderr)
    except OSError:
        pass
if os.uname().nodename != "arena":
    print(f"LEAK: the host's name, {os.uname().nodename}", file=sys.stderr)
with open("/dev/null", "w") as sink, open("/dev/urandom", "rb") as noise:
    sink.write("the devices a program expects are there")
    usable = len(noise.read(8)) == 8
print("HNNHNN" if usable else "no /dev/urandom")
