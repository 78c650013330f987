/* Execs itself again through the descriptor its runtime came from (a program may be its
   runtime once): opens its own file onto that descriptor and calls execveat. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EXEC_FD 63

int main(int argc, char **argv, char **envp) {
    char line[4096];
    if (argc > 1 && strcmp(argv[1], "again") == 0) {
        fprintf(stderr, "LEAK: exec'd again\n");
    } else {
        int fd = open(argv[0], O_RDONLY);
        if (fd >= 0 && dup2(fd, EXEC_FD) == EXEC_FD) {
            char *again[] = {argv[0], "again", NULL};
            syscall(SYS_execveat, EXEC_FD, "", again, envp, AT_EMPTY_PATH);
            fprintf(stderr, "execveat: %s\n", strerror(errno));
        }
    }
    while (fgets(line, sizeof line, stdin)) {}
    puts("HNNHNN");
    return 0;
}
