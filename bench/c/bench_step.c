/*
 * bench_step: times the same scene against Debian's libode.so.8 and our
 * libode.so in one run and prints the time per step and the ratio.
 *
 * Scene: N free boxes (default 1000) under gravity, each pushed by a force
 * and a torque every step; S steps (default 1000) of dWorldStep, then S
 * steps of dWorldQuickStep on a fresh world. Both libraries are opened with
 * dlopen(RTLD_LOCAL) and driven through dlsym'd entry points, so each one
 * resolves its own internal calls and nothing is shared between them.
 *
 * usage: bench_step OURS_LIB [REFERENCE_LIB] [-n BODIES] [-s STEPS]
 * A library missing one of the functions is reported and left out.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *Id;
typedef struct { double mass, c[4], I[12]; } Mass; /* ODE's dMass, double precision */

typedef struct {
    const char *name, *path;
    void *handle;
    int ok;
    int (*InitODE2)(unsigned);
    void (*CloseODE)(void);
    Id (*WorldCreate)(void);
    void (*WorldDestroy)(Id);
    void (*WorldSetGravity)(Id, double, double, double);
    int (*WorldStep)(Id, double);
    int (*WorldQuickStep)(Id, double);
    Id (*BodyCreate)(Id);
    void (*BodySetPosition)(Id, double, double, double);
    void (*BodySetAngularVel)(Id, double, double, double);
    void (*BodySetMass)(Id, const Mass *);
    void (*BodyAddForce)(Id, double, double, double);
    void (*BodyAddTorque)(Id, double, double, double);
    const double *(*BodyGetPosition)(Id);
    void (*MassSetBox)(Mass *, double, double, double, double);
} Lib;

static void *sym(Lib *l, const char *s, char *missing, size_t cap) {
    void *p = dlsym(l->handle, s);
    if (!p) {
        if (strlen(missing) + strlen(s) + 2 < cap) {
            if (*missing) strcat(missing, " ");
            strcat(missing, s);
        }
    }
    return p;
}

#define LOAD(field, name) *(void **)(&l->field) = sym(l, name, missing, sizeof missing)

static int open_lib(Lib *l) {
    char missing[1024] = "";
    l->handle = dlopen(l->path, RTLD_NOW | RTLD_LOCAL);
    if (!l->handle) {
        printf("%-5s %s: cannot open: %s\n", l->name, l->path, dlerror());
        return 0;
    }
    LOAD(InitODE2, "dInitODE2");
    LOAD(CloseODE, "dCloseODE");
    LOAD(WorldCreate, "dWorldCreate");
    LOAD(WorldDestroy, "dWorldDestroy");
    LOAD(WorldSetGravity, "dWorldSetGravity");
    LOAD(WorldStep, "dWorldStep");
    LOAD(WorldQuickStep, "dWorldQuickStep");
    LOAD(BodyCreate, "dBodyCreate");
    LOAD(BodySetPosition, "dBodySetPosition");
    LOAD(BodySetAngularVel, "dBodySetAngularVel");
    LOAD(BodySetMass, "dBodySetMass");
    LOAD(BodyAddForce, "dBodyAddForce");
    LOAD(BodyAddTorque, "dBodyAddTorque");
    LOAD(BodyGetPosition, "dBodyGetPosition");
    LOAD(MassSetBox, "dMassSetBox");
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

/* Runs the scene; returns seconds per step and a checksum of positions. */
static double run(Lib *l, int n, int steps, int quick, double *checksum) {
    Mass m;
    Id w = l->WorldCreate();
    Id *b = malloc(sizeof(Id) * (size_t)n);
    int i, s;
    l->WorldSetGravity(w, 0, 0, -9.81);
    l->MassSetBox(&m, 1000, 0.1, 0.2, 0.3);
    for (i = 0; i < n; i++) {
        b[i] = l->BodyCreate(w);
        l->BodySetMass(b[i], &m);
        l->BodySetPosition(b[i], i % 32, (i / 32) % 32, i / 1024);
        l->BodySetAngularVel(b[i], 0.1 * (i % 7), 0.2, 0.05 * (i % 3));
    }
    double t0 = now();
    for (s = 0; s < steps; s++) {
        for (i = 0; i < n; i++) {
            l->BodyAddForce(b[i], 1.0, 0.5 * (i % 5), 9.0);
            l->BodyAddTorque(b[i], 0.01, 0, 0.02);
        }
        if (quick)
            l->WorldQuickStep(w, 0.001);
        else
            l->WorldStep(w, 0.001);
    }
    double t = (now() - t0) / steps;
    *checksum = 0;
    for (i = 0; i < n; i++) {
        const double *p = l->BodyGetPosition(b[i]);
        *checksum += p[0] + 2 * p[1] + 3 * p[2];
    }
    l->WorldDestroy(w);
    free(b);
    return t;
}

int main(int argc, char **argv) {
    Lib libs[2] = {{.name = "ode", .path = "/usr/lib/x86_64-linux-gnu/libode.so.8"},
                   {.name = "ours", .path = NULL}};
    int n = 1000, steps = 1000, i, k;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) steps = atoi(argv[++i]);
        else if (!libs[1].path) libs[1].path = argv[i];
        else libs[0].path = argv[i];
    }
    if (!libs[1].path || n <= 0 || steps <= 0) {
        fprintf(stderr, "usage: %s OURS_LIB [REFERENCE_LIB] [-n BODIES] [-s STEPS]\n", argv[0]);
        return 2;
    }
    printf("bench_step: %d free bodies, %d steps per stepper, dt 0.001\n", n, steps);
    for (k = 0; k < 2; k++) {
        libs[k].ok = open_lib(&libs[k]);
        if (libs[k].ok) libs[k].InitODE2(0);
    }
    if (!libs[0].ok && !libs[1].ok) return 1;

    const char *names[2] = {"dWorldStep", "dWorldQuickStep"};
    printf("\n%-16s %14s %14s %10s   %s\n", "stepper", "ODE us/step", "ours us/step", "ours/ODE", "checksums (ODE, ours)");
    for (int quick = 0; quick < 2; quick++) {
        double t[2] = {0, 0}, sum[2] = {0, 0};
        for (k = 0; k < 2; k++) {
            if (!libs[k].ok) continue;
            run(&libs[k], n, steps / 10 + 1, quick, &sum[k]); /* warm-up */
            t[k] = run(&libs[k], n, steps, quick, &sum[k]);
        }
        char ratio[32] = "-", ts0[32] = "-", ts1[32] = "-";
        if (libs[0].ok) snprintf(ts0, sizeof ts0, "%.2f", t[0] * 1e6);
        if (libs[1].ok) snprintf(ts1, sizeof ts1, "%.2f", t[1] * 1e6);
        if (libs[0].ok && libs[1].ok) snprintf(ratio, sizeof ratio, "%.3f", t[1] / t[0]);
        printf("%-16s %14s %14s %10s   %.12g %.12g\n", names[quick], ts0, ts1, ratio, sum[0], sum[1]);
    }
    for (k = 0; k < 2; k++)
        if (libs[k].ok) libs[k].CloseODE();
    return 0;
}
