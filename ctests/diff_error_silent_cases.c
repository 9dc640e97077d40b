/* DIFF-TOL rel=0 abs=0 */
/* The inputs of issue 10, section 3 that Debian's ODE runs to completion,
 * with their results: a QuickStep with zero iterations, negative
 * auto-disable steps, dRandInt without a range, a ray of negative length,
 * heightfield bounds upside down, planes whose normal cannot be normalised,
 * relative points of a plane, dConnectingJoint from the environment side,
 * finite rotation mode 7, dAreConnectedExcluding with unknown types,
 * negative densities and a quadtree of depth 0. Ours must give the same
 * numbers (where it also reports, see t_error_silent_cases.c). */
#include <ode/ode.h>
#include <stdio.h>
#include <limits.h>

static void p3(const char *tag, const dReal *v) { printf("%s %.17g %.17g %.17g\n", tag, v[0], v[1], v[2]); }

static void contacts(const char *tag, dGeomID a, dGeomID b)
{
    dContactGeom c[8];
    int i, n = dCollide(a, b, 8, c, sizeof c[0]);
    printf("%s n=%d\n", tag, n);
    for (i = 0; i < n; i++)
        printf("  %.17g %.17g %.17g  %.17g %.17g %.17g  %.17g\n", c[i].pos[0], c[i].pos[1], c[i].pos[2],
               c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth);
}

static void aabb(const char *tag, dGeomID g)
{
    dReal a[6];
    dGeomGetAABB(g, a);
    printf("%s aabb %.17g %.17g %.17g %.17g %.17g %.17g\n", tag, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void stepping(void)
{
    int i, steps;
    for (steps = -5; steps <= 0; steps += 5) {
        dWorldID w = dWorldCreate();
        dBodyID a, b;
        dJointID j;
        /* Bodies take the world's auto-disable settings when created. */
        dWorldSetAutoDisableFlag(w, 1);
        dWorldSetAutoDisableSteps(w, steps);
        dWorldSetAutoDisableTime(w, 0.03);
        dWorldSetAutoDisableLinearThreshold(w, 10);
        dWorldSetAutoDisableAngularThreshold(w, 10);
        a = dBodyCreate(w);
        b = dBodyCreate(w);
        j = dJointCreateBall(w, 0);
        dWorldSetGravity(w, 0, 0, -1);
        dBodySetPosition(b, 1, 0, 0);
        dJointAttach(j, a, b);
        dJointSetBallAnchor(j, 0.5, 0, 0);
        dWorldSetQuickStepNumIterations(w, 0);
        printf("iterations %d steps %d\n", dWorldGetQuickStepNumIterations(w), dWorldGetAutoDisableSteps(w));
        for (i = 0; i < 8; i++) {
            dWorldQuickStep(w, 0.01);
            printf("step %d enabled %d %d ", i, dBodyIsEnabled(a), dBodyIsEnabled(b));
            p3("b", dBodyGetPosition(b));
        }
        dWorldDestroy(w);
    }
}

static void random_ints(void)
{
    int ns[] = {0, -1, -5, INT_MIN, 1, 7};
    unsigned k;
    for (k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        int r;
        dRandSetSeed(12345 + k);
        r = dRandInt(ns[k]);
        printf("dRandInt(%d) = %d seed %lu\n", ns[k], r, dRandGetSeed());
    }
}

static void rays_planes_heightfields(void)
{
    static dReal heights[16] = {0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0};
    dGeomID ray = dCreateRay(0, 1), s = dCreateSphere(0, 0.5), plane, hf;
    dHeightfieldDataID hd;
    dVector4 p;
    dVector3 out;
    dReal zs[] = {-0.7, 0.7};
    unsigned k;

    dGeomRaySetLength(ray, -1);
    printf("ray length %.17g\n", dGeomRayGetLength(ray));
    aabb("ray", ray);
    for (k = 0; k < 2; k++) {
        dGeomSetPosition(s, 0, 0, zs[k]);
        contacts("ray-sphere", ray, s);
    }

    hd = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildDouble(hd, heights, 0, 3, 3, 4, 4, 1, 0, 0.5, 0);
    dGeomHeightfieldDataSetBounds(hd, 2, -1);
    hf = dCreateHeightfield(0, hd, 1);
    aabb("heightfield", hf);
    dGeomSetPosition(s, 0.2, 0.6, 0.1);
    contacts("heightfield-sphere", hf, s);
    dGeomDestroy(hf);
    dGeomHeightfieldDataDestroy(hd);

    plane = dCreatePlane(0, 0, 0, 0, 2);
    dGeomPlaneGetParams(plane, p);
    printf("plane %.17g %.17g %.17g %.17g depth %.17g\n", p[0], p[1], p[2], p[3], dGeomPlanePointDepth(plane, 1, 2, 3));
    dGeomSetPosition(s, 0.2, 0, 0);
    contacts("plane-sphere", plane, s);
    dGeomPlaneSetParams(plane, 1e200, 0, 0, 3);
    dGeomPlaneGetParams(plane, p);
    printf("plane %.17g %.17g %.17g %.17g\n", p[0], p[1], p[2], p[3]);
    dGeomPlaneSetParams(plane, 1e-200, 0, 0, 3);
    dGeomPlaneGetParams(plane, p);
    printf("plane %.17g %.17g %.17g %.17g\n", p[0], p[1], p[2], p[3]);
    dGeomGetRelPointPos(plane, 1, 2, 3, out);
    p3("relpoint", out);
    dGeomGetPosRelPoint(plane, 1, 2, 3, out);
    p3("posrel", out);
    dGeomVectorToWorld(plane, 1, 2, 3, out);
    p3("vector to world", out);
    dGeomVectorFromWorld(plane, 1, 2, 3, out);
    p3("vector from world", out);
    dGeomDestroy(plane);
    dGeomDestroy(ray);
    dGeomDestroy(s);
}

static void bodies_and_joints(void)
{
    dWorldID w = dWorldCreate();
    dBodyID a = dBodyCreate(w), b = dBodyCreate(w), c = dBodyCreate(w);
    dJointID env = dJointCreateBall(w, 0), h = dJointCreateHinge(w, 0), list[4];
    int i, n;
    dJointAttach(env, a, 0);
    dJointAttach(h, a, b);
    printf("connecting (0, a) is env %d, (0, c) %p\n", dConnectingJoint(0, a) == env, (void *)dConnectingJoint(0, c));
    n = dConnectingJointList(0, a, list);
    printf("list (0, a) %d first is env %d\n", n, n > 0 && list[0] == env);
    printf("excluding 99 %d, -1 %d, hinge %d, ball(a, 0) %d, 99(a, 0) %d\n", dAreConnectedExcluding(a, b, 99),
           dAreConnectedExcluding(a, b, -1), dAreConnectedExcluding(a, b, dJointTypeHinge),
           dAreConnectedExcluding(a, 0, dJointTypeBall), dAreConnectedExcluding(a, 0, 99));
    dBodySetFiniteRotationMode(c, 7);
    dBodySetAngularVel(c, 3, -2, 5);
    printf("finite rotation mode %d\n", dBodyGetFiniteRotationMode(c));
    for (i = 0; i < 20; i++)
        dWorldStep(w, 0.05);
    {
        const dReal *q = dBodyGetQuaternion(c);
        printf("q %.17g %.17g %.17g %.17g\n", q[0], q[1], q[2], q[3]);
    }
    dWorldDestroy(w);
}

static void pm(const char *tag, const dMass *m)
{
    printf("%s %.17g  %.17g %.17g %.17g  %.17g %.17g %.17g\n", tag, m->mass, m->c[0], m->c[1], m->c[2], m->I[0],
           m->I[5], m->I[10]);
}

static void masses(void)
{
    dMass m, hole;
    dMassSetSphere(&m, -1, 1);
    pm("sphere -1", &m);
    dMassSetBox(&m, -2, 1, 2, 3);
    pm("box -2", &m);
    dMassSetCapsule(&m, -1, 3, 0.5, 1);
    pm("capsule -1", &m);
    dMassSetCylinder(&m, -1, 3, 0.5, 1);
    pm("cylinder -1", &m);
    dMassSetSphere(&m, 1, -1);
    pm("sphere radius -1", &m);
    dMassSetSphereTotal(&m, -1, 1);
    pm("sphere total -1", &m);
    dMassSetBoxTotal(&m, -3, 1, 1, 1);
    pm("box total -3", &m);
    /* Hollowing a ball out: a negative-density inner sphere added. */
    dMassSetSphere(&m, 2, 1);
    dMassSetSphere(&hole, -2, 0.8);
    dMassAdd(&m, &hole);
    pm("hollow sphere", &m);
}

static void quadtree(void)
{
    dVector3 c = {0, 0, 0}, e = {10, 10, 10};
    dSpaceID s = dQuadTreeSpaceCreate(0, c, e, 0);
    dGeomID g1 = dCreateSphere(s, 1), g2 = dCreateSphere(s, 1);
    dGeomSetPosition(g2, 0.5, 0, 0);
    printf("quadtree depth 0: %d geoms\n", dSpaceGetNumGeoms(s));
    contacts("quadtree pair", g1, g2);
    dSpaceDestroy(s);
}

int main(void)
{
    dInitODE2(0);
    stepping();
    random_ints();
    rays_planes_heightfields();
    bodies_and_joints();
    masses();
    quadtree();
    dCloseODE();
    return 0;
}
