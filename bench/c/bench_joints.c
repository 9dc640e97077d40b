/*
 * bench_joints: constraint-solver scenes timed against Debian's
 * libode.so.8 and our libode.so in one run (both opened with
 * dlopen(RTLD_LOCAL) and driven through dlsym'd entry points, like
 * bench_step.c, so nothing is shared between them).
 *
 * Scenes (dt 0.01, gravity -9.81, dRandSetSeed(0) first):
 *   chain200     a 200-link hinge chain hung from the static world,
 *                released from a horizontal line; dWorldStep (one island
 *                of 1000 unbounded rows: the Dantzig LCP factorises it all)
 *   stack10      a 10-high stack of unit boxes on hand-made contact joints
 *                (4 corner contacts per box, dContactApprox1, mu 0.5,
 *                re-created every step); dWorldQuickStep, 20 iterations
 *   pend50       50 independent hinge pendulums (50 islands of 5 rows),
 *                with dWorldStep and with dWorldQuickStep
 * Prints ms/step for each library, the ratio ours/ODE, and a checksum of
 * the final positions of each run (equal checksums: both libraries
 * simulated the same trajectory).
 *
 * usage: bench_joints OURS_LIB [REFERENCE_LIB] [-x SCALE]
 *   SCALE multiplies the number of timed steps (default 1: 40 chain
 *   steps, 500 stack steps, 2000 pendulum steps per stepper).
 * build: cc -O2 -std=gnu99 -DdDOUBLE bench/c/bench_joints.c -o bench_joints -ldl
 * (ODE's headers are used for the dContact layout and constants only).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ode/ode.h>

typedef struct {
    const char *name, *path;
    void *handle;
    int ok;
    int (*InitODE2)(unsigned);
    void (*CloseODE)(void);
    void (*RandSetSeed)(unsigned long);
    dWorldID (*WorldCreate)(void);
    void (*WorldDestroy)(dWorldID);
    void (*WorldSetGravity)(dWorldID, dReal, dReal, dReal);
    void (*WorldSetQuickStepNumIterations)(dWorldID, int);
    int (*WorldStep)(dWorldID, dReal);
    int (*WorldQuickStep)(dWorldID, dReal);
    dBodyID (*BodyCreate)(dWorldID);
    void (*BodySetPosition)(dBodyID, dReal, dReal, dReal);
    void (*BodySetLinearVel)(dBodyID, dReal, dReal, dReal);
    void (*BodySetMass)(dBodyID, const dMass *);
    const dReal *(*BodyGetPosition)(dBodyID);
    void (*MassSetBoxTotal)(dMass *, dReal, dReal, dReal, dReal);
    dJointGroupID (*JointGroupCreate)(int);
    void (*JointGroupEmpty)(dJointGroupID);
    void (*JointGroupDestroy)(dJointGroupID);
    dJointID (*JointCreateContact)(dWorldID, dJointGroupID, const dContact *);
    dJointID (*JointCreateHinge)(dWorldID, dJointGroupID);
    void (*JointAttach)(dJointID, dBodyID, dBodyID);
    void (*JointSetHingeAnchor)(dJointID, dReal, dReal, dReal);
    void (*JointSetHingeAxis)(dJointID, dReal, dReal, dReal);
} Lib;

static void *sym(Lib *l, const char *s, char *missing, size_t cap) {
    void *p = dlsym(l->handle, s);
    if (!p && strlen(missing) + strlen(s) + 2 < cap) {
        if (*missing) strcat(missing, " ");
        strcat(missing, s);
    }
    return p;
}

#define LOAD(field, name) *(void **)(&l->field) = sym(l, name, missing, sizeof missing)

static int open_lib(Lib *l) {
    char missing[2048] = "";
    l->handle = dlopen(l->path, RTLD_NOW | RTLD_LOCAL);
    if (!l->handle) {
        printf("%-5s %s: cannot open: %s\n", l->name, l->path, dlerror());
        return 0;
    }
    LOAD(InitODE2, "dInitODE2");
    LOAD(CloseODE, "dCloseODE");
    LOAD(RandSetSeed, "dRandSetSeed");
    LOAD(WorldCreate, "dWorldCreate");
    LOAD(WorldDestroy, "dWorldDestroy");
    LOAD(WorldSetGravity, "dWorldSetGravity");
    LOAD(WorldSetQuickStepNumIterations, "dWorldSetQuickStepNumIterations");
    LOAD(WorldStep, "dWorldStep");
    LOAD(WorldQuickStep, "dWorldQuickStep");
    LOAD(BodyCreate, "dBodyCreate");
    LOAD(BodySetPosition, "dBodySetPosition");
    LOAD(BodySetLinearVel, "dBodySetLinearVel");
    LOAD(BodySetMass, "dBodySetMass");
    LOAD(BodyGetPosition, "dBodyGetPosition");
    LOAD(MassSetBoxTotal, "dMassSetBoxTotal");
    LOAD(JointGroupCreate, "dJointGroupCreate");
    LOAD(JointGroupEmpty, "dJointGroupEmpty");
    LOAD(JointGroupDestroy, "dJointGroupDestroy");
    LOAD(JointCreateContact, "dJointCreateContact");
    LOAD(JointCreateHinge, "dJointCreateHinge");
    LOAD(JointAttach, "dJointAttach");
    LOAD(JointSetHingeAnchor, "dJointSetHingeAnchor");
    LOAD(JointSetHingeAxis, "dJointSetHingeAxis");
    if (*missing) {
        printf("%-5s %s: left out, does not export: %s\n", l->name, l->path, missing);
        return 0;
    }
    printf("%-5s %s\n", l->name, l->path);
    return 1;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum { CHAIN, STACK, PEND_STEP, PEND_QUICK, NSCENES };
static const char *scene_name[NSCENES] = {"chain200/step", "stack10/quick", "pend50/step", "pend50/quick"};
static const int scene_steps[NSCENES] = {40, 500, 2000, 2000};

#define CHAIN_N 200
#define STACK_N 10
#define PEND_N 50
#define MAXB 200

typedef struct {
    dWorldID w;
    dJointGroupID g;
    dBodyID b[MAXB];
    int n;
} World;

static dBodyID box(Lib *l, World *W, dReal m, dReal lx, dReal ly, dReal lz, dReal x, dReal y, dReal z) {
    dMass mass;
    dBodyID b = l->BodyCreate(W->w);
    l->MassSetBoxTotal(&mass, m, lx, ly, lz);
    l->BodySetMass(b, &mass);
    l->BodySetPosition(b, x, y, z);
    W->b[W->n++] = b;
    return b;
}

static void hinge(Lib *l, World *W, dBodyID a, dBodyID b, dReal x, dReal y, dReal z, dReal ax, dReal ay, dReal az) {
    dJointID j = l->JointCreateHinge(W->w, 0);
    l->JointAttach(j, a, b);
    l->JointSetHingeAnchor(j, x, y, z);
    l->JointSetHingeAxis(j, ax, ay, az);
}

static void build(Lib *l, World *W, int scene) {
    int i;
    memset(W, 0, sizeof *W);
    l->RandSetSeed(0);
    W->w = l->WorldCreate();
    W->g = l->JointGroupCreate(0);
    l->WorldSetGravity(W->w, 0, 0, -9.81);
    l->WorldSetQuickStepNumIterations(W->w, 20);
    switch (scene) {
    case CHAIN:
        for (i = 0; i < CHAIN_N; i++) {
            dBodyID b = box(l, W, 0.2, 0.1, 0.02, 0.02, 0.1 * i + 0.05, 0, 30);
            /* axes tilt a little from link to link: the chain swings in 3D */
            hinge(l, W, i ? W->b[i - 1] : 0, b, 0.1 * i, 0, 30, 0.05 * (i % 5), 1, 0.03 * (i % 7));
        }
        break;
    case STACK:
        for (i = 0; i < STACK_N; i++) box(l, W, 1, 1, 1, 1, 0.002 * i, 0.001 * i, 0.5 + 0.999 * i);
        break;
    default:
        for (i = 0; i < PEND_N; i++) {
            dBodyID b = box(l, W, 1, 0.1, 0.1, 1, 2.0 * i, 0, 0.5);
            hinge(l, W, b, 0, 2.0 * i, 0, 1, 0, 1, 0);
            l->BodySetLinearVel(b, 0.5 + 0.05 * i, 0, 0);
        }
    }
}

static void stack_contacts(Lib *l, World *W) {
    int i, k;
    for (i = 0; i < W->n; i++) {
        dBodyID top = W->b[i], below = i ? W->b[i - 1] : 0;
        const dReal *p = l->BodyGetPosition(top);
        dReal floor = below ? l->BodyGetPosition(below)[2] + 0.5 : 0;
        for (k = 0; k < 4; k++) {
            dContact c;
            memset(&c, 0, sizeof c);
            c.surface.mode = dContactApprox1;
            c.surface.mu = 0.5;
            c.geom.pos[0] = p[0] + ((k & 1) ? 0.5 : -0.5);
            c.geom.pos[1] = p[1] + ((k & 2) ? 0.5 : -0.5);
            c.geom.pos[2] = floor;
            c.geom.normal[2] = 1;
            c.geom.depth = floor - (p[2] - 0.5);
            l->JointAttach(l->JointCreateContact(W->w, W->g, &c), top, below);
        }
    }
}

/* Runs `steps` steps of a fresh scene; returns seconds per step and a
 * checksum of the final positions. */
static double run(Lib *l, int scene, int steps, double *checksum) {
    World W;
    int i, s;
    build(l, &W, scene);
    double t0 = now();
    for (s = 0; s < steps; s++) {
        if (scene == STACK) {
            stack_contacts(l, &W);
            l->WorldQuickStep(W.w, 0.01);
            l->JointGroupEmpty(W.g);
        } else if (scene == PEND_QUICK) {
            l->WorldQuickStep(W.w, 0.01);
        } else {
            l->WorldStep(W.w, 0.01);
        }
    }
    double t = (now() - t0) / steps;
    *checksum = 0;
    for (i = 0; i < W.n; i++) {
        const dReal *p = l->BodyGetPosition(W.b[i]);
        *checksum += p[0] + 2 * p[1] + 3 * p[2];
    }
    l->JointGroupDestroy(W.g);
    l->WorldDestroy(W.w);
    return t;
}

int main(int argc, char **argv) {
    Lib libs[2] = {{.name = "ode", .path = "/usr/lib/x86_64-linux-gnu/libode.so.8"},
                   {.name = "ours", .path = NULL}};
    double scale = 1;
    int i, k, sc;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-x") && i + 1 < argc) scale = atof(argv[++i]);
        else if (!libs[1].path) libs[1].path = argv[i];
        else libs[0].path = argv[i];
    }
    if (!libs[1].path || scale <= 0) {
        fprintf(stderr, "usage: %s OURS_LIB [REFERENCE_LIB] [-x SCALE]\n", argv[0]);
        return 2;
    }
    printf("bench_joints: dt 0.01, step counts x%g\n", scale);
    for (k = 0; k < 2; k++) {
        libs[k].ok = open_lib(&libs[k]);
        if (libs[k].ok) libs[k].InitODE2(0);
    }
    if (!libs[0].ok && !libs[1].ok) return 1;
    printf("\n%-15s %7s %13s %13s %9s   %s\n", "scene", "steps", "ODE ms/step", "ours ms/step", "ours/ODE",
           "checksums (ODE, ours)");
    for (sc = 0; sc < NSCENES; sc++) {
        int steps = (int)(scene_steps[sc] * scale + 0.5);
        double t[2] = {0, 0}, sum[2] = {0, 0};
        if (steps < 1) steps = 1;
        for (k = 0; k < 2; k++) {
            if (!libs[k].ok) continue;
            run(&libs[k], sc, steps / 10 + 1, &sum[k]); /* warm-up */
            t[k] = run(&libs[k], sc, steps, &sum[k]);
        }
        char ratio[32] = "-", ts0[32] = "-", ts1[32] = "-";
        if (libs[0].ok) snprintf(ts0, sizeof ts0, "%.4f", t[0] * 1e3);
        if (libs[1].ok) snprintf(ts1, sizeof ts1, "%.4f", t[1] * 1e3);
        if (libs[0].ok && libs[1].ok) snprintf(ratio, sizeof ratio, "%.3f", t[1] / t[0]);
        printf("%-15s %7d %13s %13s %9s   %.15g %.15g%s\n", scene_name[sc], steps, ts0, ts1, ratio, sum[0], sum[1],
               libs[0].ok && libs[1].ok && sum[0] != sum[1] ? "  (differ)" : "");
    }
    for (k = 0; k < 2; k++)
        if (libs[k].ok) libs[k].CloseODE();
    return 0;
}
