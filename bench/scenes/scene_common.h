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

/* Accuracy measures (bench/accuracy/run.sh builds the scenes with
 * -DSCENE_ACCURACY; without it the hooks below compile to nothing and the
 * timed loops are unchanged). Maxima over the run: contact depth from the
 * contacts the scene creates, anchor separation of the joints registered
 * with SCENE_JOINT (ball, hinge, universal), and the lowest body centre;
 * energy drift (E - E0) / (M g H) for scenes that ask for it, M the total
 * mass and H the height span given. Printed as "accuracy bench:SCENE
 * MEASURE VALUE" lines. */
#ifdef SCENE_ACCURACY
static double acc_depth, acc_sep, acc_low = INFINITY, acc_e0;
static dJointID acc_joints[4096];
static int acc_nj;
#define SCENE_JOINT(j) (acc_nj < 4096 ? (void)(acc_joints[acc_nj++] = (j)) : (void)0)

SCENE_UNUSED static double scene_energy(dWorldID w, dBodyID *b, int n, double *mass) {
    dVector3 g;
    double e = 0, mt = 0;
    dWorldGetGravity(w, g);
    for (int i = 0; i < n; i++) {
        dMass m;
        const dReal *v = dBodyGetLinearVel(b[i]), *av = dBodyGetAngularVel(b[i]), *p = dBodyGetPosition(b[i]);
        const dReal *R = dBodyGetRotation(b[i]);
        double wl[3], Iw[3];
        dBodyGetMass(b[i], &m);
        for (int r = 0; r < 3; r++) wl[r] = R[0 * 4 + r] * av[0] + R[1 * 4 + r] * av[1] + R[2 * 4 + r] * av[2];
        for (int r = 0; r < 3; r++) Iw[r] = m.I[r * 4 + 0] * wl[0] + m.I[r * 4 + 1] * wl[1] + m.I[r * 4 + 2] * wl[2];
        e += 0.5 * m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        e += 0.5 * (wl[0] * Iw[0] + wl[1] * Iw[1] + wl[2] * Iw[2]);
        e -= m.mass * (g[0] * p[0] + g[1] * p[1] + g[2] * p[2]);
        mt += m.mass;
    }
    if (mass) *mass = mt;
    return e;
}

SCENE_UNUSED static void scene_accuracy_start(dWorldID w, dBodyID *b, int n) { acc_e0 = scene_energy(w, b, n, 0); }

SCENE_UNUSED static void scene_accuracy_step(dBodyID *b, int n) {
    for (int i = 0; i < n; i++) {
        double z = dBodyGetPosition(b[i])[2];
        if (z < acc_low) acc_low = z;
    }
    for (int k = 0; k < acc_nj; k++) {
        dJointID j = acc_joints[k];
        dVector3 a1, a2;
        switch (dJointGetType(j)) {
        case dJointTypeBall: dJointGetBallAnchor(j, a1); dJointGetBallAnchor2(j, a2); break;
        case dJointTypeHinge: dJointGetHingeAnchor(j, a1); dJointGetHingeAnchor2(j, a2); break;
        case dJointTypeUniversal: dJointGetUniversalAnchor(j, a1); dJointGetUniversalAnchor2(j, a2); break;
        default: continue;
        }
        double d = sqrt((a1[0] - a2[0]) * (a1[0] - a2[0]) + (a1[1] - a2[1]) * (a1[1] - a2[1]) +
                        (a1[2] - a2[2]) * (a1[2] - a2[2]));
        if (d > acc_sep) acc_sep = d;
    }
}

/* height > 0: also print the energy drift normalised by M g height. */
SCENE_UNUSED static void scene_accuracy_report(const char *name, dWorldID w, dBodyID *b, int n, double height) {
    printf("accuracy bench:%s max_contact_depth %.3e\n", name, acc_depth);
    if (acc_nj) printf("accuracy bench:%s max_anchor_separation %.3e\n", name, acc_sep);
    printf("accuracy bench:%s lowest_body_centre %.3e\n", name, acc_low);
    if (height > 0) {
        double mt, e = scene_energy(w, b, n, &mt);
        dVector3 g;
        dWorldGetGravity(w, g);
        printf("accuracy bench:%s energy_drift %.3e\n", name, (e - acc_e0) / (mt * sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * height));
    }
}
#define SCENE_CONTACT_DEPTH(d) (acc_depth = (d) > acc_depth ? (d) : acc_depth)
#else
#define SCENE_JOINT(j) ((void)(j))
#define SCENE_CONTACT_DEPTH(d) ((void)(d))
#define scene_accuracy_start(w, b, n) ((void)0)
#define scene_accuracy_step(b, n) ((void)0)
#define scene_accuracy_report(name, w, b, n, height) ((void)0)
#endif

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
        SCENE_CONTACT_DEPTH(c[k].geom.depth);
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
