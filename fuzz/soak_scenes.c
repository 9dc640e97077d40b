/* soak_scenes: steps bench-like scenes for a long time with random pushes
 * and checks that the simulation stays sane:
 *   - every body's position, rotation and velocities stay finite;
 *   - energy stays bounded (no body faster than MAX_SPEED, no spin above
 *     MAX_SPIN: a blow-up, not a push, gets there);
 *   - nothing falls through the ground (z above the floor minus a margin);
 *   - no report on the error or debug channel (the scenes are valid input).
 * Scenes: a box pyramid on a plane (QuickStep), a ragdoll-like joint chain
 * (dWorldStep), mixed geoms in a hash space (QuickStep), bodies on a
 * trimesh terrain (QuickStep). Walls keep everything in the arena.
 * Usage: soak_scenes [--steps N] [--seed S] [--scene NAME]
 * Prints one line per scene and "soak: N passed, N failed". */
#include <ode/ode.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB 64
#define MAX_SPEED 200.0
#define MAX_SPIN 2000.0
#define FLOOR_MARGIN 0.5

static uint64_t rs = 1;
static double rnd01(void) {
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
    return (rs >> 11) * (1.0 / 9007199254740992.0);
}
static double runi(double a, double b) { return a + (b - a) * rnd01(); }

static int reports, messages;
static char last[200];
static void on_report(int num, const char *fmt, va_list ap) { (void)num; vsnprintf(last, sizeof last, fmt, ap); reports++; }
/* Messages (LCP trouble, joint warnings) are information, not failures. */
static void on_message(int num, const char *fmt, va_list ap) { (void)num; (void)fmt; (void)ap; messages++; }

typedef struct {
    const char *name;
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    dBodyID bodies[MAXB];
    int nb;
    int quick;
    double floor_z; /* lowest allowed z of a body centre */
    int max_contacts;
} Scene;

static Scene *cur;

static void near_cb(void *data, dGeomID a, dGeomID b) {
    (void)data;
    if (dGeomIsSpace(a) || dGeomIsSpace(b)) { dSpaceCollide2(a, b, data, near_cb); return; }
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    dContact c[8];
    int n = dCollide(a, b, cur->max_contacts, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; i++) {
        c[i].surface.mode = dContactBounce | dContactSoftCFM | dContactApprox1;
        c[i].surface.mu = 0.8;
        c[i].surface.bounce = 0.1;
        c[i].surface.bounce_vel = 0.1;
        c[i].surface.soft_cfm = 1e-5;
        dJointID j = dJointCreateContact(cur->world, cur->contacts, &c[i]);
        dJointAttach(j, b1, b2);
    }
}

static void base(Scene *s, const char *name, int quick) {
    memset(s, 0, sizeof *s);
    s->name = name;
    s->quick = quick;
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -9.81);
    dWorldSetCFM(s->world, 1e-5);
    dWorldSetERP(s->world, 0.2);
    dWorldSetQuickStepNumIterations(s->world, 20);
    dWorldSetContactMaxCorrectingVel(s->world, 10);
    dWorldSetContactSurfaceLayer(s->world, 0.001);
    s->space = dHashSpaceCreate(0);
    s->contacts = dJointGroupCreate(0);
    s->max_contacts = 4;
    /* ground and walls: an arena of 20 x 20 */
    dCreatePlane(s->space, 0, 0, 1, 0);
    dCreatePlane(s->space, 1, 0, 0, -10);
    dCreatePlane(s->space, -1, 0, 0, -10);
    dCreatePlane(s->space, 0, 1, 0, -10);
    dCreatePlane(s->space, 0, -1, 0, -10);
    s->floor_z = -FLOOR_MARGIN;
}

static dBodyID add_body(Scene *s, dGeomID g, double density) {
    dBodyID b = dBodyCreate(s->world);
    dMass m;
    switch (dGeomGetClass(g)) {
    case dSphereClass: dMassSetSphere(&m, density, dGeomSphereGetRadius(g)); break;
    case dBoxClass: { dVector3 l; dGeomBoxGetLengths(g, l); dMassSetBox(&m, density, l[0], l[1], l[2]); break; }
    case dCapsuleClass: { dReal r, l; dGeomCapsuleGetParams(g, &r, &l); dMassSetCapsule(&m, density, 3, r, l); break; }
    case dCylinderClass: { dReal r, l; dGeomCylinderGetParams(g, &r, &l); dMassSetCylinder(&m, density, 3, r, l); break; }
    default: dMassSetBox(&m, density, 1, 1, 1); break;
    }
    dBodySetMass(b, &m);
    dGeomSetBody(g, b);
    s->bodies[s->nb++] = b;
    return b;
}

static void scene_pyramid(Scene *s) {
    base(s, "box-pyramid-quickstep", 1);
    int layers = 5;
    for (int l = 0; l < layers; l++)
        for (int i = 0; i < layers - l; i++) {
            dGeomID g = dCreateBox(s->space, 1, 1, 1);
            dBodyID b = add_body(s, g, 1);
            dBodySetPosition(b, (i - (layers - l - 1) * 0.5) * 1.02, 0, 0.5 + l * 1.0);
        }
}

static void scene_chain(Scene *s) {
    base(s, "joint-chain-worldstep", 0);
    /* A ragdoll-like chain: capsules linked by ball, hinge and universal
     * joints, hanging from a fixed point, with its lower links on the floor. */
    dBodyID prev = NULL;
    for (int i = 0; i < 12; i++) {
        dGeomID g = dCreateCapsule(s->space, 0.15, 0.5);
        dBodyID b = add_body(s, g, 1);
        dBodySetPosition(b, i * 0.8, 0, 4);
        dMatrix3 R;
        dRFromAxisAndAngle(R, 0, 1, 0, M_PI / 2);
        dBodySetRotation(b, R);
        dJointID j;
        double ax = (i - 0.5) * 0.8;
        switch (i % 3) {
        case 0: j = dJointCreateBall(s->world, 0); dJointAttach(j, prev, b); dJointSetBallAnchor(j, ax, 0, 4); break;
        case 1: j = dJointCreateHinge(s->world, 0); dJointAttach(j, prev, b); dJointSetHingeAnchor(j, ax, 0, 4); dJointSetHingeAxis(j, 0, 1, 0);
            dJointSetHingeParam(j, dParamLoStop, -1.5); dJointSetHingeParam(j, dParamHiStop, 1.5); break;
        default: j = dJointCreateUniversal(s->world, 0); dJointAttach(j, prev, b); dJointSetUniversalAnchor(j, ax, 0, 4);
            dJointSetUniversalAxis1(j, 0, 1, 0); dJointSetUniversalAxis2(j, 0, 0, 1); break;
        }
        prev = b;
    }
}

static void scene_mixed(Scene *s) {
    base(s, "mixed-geoms-hash-quickstep", 1);
    static const double planes[] = { 1, 0, 0, .3, -1, 0, 0, .3, 0, 1, 0, .3, 0, -1, 0, .3, 0, 0, 1, .3, 0, 0, -1, .3 };
    static const double points[] = { .3, .3, .3, -.3, .3, .3, -.3, -.3, .3, .3, -.3, .3, .3, .3, -.3, -.3, .3, -.3, -.3, -.3, -.3, .3, -.3, -.3 };
    static const unsigned polys[] = { 4, 0, 3, 7, 4, 4, 1, 5, 6, 2, 4, 0, 4, 5, 1, 4, 3, 2, 6, 7, 4, 0, 1, 2, 3, 4, 4, 7, 6, 5 };
    for (int i = 0; i < 30; i++) {
        dGeomID g;
        switch (i % 5) {
        case 0: g = dCreateSphere(s->space, runi(0.2, 0.5)); break;
        case 1: g = dCreateBox(s->space, runi(0.3, 0.8), runi(0.3, 0.8), runi(0.3, 0.8)); break;
        case 2: g = dCreateCapsule(s->space, runi(0.1, 0.3), runi(0.2, 0.6)); break;
        case 3: g = dCreateCylinder(s->space, runi(0.2, 0.4), runi(0.2, 0.6)); break;
        default: g = dCreateConvex(s->space, planes, 6, points, 8, polys); break;
        }
        dBodyID b = add_body(s, g, 1);
        dBodySetPosition(b, runi(-4, 4), runi(-4, 4), runi(1, 6));
        dMatrix3 R;
        dRFromEulerAngles(R, runi(-3, 3), runi(-3, 3), runi(-3, 3));
        dBodySetRotation(b, R);
    }
}

static double terrain_v[21 * 21 * 3];
static int terrain_i[20 * 20 * 6];
static void scene_terrain(Scene *s) {
    base(s, "trimesh-terrain-quickstep", 1);
    int n = 21;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double *p = &terrain_v[3 * (j * n + i)];
            p[0] = i - 10; p[1] = j - 10; p[2] = 0.4 * sin(i * 0.7) * cos(j * 0.5) + 0.5;
        }
    int k = 0;
    for (int j = 0; j + 1 < n; j++)
        for (int i = 0; i + 1 < n; i++) {
            int a = j * n + i, b = a + 1, c = a + n, d = c + 1;
            terrain_i[k++] = a; terrain_i[k++] = b; terrain_i[k++] = d;
            terrain_i[k++] = a; terrain_i[k++] = d; terrain_i[k++] = c;
        }
    dTriMeshDataID data = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(data, terrain_v, 3 * sizeof(double), n * n, terrain_i, k, 3 * sizeof(int));
    dGeomTriMeshDataPreprocess2(data, (1U << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES), NULL);
    dCreateTriMesh(s->space, data, NULL, NULL, NULL);
    for (int i = 0; i < 16; i++) {
        dGeomID g = (i & 1) ? dCreateSphere(s->space, runi(0.25, 0.5)) : dCreateBox(s->space, runi(0.4, 0.8), runi(0.4, 0.8), runi(0.4, 0.8));
        dBodyID b = add_body(s, g, 1);
        dBodySetPosition(b, runi(-6, 6), runi(-6, 6), runi(2, 5));
    }
}

/* Checks one scene after a step; returns an error message or NULL. */
static const char *check(Scene *s, char *buf, size_t n) {
    for (int i = 0; i < s->nb; i++) {
        dBodyID b = s->bodies[i];
        const dReal *p = dBodyGetPosition(b), *R = dBodyGetRotation(b), *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
        for (int k = 0; k < 3; k++)
            if (!isfinite(p[k]) || !isfinite(v[k]) || !isfinite(w[k])) { snprintf(buf, n, "body %d has non-finite state", i); return buf; }
        for (int k = 0; k < 12; k++)
            if (!isfinite(R[k])) { snprintf(buf, n, "body %d has a non-finite rotation", i); return buf; }
        double sp = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), spin = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        if (sp > MAX_SPEED) { snprintf(buf, n, "body %d moves at %g m/s (energy blow-up)", i, sp); return buf; }
        if (spin > MAX_SPIN) { snprintf(buf, n, "body %d spins at %g rad/s (energy blow-up)", i, spin); return buf; }
        if (p[2] < s->floor_z) { snprintf(buf, n, "body %d is below the ground (z = %g)", i, p[2]); return buf; }
    }
    return NULL;
}

static int run_scene(void (*make)(Scene *), long steps, const char *only) {
    Scene s;
    make(&s);
    if (only && !strstr(s.name, only)) {
        dJointGroupDestroy(s.contacts); dSpaceDestroy(s.space); dWorldDestroy(s.world);
        return -1;
    }
    cur = &s;
    const double dt = 0.01;
    char buf[256];
    const char *err = NULL;
    double max_speed = 0;
    long i;
    reports = 0;
    for (i = 0; i < steps && !err; i++) {
        /* A random push every 50 steps: a horizontal kick and a lift. */
        if (i % 50 == 0) {
            dBodyID b = s.bodies[(int)(rnd01() * s.nb)];
            dMass m;
            dBodyGetMass(b, &m);
            dBodyEnable(b);
            dBodyAddForce(b, m.mass * runi(-300, 300), m.mass * runi(-300, 300), m.mass * runi(0, 600));
            dBodyAddTorque(b, runi(-5, 5), runi(-5, 5), runi(-5, 5));
        }
        dSpaceCollide(s.space, 0, near_cb);
        if (s.quick) dWorldQuickStep(s.world, dt);
        else dWorldStep(s.world, dt);
        dJointGroupEmpty(s.contacts);
        err = check(&s, buf, sizeof buf);
        if (!err && reports) { snprintf(buf, sizeof buf, "library report: %s", last); err = buf; }
        for (int k = 0; k < s.nb; k++) {
            const dReal *v = dBodyGetLinearVel(s.bodies[k]);
            double sp = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            if (sp > max_speed) max_speed = sp;
        }
    }
    if (err) printf("FAIL %s: step %ld: %s\n", s.name, i, err);
    else printf("ok   %s: %ld steps, %d bodies, max speed %.1f m/s, %d messages\n", s.name, steps, s.nb, max_speed, messages);
    messages = 0;
    fflush(stdout);
    dJointGroupDestroy(s.contacts);
    dSpaceDestroy(s.space);
    dWorldDestroy(s.world);
    return err ? 1 : 0;
}

int main(int argc, char **argv) {
    long steps = 1000000;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atol(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) rs = strtoull(argv[++i], NULL, 10) * 2654435761u + 1;
        else if (!strcmp(argv[i], "--scene") && i + 1 < argc) only = argv[++i];
        else { puts("usage: soak_scenes [--steps N] [--seed S] [--scene NAME-PART]"); return 2; }
    }
    dInitODE2(0);
    dSetErrorHandler(on_report);
    dSetDebugHandler(on_report);
    dSetMessageHandler(on_message);
    void (*scenes[])(Scene *) = { scene_pyramid, scene_chain, scene_mixed, scene_terrain };
    int pass = 0, fail = 0;
    for (unsigned i = 0; i < sizeof scenes / sizeof scenes[0]; i++) {
        int r = run_scene(scenes[i], steps, only);
        if (r == 0) pass++;
        else if (r > 0) fail++;
    }
    dCloseODE();
    printf("soak: %d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
