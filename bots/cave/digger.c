/* Digger: a native bot in C, started afresh every turn. The arena compiles it with cc on
 * first use (orchestrator/samples.py). It moves toward the nearest gold in its view, and
 * holds when there is none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char status[256], rows[11][64];
    int n = 0, me_r = -1, me_c = -1, best = 1000, gr = 0, gc = 0;
    if (!fgets(status, sizeof status, stdin)) return 1;
    while (n < 11 && fgets(rows[n], sizeof rows[n], stdin)) {
        rows[n][strcspn(rows[n], "\r\n")] = 0;
        char *y = strchr(rows[n], 'Y');
        if (y) { me_r = n; me_c = (int)(y - rows[n]); }
        n++;
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; rows[r][c]; c++)
            if (rows[r][c] == 'G') {
                int d = abs(r - me_r) > abs(c - me_c) ? abs(r - me_r) : abs(c - me_c);
                if (d < best) { best = d; gr = r; gc = c; }
            }
    if (me_r < 0 || best == 1000) { puts("HNNHNN"); return 0; }
    const char *ns = gr < me_r ? "N" : gr > me_r ? "S" : "";
    const char *ew = gc < me_c ? "W" : gc > me_c ? "E" : "";
    char dir[3];
    if (*ns && *ew) snprintf(dir, sizeof dir, "%s%s", ns, ew);
    else if (*ns) snprintf(dir, sizeof dir, "%s%s", ns, ns);
    else snprintf(dir, sizeof dir, "%s%s", ew, ew);
    printf("M%sM%s\n", dir, dir);
    return 0;
}
