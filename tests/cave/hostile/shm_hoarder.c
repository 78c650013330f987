/* SysV shared memory: 24 segments of 64 MiB, touched, then detached (the IPC namespace
   keeps them, and a per-turn program's pile grows each turn): 1.5 GiB outside the cap. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/shm.h>

int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {}
    int held = 0;
    for (int i = 0; i < 24; i++) {
        int id = shmget(IPC_PRIVATE, 64 << 20, IPC_CREAT | 0600);
        if (id < 0) { fprintf(stderr, "shmget: %s\n", strerror(errno)); break; }
        char *at = shmat(id, NULL, 0);
        if (at == (void *)-1) break;
        memset(at, 1, 64 << 20);
        shmdt(at);
        held++;
    }
    if (held) fprintf(stderr, "LEAK: %d MiB of shared memory held\n", held * 64);
    if (msgget(IPC_PRIVATE, IPC_CREAT | 0600) >= 0) fprintf(stderr, "LEAK: a message queue\n");
    puts("HNNHNN");
    return 0;
}
