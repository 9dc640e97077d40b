/* The QuickStep solves small islands of contacts a few at a time, their
 * rows swept side by side; a body with a moved callback is always stepped
 * on its own island. This program runs the scene of
 * quickstep_small_islands.h twice, without callbacks (grouped) and with a
 * moved callback that only counts on every body (one island at a time),
 * and requires the same trace, bit for bit: positions, quaternions,
 * velocities, contact feedback and dRandGetSeed every step. Holds in both
 * solver modes (tests/solver_fast_mode.rs runs it with ODE_SOLVER=fast). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "quickstep_small_islands.h"
#include <stdlib.h>
#include <string.h>

static char *trace(double friction, int all_moved, size_t *len) {
    char *buf = 0;
    FILE *f = open_memstream(&buf, len);
    small_islands_run("t", friction, all_moved, f);
    fclose(f);
    return buf;
}

int main(void) {
    int fails = 0;
    double friction[2] = {0.8, 0};
    int r;
    dInitODE2(0);
    for (r = 0; r < 2; r++) {
        size_t na, nb;
        char *a = trace(friction[r], 0, &na), *b = trace(friction[r], 1, &nb);
        if (na < 10000 || na != nb || memcmp(a, b, na) != 0) {
            size_t i = 0;
            while (i < na && i < nb && a[i] == b[i]) i++;
            printf("FAIL friction %g: traces differ at byte %zu of %zu/%zu\n", friction[r], i, na, nb);
            fails++;
        }
        free(a);
        free(b);
    }
    dCloseODE();
    if (fails) return 1;
    printf("PASS grouped small islands step like one island at a time\n");
    return 0;
}
