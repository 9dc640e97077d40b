/*
 * bench_trimesh: times trimesh scenes against Debian's libode.so.8 and our
 * libode.so in one run and prints the time and the ratio ours/ODE.
 *
 * Scenes:
 *  - terrain: 200 bodies (100 boxes, 100 spheres) dropped onto a
 *    20,000-triangle terrain mesh (100x100 cells, rolling heights), S steps
 *    (default 300) of dWorldQuickStep at 0.01 s with a hash space; the time
 *    covers dSpaceCollide (contacts made into a joint group) and the step;
 *  - mesh-mesh: two 5,000-triangle closed meshes (UV spheres of radius 1,
 *    50x50 segments) overlapping by 0.05-0.2 at P placements (default 200),
 *    one dCollide (up to 64 contacts) per placement.
 * Both libraries are opened with dlopen(RTLD_LOCAL) and driven through
 * dlsym'd entry points, so each one resolves its own internal calls.
 *
 * usage: bench_trimesh OURS_LIB [REFERENCE_LIB] [-s STEPS] [-p PLACEMENTS]
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PI 3.14159265358979323846

typedef void *Id;
typedef struct { double pos[4], normal[4], depth; Id g1, g2; int side1, side2; } ContactGeom;
typedef struct {
    int mode;
    double mu, mu2, rho, rho2, rhoN, bounce, bounce_vel, soft_erp, soft_cfm, motion1, motion2, motionN, slip1, slip2;
} Surface;
typedef struct { Surface surface; ContactGeom geom; double fdir1[4]; } Contact;
typedef struct { double mass, c[4], I[12]; } Mass;
typedef void NearFn(void *, Id, Id);

typedef struct {
    const char *name, *path;
    void *handle;
    int ok;
    int (*InitODE2)(unsigned);
    void (*CloseODE)(void);
    Id (*WorldCreate)(void);
    void (*WorldDestroy)(Id);
    void (*WorldSetGravity)(Id, double, double, double);
    int (*WorldQuickStep)(Id, double);
    Id (*BodyCreate)(Id);
    void (*BodySetPosition)(Id, double, double, double);
    void (*BodySetMass)(Id, const Mass *);
    const double *(*BodyGetPosition)(Id);
    void (*MassSetBox)(Mass *, double, double, double, double);
    void (*MassSetSphere)(Mass *, double, double);
    Id (*HashSpaceCreate)(Id);
    void (*SpaceDestroy)(Id);
    void (*SpaceCollide)(Id, void *, NearFn *);
    Id (*CreateBox)(Id, double, double, double);
    Id (*CreateSphere)(Id, double);
    Id (*CreateTriMesh)(Id, Id, void *, void *, void *);
    Id (*TriMeshDataCreate)(void);
    void (*TriMeshDataDestroy)(Id);
    void (*TriMeshDataBuildSingle)(Id, const void *, int, int, const void *, int, int);
    void (*GeomSetBody)(Id, Id);
    Id (*GeomGetBody)(Id);
    void (*GeomSetPosition)(Id, double, double, double);
    void (*GeomDestroy)(Id);
    int (*Collide)(Id, Id, int, ContactGeom *, int);
    Id (*JointGroupCreate)(int);
    void (*JointGroupEmpty)(Id);
    void (*JointGroupDestroy)(Id);
    Id (*JointCreateContact)(Id, Id, const Contact *);
    void (*JointAttach)(Id, Id, Id);
} Lib;

static int open_lib(Lib *l) {
    char missing[1024] = "";
    l->handle = dlopen(l->path, RTLD_NOW | RTLD_LOCAL);
    if (!l->handle) {
        printf("%-5s %s: cannot open: %s\n", l->name, l->path, dlerror());
        return 0;
    }
#define LOAD(field, s)                                                                   \
    do {                                                                                 \
        *(void **)(&l->field) = dlsym(l->handle, s);                                     \
        if (!l->field && strlen(missing) + strlen(s) + 2 < sizeof missing) {             \
            if (*missing) strcat(missing, " ");                                          \
            strcat(missing, s);                                                          \
        }                                                                                \
    } while (0)
    LOAD(InitODE2, "dInitODE2");
    LOAD(CloseODE, "dCloseODE");
    LOAD(WorldCreate, "dWorldCreate");
    LOAD(WorldDestroy, "dWorldDestroy");
    LOAD(WorldSetGravity, "dWorldSetGravity");
    LOAD(WorldQuickStep, "dWorldQuickStep");
    LOAD(BodyCreate, "dBodyCreate");
    LOAD(BodySetPosition, "dBodySetPosition");
    LOAD(BodySetMass, "dBodySetMass");
    LOAD(BodyGetPosition, "dBodyGetPosition");
    LOAD(MassSetBox, "dMassSetBox");
    LOAD(MassSetSphere, "dMassSetSphere");
    LOAD(HashSpaceCreate, "dHashSpaceCreate");
    LOAD(SpaceDestroy, "dSpaceDestroy");
    LOAD(SpaceCollide, "dSpaceCollide");
    LOAD(CreateBox, "dCreateBox");
    LOAD(CreateSphere, "dCreateSphere");
    LOAD(CreateTriMesh, "dCreateTriMesh");
    LOAD(TriMeshDataCreate, "dGeomTriMeshDataCreate");
    LOAD(TriMeshDataDestroy, "dGeomTriMeshDataDestroy");
    LOAD(TriMeshDataBuildSingle, "dGeomTriMeshDataBuildSingle");
    LOAD(GeomSetBody, "dGeomSetBody");
    LOAD(GeomGetBody, "dGeomGetBody");
    LOAD(GeomSetPosition, "dGeomSetPosition");
    LOAD(GeomDestroy, "dGeomDestroy");
    LOAD(Collide, "dCollide");
    LOAD(JointGroupCreate, "dJointGroupCreate");
    LOAD(JointGroupEmpty, "dJointGroupEmpty");
    LOAD(JointGroupDestroy, "dJointGroupDestroy");
    LOAD(JointCreateContact, "dJointCreateContact");
    LOAD(JointAttach, "dJointAttach");
    if (*missing) {
        printf("%-5s %s: missing %s\n", l->name, l->path, missing);
        return 0;
    }
    return 1;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Terrain: (G+1)^2 vertices, 2 G^2 triangles. */
#define G 100
static float ter_v[(G + 1) * (G + 1)][3];
static int ter_i[G * G * 6];
static double height(double x, double y) { return 0.6 * sin(0.35 * x) * cos(0.3 * y) + 0.02 * x; }
static void build_terrain(void) {
    for (int j = 0; j <= G; j++)
        for (int i = 0; i <= G; i++) {
            float *v = ter_v[j * (G + 1) + i];
            v[0] = (float)(i - G / 2) * 0.4f;
            v[1] = (float)(j - G / 2) * 0.4f;
            v[2] = (float)height(v[0], v[1]);
        }
    int n = 0;
    for (int j = 0; j < G; j++)
        for (int i = 0; i < G; i++) {
            int a = j * (G + 1) + i, b = a + 1, c = a + G + 1, d = c + 1;
            int T[6] = {a, b, d, a, d, c};
            for (int k = 0; k < 6; k++) ter_i[n++] = T[k];
        }
}

/* UV sphere: S segments around, S rings; 2 S (S - 1) triangles ~ 5k for S = 50. */
#define S 50
static float sph_v[S * (S - 1) + 2][3];
static int sph_i[2 * S * (S - 1) * 3];
static int sph_nt;
static void build_sphere(void) {
    int nv = 0;
    sph_v[nv][0] = 0; sph_v[nv][1] = 0; sph_v[nv][2] = 1; nv++;
    for (int r = 1; r < S; r++) {
        double th = PI * r / S;
        for (int s = 0; s < S; s++) {
            double ph = 2 * PI * s / S;
            sph_v[nv][0] = (float)(sin(th) * cos(ph));
            sph_v[nv][1] = (float)(sin(th) * sin(ph));
            sph_v[nv][2] = (float)cos(th);
            nv++;
        }
    }
    sph_v[nv][0] = 0; sph_v[nv][1] = 0; sph_v[nv][2] = -1; nv++;
    int n = 0;
#define RING(r, s) (1 + ((r) - 1) * S + ((s) % S))
    for (int s = 0; s < S; s++) { sph_i[n++] = 0; sph_i[n++] = RING(1, s); sph_i[n++] = RING(1, s + 1); }
    for (int r = 1; r < S - 1; r++)
        for (int s = 0; s < S; s++) {
            int a = RING(r, s), b = RING(r, s + 1), c = RING(r + 1, s), d = RING(r + 1, s + 1);
            sph_i[n++] = a; sph_i[n++] = c; sph_i[n++] = d;
            sph_i[n++] = a; sph_i[n++] = d; sph_i[n++] = b;
        }
    for (int s = 0; s < S; s++) { sph_i[n++] = nv - 1; sph_i[n++] = RING(S - 1, s + 1); sph_i[n++] = RING(S - 1, s); }
    sph_nt = n / 3;
}

static Lib *cur;
static Id cur_world, cur_group;
static long cur_contacts;

static void near(void *data, Id a, Id b) {
    (void)data;
    Contact c[8];
    ContactGeom g[8];
    int n = cur->Collide(a, b, 8, g, sizeof(ContactGeom));
    for (int k = 0; k < n; k++) {
        memset(&c[k], 0, sizeof c[k]);
        c[k].geom = g[k];
        c[k].surface.mode = 0;
        c[k].surface.mu = 0.8;
        cur->JointAttach(cur->JointCreateContact(cur_world, cur_group, &c[k]), cur->GeomGetBody(a), cur->GeomGetBody(b));
    }
    cur_contacts += n;
}

static double terrain(Lib *l, int steps, long *contacts, double *zmean) {
    cur = l;
    Id w = l->WorldCreate();
    l->WorldSetGravity(w, 0, 0, -9.81);
    Id space = l->HashSpaceCreate(0);
    Id group = l->JointGroupCreate(0);
    Id data = l->TriMeshDataCreate();
    l->TriMeshDataBuildSingle(data, ter_v, 3 * sizeof(float), (G + 1) * (G + 1), ter_i, G * G * 6, 3 * sizeof(int));
    l->CreateTriMesh(space, data, 0, 0, 0);
    Id bodies[200];
    unsigned long long r = 12345;
    for (int i = 0; i < 200; i++) {
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        double x = ((r >> 20) % 1000) / 1000.0 * 30 - 15;
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        double y = ((r >> 20) % 1000) / 1000.0 * 30 - 15;
        Id b = l->BodyCreate(w);
        l->BodySetPosition(b, x, y, height(x, y) + 1.0 + 0.01 * i);
        Mass m;
        Id g;
        if (i % 2) {
            l->MassSetBox(&m, 1.0, 0.5, 0.4, 0.3);
            g = l->CreateBox(space, 0.5, 0.4, 0.3);
        } else {
            l->MassSetSphere(&m, 1.0, 0.25);
            g = l->CreateSphere(space, 0.25);
        }
        l->BodySetMass(b, &m);
        l->GeomSetBody(g, b);
        bodies[i] = b;
    }
    cur_world = w;
    cur_group = group;
    cur_contacts = 0;
    double t0 = now();
    for (int s = 0; s < steps; s++) {
        l->SpaceCollide(space, 0, near);
        l->WorldQuickStep(w, 0.01);
        l->JointGroupEmpty(group);
    }
    double t = now() - t0;
    double z = 0;
    for (int i = 0; i < 200; i++) {
        const double *p = l->BodyGetPosition(bodies[i]);
        z += p[2] - height(p[0], p[1]);
    }
    *zmean = z / 200;
    *contacts = cur_contacts;
    l->JointGroupDestroy(group);
    l->SpaceDestroy(space);
    l->TriMeshDataDestroy(data);
    l->WorldDestroy(w);
    return t;
}

static double mesh_mesh(Lib *l, int placements, long *contacts) {
    Id data = l->TriMeshDataCreate();
    l->TriMeshDataBuildSingle(data, sph_v, 3 * sizeof(float), S * (S - 1) + 2, sph_i, sph_nt * 3, 3 * sizeof(int));
    Id a = l->CreateTriMesh(0, data, 0, 0, 0);
    Id b = l->CreateTriMesh(0, data, 0, 0, 0);
    ContactGeom g[64];
    long n = 0;
    double t0 = now();
    for (int i = 0; i < placements; i++) {
        double ang = 0.1 * i, overlap = 0.05 + 0.15 * (i % 7) / 6.0;
        double d = 2.0 - overlap;
        l->GeomSetPosition(b, d * cos(ang) * 0.8, d * sin(ang) * 0.8, d * 0.6);
        n += l->Collide(a, b, 64, g, sizeof(ContactGeom));
    }
    double t = now() - t0;
    *contacts = n;
    l->GeomDestroy(a);
    l->GeomDestroy(b);
    l->TriMeshDataDestroy(data);
    return t;
}

int main(int argc, char **argv) {
    Lib libs[2] = {{.name = "ode", .path = "/usr/lib/x86_64-linux-gnu/libode.so.8"}, {.name = "ours", .path = NULL}};
    int steps = 300, placements = 200, i, k;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-s") && i + 1 < argc) steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-p") && i + 1 < argc) placements = atoi(argv[++i]);
        else if (!libs[1].path) libs[1].path = argv[i];
        else libs[0].path = argv[i];
    }
    if (!libs[1].path || steps <= 0 || placements <= 0) {
        fprintf(stderr, "usage: %s OURS_LIB [REFERENCE_LIB] [-s STEPS] [-p PLACEMENTS]\n", argv[0]);
        return 2;
    }
    build_terrain();
    build_sphere();
    for (k = 0; k < 2; k++) {
        libs[k].ok = open_lib(&libs[k]);
        if (libs[k].ok) libs[k].InitODE2(0);
    }
    if (!libs[0].ok && !libs[1].ok) return 1;
    printf("bench_trimesh: terrain %d triangles, 200 bodies, %d QuickSteps; mesh-mesh 2 x %d triangles, %d dCollide\n",
           G * G * 2, steps, sph_nt, placements);
    printf("\n%-22s %12s %12s %9s   %s\n", "scene", "ODE ms", "ours ms", "ours/ODE", "contacts (ODE | ours)");
    {
        double t[2] = {0, 0}, z[2] = {0, 0};
        long c[2] = {0, 0};
        for (k = 0; k < 2; k++)
            if (libs[k].ok) t[k] = terrain(&libs[k], steps, &c[k], &z[k]);
        char ratio[32] = "-";
        if (libs[0].ok && libs[1].ok) snprintf(ratio, sizeof ratio, "%.3f", t[1] / t[0]);
        printf("%-22s %12.1f %12.1f %9s   %ld | %ld (mean height over terrain %.3f | %.3f)\n", "terrain 200 bodies",
               t[0] * 1e3, t[1] * 1e3, ratio, c[0], c[1], z[0], z[1]);
    }
    {
        double t[2] = {0, 0};
        long c[2] = {0, 0};
        for (k = 0; k < 2; k++)
            if (libs[k].ok) t[k] = mesh_mesh(&libs[k], placements, &c[k]);
        char ratio[32] = "-";
        if (libs[0].ok && libs[1].ok) snprintf(ratio, sizeof ratio, "%.3f", t[1] / t[0]);
        printf("%-22s %12.1f %12.1f %9s   %ld | %ld\n", "mesh-mesh 5k x 5k", t[0] * 1e3, t[1] * 1e3, ratio, c[0], c[1]);
    }
    for (k = 0; k < 2; k++)
        if (libs[k].ok) libs[k].CloseODE();
    return 0;
}
