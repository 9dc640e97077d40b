/* Found by fuzz/fuzz_api.c (seed 9): a hash space whose levels were set to
 * (2, INT_MAX) never finished dSpaceCollide once it held a plane: the
 * plane's unbounded box was filed at level INT_MAX instead of the "big"
 * list, so every other box walked 2^31 levels. Extreme levels at the other
 * end (a cell size of 2^-2000) put a tiny geom across the origin into a
 * cell range of 2^32 cells a side. Both must collide in bounded time with
 * the same pairs as a hash space with the default levels. An alarm turns a
 * regression (a hang) into a failure. Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <limits.h>
#include <stdio.h>
#include <signal.h>
#include <unistd.h>

static void on_alarm(int sig) { (void)sig; static const char m[] = "FAIL: dSpaceCollide did not return (hang)\n"; if (write(1, m, sizeof m - 1)) {} _exit(1); }
static int pairs;
static void cb(void *d, dGeomID a, dGeomID b) { (void)d; (void)a; (void)b; pairs++; }

static int count_pairs(int minlevel, int maxlevel, int tiny) {
    dSpaceID s = dHashSpaceCreate(0);
    dHashSpaceSetLevels(s, minlevel, maxlevel);
    dCreatePlane(s, 0, 0, 1, 0);
    dGeomID a = dCreateSphere(s, 1), b = dCreateSphere(s, 1);
    dGeomSetPosition(a, 0, 0, 0.5);
    dGeomSetPosition(b, 0.5, 0, 0.5);
    if (tiny) { dGeomID t = dCreateSphere(s, 1e-310); dGeomSetPosition(t, 0, 0, 0); }
    pairs = 0;
    dSpaceCollide(s, 0, cb);
    dSpaceDestroy(s);
    return pairs;
}

int main(void) {
    signal(SIGALRM, on_alarm);
    alarm(20);
    dInitODE2(0);
    int failures = 0, checks = 0;
    int want = count_pairs(-3, 10, 0);        /* ODE's defaults: plane-a, plane-b, a-b */
    int want_tiny = count_pairs(-3, 10, 1);
    const int levels[][2] = { { 2, INT_MAX }, { -3, INT_MAX }, { INT_MIN, INT_MAX }, { -2000, 5 }, { -1100, -1000 }, { INT_MIN, 10 } };
    for (unsigned i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        for (int tiny = 0; tiny < 2; tiny++) {
            int got = count_pairs(levels[i][0], levels[i][1], tiny);
            checks++;
            if (got != (tiny ? want_tiny : want)) {
                failures++;
                printf("FAIL levels %d..%d tiny %d: %d pairs, want %d\n", levels[i][0], levels[i][1], tiny, got, tiny ? want_tiny : want);
            }
        }
    }
    checks++;
    if (want != 3) { failures++; printf("FAIL default levels: %d pairs, want 3\n", want); }
    dCloseODE();
    if (failures) { printf("FAILED %d of %d\n", failures, checks); return 1; }
    printf("PASS %d\n", checks);
    return 0;
}
