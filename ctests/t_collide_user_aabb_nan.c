/* Found by fuzz/fuzz_api.c (seed 15): a host geom class whose AABB callback
 * answers NaN made dSpaceCollide on a hash space walk millions of cells per
 * geom (a NaN side gave a low cell level with an enormous cell range), which
 * never finished. The library must report the NaN box, keep the collide
 * bounded and go on. An alarm turns a regression (a hang) into a failure.
 * Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int reports, pairs;
static char last[512];
static void on_debug(int num, const char *fmt, va_list ap) { (void)num; vsnprintf(last, sizeof last, fmt, ap); reports++; }
static void on_alarm(int sig) { (void)sig; static const char m[] = "FAIL: dSpaceCollide did not return (hang)\n"; if (write(1, m, sizeof m - 1)) {} _exit(1); }

static int nan_side = 2;
static void user_aabb(dGeomID g, dReal aabb[6]) {
    const dReal *p = dGeomGetPosition(g);
    for (int i = 0; i < 3; i++) { aabb[2 * i] = p[i] - 1; aabb[2 * i + 1] = p[i] + 1; }
    if (nan_side >= 0) aabb[nan_side] = NAN;
}
static dColliderFn *no_collider(int num) { (void)num; return NULL; }
static void cb(void *d, dGeomID a, dGeomID b) { (void)d; (void)a; (void)b; pairs++; }

int main(void) {
    signal(SIGALRM, on_alarm);
    alarm(20);
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    dSetMessageHandler(on_debug);
    dGeomClass c = { 0, no_collider, user_aabb, NULL, NULL };
    int cls = dCreateGeomClass(&c);
    int failures = 0, checks = 0;
    dSpaceID spaces[3] = { dHashSpaceCreate(0), dSimpleSpaceCreate(0), dSweepAndPruneSpaceCreate(0, dSAP_AXES_XYZ) };
    for (int k = 0; k < 3; k++) {
        for (int side = 0; side < 6; side++) {
            nan_side = side;
            dGeomID u = dCreateGeom(cls);
            dGeomSetPosition(u, -1.6e6, 1e8, -1e11);
            dSpaceAdd(spaces[k], u);
            dGeomID s = dCreateSphere(spaces[k], 1);
            dGeomSetPosition(s, 0, 0, 0);
            int r0 = reports;
            dSpaceCollide(spaces[k], 0, cb);
            checks++;
            /* The NaN box is reported (ODE would convert NaN to a cell index: undefined). */
            if (reports == r0) { failures++; printf("FAIL space %d side %d: NaN AABB not reported\n", k, side); }
            else if (!strstr(last, "NaN")) { failures++; printf("FAIL space %d side %d: message does not say NaN: %s\n", k, side, last); }
            dReal bb[6];
            dGeomGetAABB(u, bb);
            checks++;
            for (int i = 0; i < 6; i++)
                if (isnan(bb[i])) { failures++; printf("FAIL space %d side %d: AABB keeps NaN\n", k, side); break; }
            dGeomDestroy(u);
            dGeomDestroy(s);
        }
    }
    /* A sane box from the same callback still collides normally. */
    nan_side = -1;
    dGeomID u = dCreateGeom(cls);
    dGeomSetPosition(u, 0, 0, 0);
    dSpaceAdd(spaces[0], u);
    dGeomID s = dCreateSphere(spaces[0], 1);
    int r0 = reports;
    pairs = 0;
    dSpaceCollide(spaces[0], 0, cb);
    checks++;
    if (pairs != 1 || reports != r0) { failures++; printf("FAIL sane user box: %d pairs, %d reports\n", pairs, reports - r0); }
    (void)s;
    for (int k = 0; k < 3; k++) dSpaceDestroy(spaces[k]);
    dCloseODE();
    if (failures) { printf("FAILED %d of %d\n", failures, checks); return 1; }
    printf("PASS %d\n", checks);
    return 0;
}
