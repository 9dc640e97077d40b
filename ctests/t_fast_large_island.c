/* Self-checking, for the fast QuickStep's large-island path (run with
 * ODE_FAST_LARGE_ISLAND_BYTES=0 so that these small islands take it; see
 * tests/solver_fast_mode.rs): two islands resting on a plane, stepped 3 s
 * with dWorldQuickStep (20 iterations) and contacts as ODE's
 * demo_space_stress makes them (mu = dInfinity: three rows without a
 * friction index each, swept in batches):
 *  - a 5x5x3 block of unit boxes, neighbours overlapping by 1 mm, four
 *    contacts per touching face: an inner box has 72 rows, more than the
 *    solver's 63 colours, so some rows are swept alone (overflow);
 *  - a 12x12 layer of spheres (radius 0.1) overlapping their neighbours
 *    by 1 mm.
 * Checks: from 0.5 s on no box sinks or rises more than 1 cm from its
 * resting height and none moves sideways more than 2 cm; no sphere sinks
 * more than 3 mm into the plane or rises 2 cm above it (pushed apart by
 * the overlaps, they roll on: nothing resists rolling); at the end the
 * boxes' linear speeds are below 0.05 and angular below 0.1.
 * Prints every body's final position and orientation as hex floats (the
 * trace the test compares across thread counts), then PASS. */
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>

#define NX 5
#define NZ 3
#define NS 12
#define NBOX (NX * NX * NZ)
#define NSPH (NS * NS)
#define MAXC 4

static dWorldID world;
static dJointGroupID group;
static int failures;

static void near(void *data, dGeomID o1, dGeomID o2)
{
    dContact c[MAXC];
    int i, n;
    (void)data;
    n = dCollide(o1, o2, MAXC, &c[0].geom, sizeof(dContact));
    for (i = 0; i < n; i++) {
        dJointID j;
        c[i].surface.mode = 0;
        c[i].surface.mu = dInfinity;
        j = dJointCreateContact(world, group, &c[i]);
        dJointAttach(j, dGeomGetBody(o1), dGeomGetBody(o2));
    }
}

static void check(int ok, const char *what, int body, double value)
{
    if (!ok) {
        printf("FAIL %s body %d: %.6g\n", what, body, value);
        failures++;
    }
}

int main(void)
{
    dSpaceID space;
    dBodyID box[NBOX], sph[NSPH];
    double rest[NBOX][3];
    int i, x, y, z, step;
    dMass m;
    dInitODE2(0);
    world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(world, 20);
    space = dHashSpaceCreate(0);
    group = dJointGroupCreate(0);
    dCreatePlane(space, 0, 0, 1, 0);
    i = 0;
    for (z = 0; z < NZ; z++)
        for (y = 0; y < NX; y++)
            for (x = 0; x < NX; x++, i++) {
                dGeomID g = dCreateBox(space, 1, 1, 1);
                box[i] = dBodyCreate(world);
                dMassSetBoxTotal(&m, 1, 1, 1, 1);
                dBodySetMass(box[i], &m);
                rest[i][0] = 0.999 * x;
                rest[i][1] = 0.999 * y;
                rest[i][2] = 0.499 + 0.999 * z;
                dBodySetPosition(box[i], rest[i][0], rest[i][1], rest[i][2]);
                dGeomSetBody(g, box[i]);
            }
    i = 0;
    for (y = 0; y < NS; y++)
        for (x = 0; x < NS; x++, i++) {
            dGeomID g = dCreateSphere(space, 0.1);
            sph[i] = dBodyCreate(world);
            dMassSetSphereTotal(&m, 0.5, 0.1);
            dBodySetMass(sph[i], &m);
            dBodySetPosition(sph[i], 20 + 0.199 * x, 0.199 * y, 0.0995);
            dGeomSetBody(g, sph[i]);
        }
    for (step = 0; step < 300; step++) {
        dSpaceCollide(space, 0, near);
        dWorldQuickStep(world, 0.01);
        dJointGroupEmpty(group);
        if (step < 50) continue;
        for (i = 0; i < NBOX; i++) {
            const dReal *p = dBodyGetPosition(box[i]);
            check(fabs(p[2] - rest[i][2]) < 0.01, "box height off its rest by", i, p[2] - rest[i][2]);
            check(hypot(p[0] - rest[i][0], p[1] - rest[i][1]) < 0.02, "box moved sideways by", i,
                  hypot(p[0] - rest[i][0], p[1] - rest[i][1]));
        }
        for (i = 0; i < NSPH; i++) {
            const dReal *p = dBodyGetPosition(sph[i]);
            check(p[2] > 0.1 - 0.003, "sphere sank to", i, p[2]);
            check(p[2] < 0.12, "sphere rose to", i, p[2]);
        }
        if (failures) break;
    }
    for (i = 0; i < NBOX + NSPH; i++) {
        dBodyID b = i < NBOX ? box[i] : sph[i - NBOX];
        const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
        const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
        if (i < NBOX) {
            check(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) < 0.05, "final linear speed", i,
                  sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
            check(sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) < 0.1, "final angular speed", i,
                  sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
        }
        printf("%d %a %a %a %a %a %a %a\n", i, p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
    }
    dJointGroupDestroy(group);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    dCloseODE();
    if (failures) return 1;
    printf("PASS %d bodies\n", NBOX + NSPH);
    return 0;
}
