from roborally.api import *
name = 'DiskFiller'
def move():
    n = memory().setdefault('n', 0)
    memory()['n'] += 1
    with open(f'fill-{n}.bin', 'wb') as f:
        for _ in range(64):
            f.write(b'\0' * (1 << 20))
    print('LEAK: wrote 64 MiB')
    return FORWARD
