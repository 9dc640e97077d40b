/* Shared parts of the benchmark scenes in bench/scenes/.
 *
 * Each scene is an ordinary ODE program linked by soname (-lode), so the
 * same binary runs against Debian's libode.so.8 or ours depending only on
 * LD_LIBRARY_PATH (scripts/bench-ab.sh switches it). A scene builds its
 * world, times its stepping loop only, and prints one line:
 *
 *   scene NAME steps N ms_per_step T checksum C
 *
 * C is a hexadecimal float summing, in a fixed order and with per-body
 * weights, the final position and orientation of every body (or, for a
 * scene without bodies, the contacts found). Equal checksums mean both
 * libraries computed the same trajectory bit for bit.
 */
#ifndef BENCH_SCENE_COMMON_H
#define BENCH_SCENE_COMMON_H

#define _POSIX_C_SOURCE 200809L
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SCENE_UNUSED __attribute__((unused))

SCENE_UNUSED static double scene_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* A small deterministic generator, independent of the library's dRand. */
static unsigned long long scene_rng = 88172645463325252ULL;
SCENE_UNUSED static double scene_rand(void) { /* uniform in [0, 1) */
    scene_rng ^= scene_rng << 13;
    scene_rng ^= scene_rng >> 7;
    scene_rng ^= scene_rng << 17;
    return (double)(scene_rng >> 11) * (1.0 / 9007199254740992.0);
}
SCENE_UNUSED static double scene_uniform(double lo, double hi) { return lo + (hi - lo) * scene_rand(); }

/* Weighted sum of every body's position and quaternion. */
SCENE_UNUSED static double scene_checksum(dBodyID *bodies, int n) {
    double c = 0;
    for (int i = 0; i < n; i++) {
        const dReal *p = dBodyGetPosition(bodies[i]);
        const dReal *q = dBodyGetQuaternion(bodies[i]);
        double w = 1.0 + 1e-3 * i;
        c += w * (p[0] + 2 * p[1] + 3 * p[2]) + w * w * (q[0] + 2 * q[1] + 3 * q[2] + 4 * q[3]);
    }
    return c;
}

SCENE_UNUSED static void scene_report(const char *name, int steps, double ms, double checksum) {
    printf("scene %s steps %d ms_per_step %.6f checksum %a\n", name, steps, ms / steps, checksum);
}

/* Contact generation shared by the scenes that collide: up to `max`
 * contacts per pair, the given friction, soft enough to be stable. */
typedef struct {
    dWorldID world;
    dJointGroupID group;
    int max;
    double mu;
    long contacts;
} SceneContacts;

SCENE_UNUSED static void scene_near(void *data, dGeomID a, dGeomID b) {
    SceneContacts *sc = (SceneContacts *)data;
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    dContact c[16];
    int max = sc->max < 16 ? sc->max : 16;
    int n = dCollide(a, b, max, &c[0].geom, sizeof(dContact));
    for (int k = 0; k < n; k++) {
        c[k].surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
        c[k].surface.mu = sc->mu;
        c[k].surface.soft_erp = 0.2;
        c[k].surface.soft_cfm = 1e-5;
        dJointID j = dJointCreateContact(sc->world, sc->group, &c[k]);
        dJointAttach(j, b1, b2);
    }
    sc->contacts += n;
}

#endif
