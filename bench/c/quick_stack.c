/*
 * quick_stack: dWorldQuickStep on stacks of boxes resting on hand-made
 * contact joints, timed against Debian's libode.so.8 and our libode.so in
 * one run (both opened with dlopen(RTLD_LOCAL), like bench_step.c).
 *
 * Scene: K stacks (default 1) of 10 unit boxes, S steps (default 500: the
 * hand-made contacts assume upright boxes, so long runs drift apart); every step each box gets
 * four contacts (dContactApprox1, mu 0.5) at its bottom corners with the
 * box below (the static world for the lowest one), 20 QuickStep
 * iterations (ODE's default), dt 0.01, dRandSetSeed(0) first. Prints
 * us/step for each library, the ratio ours/ODE and a position checksum
 * (equal checksums: the same trajectory).
 *
 * usage: quick_stack OURS_LIB [REFERENCE_LIB] [-k STACKS] [-s STEPS]
 * build: cc -O2 -std=gnu99 -DdDOUBLE bench/c/quick_stack.c -o quick_stack -ldl
 * (ODE's headers are used for the dContact layout only).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ode/ode.h>

#define HIGH 10

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
    int (*WorldQuickStep)(dWorldID, dReal);
    dBodyID (*BodyCreate)(dWorldID);
    void (*BodySetPosition)(dBodyID, dReal, dReal, dReal);
    void (*BodySetMass)(dBodyID, const dMass *);
    const dReal *(*BodyGetPosition)(dBodyID);
    void (*MassSetBox)(dMass *, dReal, dReal, dReal, dReal);
    dJointGroupID (*JointGroupCreate)(int);
    void (*JointGroupEmpty)(dJointGroupID);
    void (*JointGroupDestroy)(dJointGroupID);
    dJointID (*JointCreateContact)(dWorldID, dJointGroupID, const dContact *);
    void (*JointAttach)(dJointID, dBodyID, dBodyID);
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
    LOAD(WorldQuickStep, "dWorldQuickStep");
    LOAD(BodyCreate, "dBodyCreate");
    LOAD(BodySetPosition, "dBodySetPosition");
    LOAD(BodySetMass, "dBodySetMass");
    LOAD(BodyGetPosition, "dBodyGetPosition");
    LOAD(MassSetBox, "dMassSetBox");
    LOAD(JointGroupCreate, "dJointGroupCreate");
    LOAD(JointGroupEmpty, "dJointGroupEmpty");
    LOAD(JointGroupDestroy, "dJointGroupDestroy");
    LOAD(JointCreateContact, "dJointCreateContact");
    LOAD(JointAttach, "dJointAttach");
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

static void contacts(Lib *l, dWorldID w, dJointGroupID g, dBodyID top, dBodyID below) {
    const dReal *p = l->BodyGetPosition(top);
    dReal floor = below ? l->BodyGetPosition(below)[2] + 0.5 : 0;
    for (int k = 0; k < 4; k++) {
        dContact c;
        memset(&c, 0, sizeof c);
        c.surface.mode = dContactApprox1;
        c.surface.mu = 0.5;
        c.geom.pos[0] = p[0] + ((k & 1) ? 0.5 : -0.5);
        c.geom.pos[1] = p[1] + ((k & 2) ? 0.5 : -0.5);
        c.geom.pos[2] = floor;
        c.geom.normal[2] = 1;
        c.geom.depth = floor - (p[2] - 0.5);
        l->JointAttach(l->JointCreateContact(w, g, &c), top, below);
    }
}

/* Runs the scene; returns seconds per step and a checksum of positions. */
static double run(Lib *l, int stacks, int steps, double *checksum) {
    dMass m;
    dWorldID w = l->WorldCreate();
    dJointGroupID g = l->JointGroupCreate(0);
    dBodyID *b = malloc(sizeof(dBodyID) * (size_t)(stacks * HIGH));
    int i, k, s;
    l->RandSetSeed(0);
    l->WorldSetGravity(w, 0, 0, -9.81);
    l->WorldSetQuickStepNumIterations(w, 20);
    l->MassSetBox(&m, 1, 1, 1, 1);
    for (k = 0; k < stacks; k++)
        for (i = 0; i < HIGH; i++) {
            dBodyID x = b[k * HIGH + i] = l->BodyCreate(w);
            l->BodySetMass(x, &m);
            l->BodySetPosition(x, 3.0 * k + 0.002 * i, 0.001 * i, 0.5 + 0.999 * i);
        }
    double t0 = now();
    for (s = 0; s < steps; s++) {
        for (k = 0; k < stacks; k++)
            for (i = 0; i < HIGH; i++)
                contacts(l, w, g, b[k * HIGH + i], i ? b[k * HIGH + i - 1] : 0);
        l->WorldQuickStep(w, 0.01);
        l->JointGroupEmpty(g);
    }
    double t = (now() - t0) / steps;
    *checksum = 0;
    for (i = 0; i < stacks * HIGH; i++) {
        const dReal *p = l->BodyGetPosition(b[i]);
        *checksum += p[0] + 2 * p[1] + 3 * p[2];
    }
    l->JointGroupDestroy(g);
    l->WorldDestroy(w);
    free(b);
    return t;
}

int main(int argc, char **argv) {
    Lib libs[2] = {{.name = "ode", .path = "/usr/lib/x86_64-linux-gnu/libode.so.8"},
                   {.name = "ours", .path = NULL}};
    int stacks = 1, steps = 500, i, k;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-k") && i + 1 < argc) stacks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) steps = atoi(argv[++i]);
        else if (!libs[1].path) libs[1].path = argv[i];
        else libs[0].path = argv[i];
    }
    if (!libs[1].path || stacks <= 0 || steps <= 0) {
        fprintf(stderr, "usage: %s OURS_LIB [REFERENCE_LIB] [-k STACKS] [-s STEPS]\n", argv[0]);
        return 2;
    }
    printf("quick_stack: %d stack(s) of %d boxes on contacts, %d QuickSteps, 20 iterations, dt 0.01\n",
           stacks, HIGH, steps);
    for (k = 0; k < 2; k++) {
        libs[k].ok = open_lib(&libs[k]);
        if (libs[k].ok) libs[k].InitODE2(0);
    }
    if (!libs[0].ok && !libs[1].ok) return 1;
    double t[2] = {0, 0}, sum[2] = {0, 0};
    for (k = 0; k < 2; k++) {
        if (!libs[k].ok) continue;
        run(&libs[k], stacks, steps / 10 + 1, &sum[k]); /* warm-up */
        t[k] = run(&libs[k], stacks, steps, &sum[k]);
    }
    char ratio[32] = "-", ts0[32] = "-", ts1[32] = "-";
    if (libs[0].ok) snprintf(ts0, sizeof ts0, "%.2f", t[0] * 1e6);
    if (libs[1].ok) snprintf(ts1, sizeof ts1, "%.2f", t[1] * 1e6);
    if (libs[0].ok && libs[1].ok) snprintf(ratio, sizeof ratio, "%.3f", t[1] / t[0]);
    printf("\n%-16s %14s %14s %10s   %s\n", "scene", "ODE us/step", "ours us/step", "ours/ODE", "checksums (ODE, ours)");
    printf("%-16s %14s %14s %10s   %.12g %.12g\n", "quick_stack", ts0, ts1, ratio, sum[0], sum[1]);
    for (k = 0; k < 2; k++)
        if (libs[k].ok) libs[k].CloseODE();
    return 0;
}
