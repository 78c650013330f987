/* cave-protocol: persistent
   Starts 2,000 threads (small stacks) and keeps them for the whole game. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *volatile protocol = "cave-protocol: persistent";

static void *wait_forever(void *arg) { (void)arg; for (;;) pause(); return NULL; }

int main(void) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN);
    int held = 0;
    for (; held < 2000; held++) {
        pthread_t thread;
        if (pthread_create(&thread, &attr, wait_forever, NULL) != 0) break;
    }
    fprintf(stderr, "%s: %d threads\n", protocol, held);
    if (held >= 2000) fprintf(stderr, "LEAK: %d threads held\n", held);
    char line[4096];
    while (fgets(line, sizeof line, stdin))
        if (strcmp(line, "\n") == 0) { puts("HNNHNN"); fflush(stdout); }
    return 0;
}
