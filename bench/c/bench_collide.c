/*
 * bench_collide: times collision detection on the same scene against
 * Debian's libode.so.8 and our libode.so in one run and prints the time per
 * pass and the ratio ours/ODE.
 *
 * Scene: N mixed geoms (default 5000: spheres, boxes, capsules, a third on
 * bodies) spread in a 60-unit cube, in a hash space, a sweep-and-prune space
 * and a quadtree space. Each pass moves every geom a little (untimed) and
 * then times dSpaceCollide with a near callback that either only counts the
 * pairs ("broad") or also calls dCollide on them ("+dCollide"). Both
 * libraries are opened with dlopen(RTLD_LOCAL) and driven through dlsym'd
 * entry points, so each one resolves its own internal calls.
 *
 * usage: bench_collide OURS_LIB [REFERENCE_LIB] [-n GEOMS] [-p PASSES]
 * A library missing one of the functions is reported and left out.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *Id;
typedef struct { double pos[4], normal[4], depth; Id g1, g2; int side1, side2; } ContactGeom;
typedef void NearFn(void *, Id, Id);

typedef struct {
    const char *name, *path;
    void *handle;
    int ok;
    int (*InitODE2)(unsigned);
    void (*CloseODE)(void);
    Id (*WorldCreate)(void);
    void (*WorldDestroy)(Id);
    Id (*BodyCreate)(Id);
    Id (*HashSpaceCreate)(Id);
    Id (*SweepAndPruneSpaceCreate)(Id, int);
    Id (*QuadTreeSpaceCreate)(Id, const double *, const double *, int);
    void (*SpaceDestroy)(Id);
    void (*SpaceCollide)(Id, void *, NearFn *);
    Id (*CreateSphere)(Id, double);
    Id (*CreateBox)(Id, double, double, double);
    Id (*CreateCapsule)(Id, double, double);
    void (*GeomSetPosition)(Id, double, double, double);
    void (*GeomSetBody)(Id, Id);
    int (*Collide)(Id, Id, int, ContactGeom *, int);
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
    LOAD(BodyCreate, "dBodyCreate");
    LOAD(HashSpaceCreate, "dHashSpaceCreate");
    LOAD(SweepAndPruneSpaceCreate, "dSweepAndPruneSpaceCreate");
    LOAD(QuadTreeSpaceCreate, "dQuadTreeSpaceCreate");
    LOAD(SpaceDestroy, "dSpaceDestroy");
    LOAD(SpaceCollide, "dSpaceCollide");
    LOAD(CreateSphere, "dCreateSphere");
    LOAD(CreateBox, "dCreateBox");
    LOAD(CreateCapsule, "dCreateCapsule");
    LOAD(GeomSetPosition, "dGeomSetPosition");
    LOAD(GeomSetBody, "dGeomSetBody");
    LOAD(Collide, "dCollide");
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

static unsigned long long rng;
static double urand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

typedef struct { Lib *l; long pairs, contacts; int narrow; } Ctx;
static void near(void *data, Id a, Id b) {
    Ctx *c = data;
    c->pairs++;
    if (c->narrow) {
        ContactGeom k[4];
        c->contacts += c->l->Collide(a, b, 4, k, (int)sizeof(ContactGeom));
    }
}

/* Builds the scene in a space of `kind`, runs `passes` timed passes;
 * returns seconds per pass and the pair/contact counts of the last one. */
static double run(Lib *l, int kind, int n, int passes, int narrow, long *pairs, long *contacts) {
    Id w = l->WorldCreate(), s;
    double c[4] = {0, 0, 0, 0}, e[4] = {32, 32, 32, 0};
    if (kind == 0) s = l->HashSpaceCreate(0);
    else if (kind == 1) s = l->SweepAndPruneSpaceCreate(0, 0 | (2 << 2) | (1 << 4));
    else s = l->QuadTreeSpaceCreate(0, c, e, 6);
    Id *g = malloc(sizeof(Id) * (size_t)n);
    double *p = malloc(sizeof(double) * 3 * (size_t)n);
    rng = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < n; i++) {
        int k = i % 3;
        if (k == 0) g[i] = l->CreateSphere(s, 0.2 + 0.6 * urand());
        else if (k == 1) g[i] = l->CreateBox(s, 0.2 + urand(), 0.2 + urand(), 0.2 + urand());
        else g[i] = l->CreateCapsule(s, 0.1 + 0.3 * urand(), 0.5 + urand());
        if (i % 3 == 1) l->GeomSetBody(g[i], l->BodyCreate(w));
        for (int j = 0; j < 3; j++) p[3 * i + j] = 60 * urand() - 30;
        l->GeomSetPosition(g[i], p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    }
    Ctx ctx = {l, 0, 0, narrow};
    l->SpaceCollide(s, &ctx, near); /* warm-up */
    double total = 0;
    for (int pass = 0; pass < passes; pass++) {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 3; j++) p[3 * i + j] += 0.05 * (urand() - 0.5);
            l->GeomSetPosition(g[i], p[3 * i], p[3 * i + 1], p[3 * i + 2]);
        }
        ctx.pairs = ctx.contacts = 0;
        double t0 = now();
        l->SpaceCollide(s, &ctx, near);
        total += now() - t0;
    }
    *pairs = ctx.pairs;
    *contacts = ctx.contacts;
    l->SpaceDestroy(s);
    l->WorldDestroy(w);
    free(g);
    free(p);
    return total / passes;
}

int main(int argc, char **argv) {
    Lib libs[2] = {{.name = "ode", .path = "/usr/lib/x86_64-linux-gnu/libode.so.8"}, {.name = "ours", .path = NULL}};
    int n = 5000, passes = 50, i, k;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-p") && i + 1 < argc) passes = atoi(argv[++i]);
        else if (!libs[1].path) libs[1].path = argv[i];
        else libs[0].path = argv[i];
    }
    if (!libs[1].path || n <= 0 || passes <= 0) {
        fprintf(stderr, "usage: %s OURS_LIB [REFERENCE_LIB] [-n GEOMS] [-p PASSES]\n", argv[0]);
        return 2;
    }
    printf("bench_collide: %d mixed geoms, %d passes (every geom moved before each)\n", n, passes);
    for (k = 0; k < 2; k++) {
        libs[k].ok = open_lib(&libs[k]);
        if (libs[k].ok) libs[k].InitODE2(0);
    }
    if (!libs[0].ok && !libs[1].ok) return 1;
    const char *spaces[3] = {"hash", "sap", "quadtree"};
    printf("\n%-20s %12s %12s %9s   %s\n", "space / pass", "ODE us", "ours us", "ours/ODE", "pairs, contacts (ODE | ours)");
    for (int narrow = 0; narrow < 2; narrow++) {
        for (int kind = 0; kind < 3; kind++) {
            double t[2] = {0, 0};
            long pairs[2] = {0, 0}, contacts[2] = {0, 0};
            for (k = 0; k < 2; k++)
                if (libs[k].ok) t[k] = run(&libs[k], kind, n, passes, narrow, &pairs[k], &contacts[k]);
            char label[64], ratio[32] = "-";
            snprintf(label, sizeof label, "%s %s", spaces[kind], narrow ? "+dCollide" : "broad");
            if (libs[0].ok && libs[1].ok) snprintf(ratio, sizeof ratio, "%.3f", t[1] / t[0]);
            printf("%-20s %12.1f %12.1f %9s   %ld, %ld | %ld, %ld\n", label, t[0] * 1e6, t[1] * 1e6, ratio, pairs[0],
                   contacts[0], pairs[1], contacts[1]);
        }
    }
    for (k = 0; k < 2; k++)
        if (libs[k].ok) libs[k].CloseODE();
    return 0;
}
