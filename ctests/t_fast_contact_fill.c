/* Fast QuickStep (issue 13): contacts are built straight into the solver's
 * lanes from the contact (four at a time where four plain contacts share a
 * block), except contacts with a dJointFeedback, which go through the
 * joint's rows as every other joint. Both must give the same bits: two
 * copies of one scene, stepped in fast mode, one with a feedback on every
 * contact, must keep bit-identical positions, rotations and velocities.
 * The scene mixes the surface modes each path handles: plain
 * dContactApprox1 contacts; with soft ERP/CFM, slip, motion, a second mu;
 * with bounce; with fdir1; mu2 = 0 (two rows); mu = 0 (one row); box
 * friction (no findex); contacts with the plane (static side) taken in both
 * geom orders (the body second: a reversed attachment); a finite maximum
 * correcting velocity and a surface layer. Also checks the scene is alive
 * (contacts made, feedback forces nonzero, bodies moved).
 * Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <ode/ode_ext.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

#define NB 40
#define MAXC 4096

typedef struct {
    dWorldID w;
    dSpaceID space;
    dJointGroupID group;
    dBodyID b[NB];
    int feedback;
    int ncontacts;
    double max_force;
} Scene;

static dJointFeedback fb[MAXC];
static int nfb;

static void surface_for(int kind, dSurfaceParameters *s) {
    memset(s, 0, sizeof *s);
    s->mu = 0.7;
    switch (kind % 8) {
    case 0: s->mode = dContactApprox1; break;
    case 1:
        s->mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM | dContactSlip1 | dContactSlip2 |
                  dContactMotion1 | dContactMotion2 | dContactMotionN | dContactMu2;
        s->soft_erp = 0.3; s->soft_cfm = 1e-4; s->slip1 = 1e-3; s->slip2 = 2e-3;
        s->motion1 = 0.01; s->motion2 = -0.02; s->motionN = 0.001; s->mu2 = 0.4;
        break;
    case 2: s->mode = dContactApprox1 | dContactBounce; s->bounce = 0.5; s->bounce_vel = 0.05; break;
    case 3: s->mode = dContactApprox1 | dContactFDir1; break;
    case 4: s->mode = dContactApprox1 | dContactMu2; s->mu2 = 0; break;
    case 5: s->mode = dContactApprox1; s->mu = 0; break;
    case 6: s->mode = 0; s->mu = 0.5; break; /* box friction */
    default: s->mode = dContactApprox1 | dContactSoftCFM; s->soft_cfm = 1e-5; break;
    }
}

static void near_cb(void *data, dGeomID o1, dGeomID o2) {
    Scene *sc = data;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    dContact c[4];
    int n = dCollide(o1, o2, 4, &c[0].geom, sizeof(dContact));
    /* Surface kind from the bodies: a quarter of the pairs take the
     * kinds filled one contact at a time (2-6), the others the plain
     * kinds (0, 1, 7), so that blocks of four plain contacts occur. */
    long k1 = b1 ? (long)(size_t)dBodyGetData(b1) : 100, k2 = b2 ? (long)(size_t)dBodyGetData(b2) : 100;
    int h = (int)((k1 * 7 + k2 * 3) % 20);
    int kind = h < 5 ? 2 + h : (h % 3 == 0 ? 0 : h % 3 == 1 ? 1 : 7);
    for (int i = 0; i < n; i++) {
        surface_for(kind, &c[i].surface);
        if (c[i].surface.mode & dContactFDir1) {
            /* any unit vector orthogonal to the normal */
            const dReal *nn = c[i].geom.normal;
            dVector3 t = {nn[1], -nn[0], 0};
            if (fabs(nn[2]) > 0.9) { t[0] = 0; t[1] = nn[2]; t[2] = -nn[1]; }
            double l = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
            for (int q = 0; q < 3; q++) c[i].fdir1[q] = t[q] / l;
        }
        dJointID j = dJointCreateContact(sc->w, sc->group, &c[i]);
        dJointAttach(j, b1, b2);
        sc->ncontacts++;
        if (sc->feedback && nfb < MAXC) dJointSetFeedback(j, &fb[nfb++]);
    }
}

static void build(Scene *sc, int feedback) {
    memset(sc, 0, sizeof *sc);
    sc->feedback = feedback;
    sc->w = dWorldCreate();
    odexWorldSetSolverMode(sc->w, ODEX_SOLVER_FAST);
    dWorldSetGravity(sc->w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(sc->w, 20);
    dWorldSetContactMaxCorrectingVel(sc->w, 0.5);
    dWorldSetContactSurfaceLayer(sc->w, 0.001);
    sc->space = dSimpleSpaceCreate(0);
    sc->group = dJointGroupCreate(0);
    /* The plane first for half of the scene's pairs, last for the rest:
     * simple-space pairs put the earlier geom first, so plane contacts
     * come with the body as body 1 and as body 2. */
    for (int i = 0; i < NB; i++) {
        dBodyID b = dBodyCreate(sc->w);
        dMass m;
        int layer = i / 10, col = i % 10;
        double x = (col % 5) * 1.05 - 2.0 + 0.1 * layer, y = (col / 5) * 1.1 + 0.05 * layer;
        double z = 0.5 + layer * 1.02;
        dBodySetPosition(b, x, y, z);
        dMatrix3 R;
        dRFromAxisAndAngle(R, 0.3 * i, 1, 0.5 * (i % 3), 0.02 * (i % 5));
        dBodySetRotation(b, R);
        dBodySetData(b, (void *)(size_t)i);
        dGeomID g;
        if (i % 4 == 3) {
            dMassSetSphere(&m, 1, 0.5);
            g = dCreateSphere(sc->space, 0.5);
        } else {
            dMassSetBox(&m, 1, 1, 1, 1);
            g = dCreateBox(sc->space, 1, 1, 1);
        }
        dBodySetMass(b, &m);
        dGeomSetBody(g, b);
        sc->b[i] = b;
        if (i == NB / 2) dCreatePlane(sc->space, 0, 0, 1, 0);
    }
}

static int same(const dReal *a, const dReal *b, int n) { return memcmp(a, b, n * sizeof(dReal)) == 0; }

int main(void) {
    dInitODE2(0);
    static Scene s0, s1;
    build(&s0, 0);
    build(&s1, 1);
    int checks = 0, failures = 0, first_bad = -1;
    double start_z[NB];
    for (int i = 0; i < NB; i++) start_z[i] = dBodyGetPosition(s0.b[i])[2];
    for (int step = 0; step < 150; step++) {
        nfb = 0;
        dSpaceCollide(s0.space, &s0, near_cb);
        dSpaceCollide(s1.space, &s1, near_cb);
        dWorldQuickStep(s0.w, 0.01);
        dWorldQuickStep(s1.w, 0.01);
        for (int k = 0; k < nfb; k++) {
            for (int q = 0; q < 3; q++) {
                double f = fabs(fb[k].f1[q]);
                if (f > s1.max_force) s1.max_force = f;
            }
        }
        dJointGroupEmpty(s0.group);
        dJointGroupEmpty(s1.group);
        for (int i = 0; i < NB; i++) {
            int ok = same(dBodyGetPosition(s0.b[i]), dBodyGetPosition(s1.b[i]), 3) &&
                     same(dBodyGetQuaternion(s0.b[i]), dBodyGetQuaternion(s1.b[i]), 4) &&
                     same(dBodyGetLinearVel(s0.b[i]), dBodyGetLinearVel(s1.b[i]), 3) &&
                     same(dBodyGetAngularVel(s0.b[i]), dBodyGetAngularVel(s1.b[i]), 3);
            checks++;
            if (!ok) {
                failures++;
                if (first_bad < 0) {
                    first_bad = step;
                    printf("FAIL step %d body %d: z %.17g vs %.17g\n", step, i, dBodyGetPosition(s0.b[i])[2],
                           dBodyGetPosition(s1.b[i])[2]);
                }
            }
        }
    }
    /* The scene is alive: contacts, forces, and bodies that settled. */
    double moved = 0;
    for (int i = 0; i < NB; i++) moved += fabs(dBodyGetPosition(s0.b[i])[2] - start_z[i]);
    checks += 3;
    if (s0.ncontacts < 150 * 40) { failures++; printf("FAIL only %d contacts\n", s0.ncontacts); }
    if (!(s1.max_force > 1.0)) { failures++; printf("FAIL feedback force %g\n", s1.max_force); }
    if (!(moved > 0.05)) { failures++; printf("FAIL bodies moved %g in total\n", moved); }
    printf("contacts %d, largest feedback force %.3f, total |dz| %.3f\n", s0.ncontacts, s1.max_force, moved);
    if (failures) {
        printf("FAILED %d of %d checks\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
