/* cave-protocol: persistent
   A thread spins for the whole game; the main thread answers each turn at once, so the
   CPU is used between turns, where no turn's clock used to look. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const char *volatile protocol = "cave-protocol: persistent";
static volatile unsigned long spins;

static void *spin(void *arg) { (void)arg; for (;;) spins++; return NULL; }

int main(void) {
    pthread_t thread;
    pthread_create(&thread, NULL, spin, NULL);
    char line[4096];
    while (fgets(line, sizeof line, stdin))
        if (strcmp(line, "\n") == 0) { puts("HNNHNN"); fflush(stdout); }
    fprintf(stderr, "%s\n", protocol);
    return 0;
}
