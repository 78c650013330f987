/* memfd_create, then write(): 896 MiB in files no mapping shows, 14 MiB each. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static char chunk[1 << 20];

int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {}
    memset(chunk, 'x', sizeof chunk);
    long written = 0;
    for (int i = 0; i < 64; i++) {
        int fd = syscall(SYS_memfd_create, "hoard", 0);
        if (fd < 0) { fprintf(stderr, "memfd_create: %s\n", strerror(errno)); break; }
        for (int j = 0; j < 14; j++)
            if (write(fd, chunk, sizeof chunk) > 0) written += sizeof chunk;
    }
    if (written) fprintf(stderr, "LEAK: %ld MiB in memfds\n", written >> 20);
    puts("HNNHNN");
    return 0;
}
