/* DIFF-TOL rel=0 abs=0 */
/* Many islands stepped together: box stacks, jointed chains (ball, hinge
 * with limits, universal, fixed), free spheres and a sleeping pair, on a
 * plane with collision, stepped with dWorldQuickStep (20 iterations, so
 * the periodic dRand shuffles run) then dWorldStep. Prints every body each
 * step and dRandGetSeed, exactly (%a).
 *
 * Arguments: [threads] - with threads > 0 the world gets ODE's own
 * multi-threaded implementation served by a pool of that many threads
 * (dWorldSetStepThreadingImplementation); the trajectory must not change.
 * Built with -DODEX against our headers, a second argument n calls
 * odexWorldSetStepThreads(w, n) (and checks odexWorldGetStepThreads).
 * tests/pipeline_parallel_islands.rs also runs it with ODE_THREADS=2/4. */
#include <ode/ode.h>
#ifdef ODEX
#include <ode/ode_ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#define MAXB 64
static dWorldID w;
static dSpaceID space;
static dJointGroupID contacts;
static dBodyID bodies[MAXB];
static int nb;

static dBodyID add_body(int box, dReal x, dReal y, dReal z, dReal s) {
    dMass m;
    dBodyID b = dBodyCreate(w);
    dGeomID g;
    if (box) {
        dMassSetBoxTotal(&m, 1.0 + 0.1 * nb, s, s * 0.8, s * 1.1);
        g = dCreateBox(space, s, s * 0.8, s * 1.1);
    } else {
        dMassSetSphereTotal(&m, 0.7 + 0.05 * nb, s * 0.5);
        g = dCreateSphere(space, s * 0.5);
    }
    dBodySetMass(b, &m);
    dBodySetPosition(b, x, y, z);
    dGeomSetBody(g, b);
    bodies[nb++] = b;
    return b;
}

static void near_cb(void *data, dGeomID a, dGeomID b) {
    dContact c[4];
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    int i, n;
    (void)data;
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    n = dCollide(a, b, 4, &c[0].geom, sizeof(dContact));
    for (i = 0; i < n; i++) {
        c[i].surface.mode = dContactBounce | dContactSoftCFM;
        c[i].surface.mu = 0.6;
        c[i].surface.bounce = 0.1;
        c[i].surface.bounce_vel = 0.1;
        c[i].surface.soft_cfm = 1e-5;
        dJointAttach(dJointCreateContact(w, contacts, &c[i]), b1, b2);
    }
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 0, i, s, k;
    dThreadingImplementationID impl = 0;
    dThreadingThreadPoolID pool = 0;
    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
    dRandSetSeed(12345);
    w = dWorldCreate();
    space = dHashSpaceCreate(0);
    contacts = dJointGroupCreate(0);
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(w, 20);
    dCreatePlane(space, 0, 0, 1, 0);

    /* four stacks of three boxes */
    for (k = 0; k < 4; k++)
        for (i = 0; i < 3; i++) add_body(1, 3.0 * k + 0.03 * i, 0.02 * i, 0.55 + 1.0 * i, 1.0);
    /* three chains of four links hanging from a fixed point or lying */
    for (k = 0; k < 3; k++) {
        dBodyID prev = 0;
        for (i = 0; i < 4; i++) {
            dBodyID b = add_body(1, 3.0 * k, 6.0 + 0.6 * i, 3.0 - 0.2 * k, 0.5);
            dJointID j;
            dBodySetAngularVel(b, 0.3 * k, 0.2 * i, 0.1);
            switch ((i + k) % 4) {
            case 0:
                j = dJointCreateBall(w, 0);
                dJointAttach(j, b, prev);
                dJointSetBallAnchor(j, 3.0 * k, 5.7 + 0.6 * i, 3.0 - 0.2 * k);
                break;
            case 1:
                j = dJointCreateHinge(w, 0);
                dJointAttach(j, b, prev);
                dJointSetHingeAnchor(j, 3.0 * k, 5.7 + 0.6 * i, 3.0 - 0.2 * k);
                dJointSetHingeAxis(j, 1, 0, 0);
                dJointSetHingeParam(j, dParamLoStop, -0.5);
                dJointSetHingeParam(j, dParamHiStop, 0.7);
                break;
            case 2:
                j = dJointCreateUniversal(w, 0);
                dJointAttach(j, b, prev);
                dJointSetUniversalAnchor(j, 3.0 * k, 5.7 + 0.6 * i, 3.0 - 0.2 * k);
                dJointSetUniversalAxis1(j, 1, 0, 0);
                dJointSetUniversalAxis2(j, 0, 0, 1);
                break;
            default:
                j = dJointCreateFixed(w, 0);
                dJointAttach(j, b, prev);
                dJointSetFixed(j);
                break;
            }
            prev = b;
        }
    }
    /* free spheres thrown around */
    for (i = 0; i < 6; i++) {
        dBodyID b = add_body(0, -4.0 + 1.5 * i, -4.0, 1.0 + 0.5 * i, 0.6);
        dBodySetLinearVel(b, 0.5 * i, 0.3, 0.0);
    }
    /* a pair that goes to sleep early */
    dWorldSetAutoDisableFlag(w, 0);
    {
        dBodyID b = add_body(1, 20, 0, 0.5, 1.0);
        dBodySetAutoDisableFlag(b, 1);
        dBodySetAutoDisableSteps(b, 5);
    }

    if (threads > 0) {
        impl = dThreadingAllocateMultiThreadedImplementation();
        pool = dThreadingAllocateThreadPool(threads, 0, dAllocateFlagBasicData, NULL);
        dThreadingThreadPoolServeMultiThreadedImplementation(pool, impl);
        dWorldSetStepThreadingImplementation(w, dThreadingImplementationGetFunctions(impl), impl);
    }

#ifdef ODEX
    if (argc > 2) {
        odexWorldSetStepThreads(w, atoi(argv[2]));
        if (odexWorldGetStepThreads(w) != (atoi(argv[2]) > 0 ? atoi(argv[2]) : 1)) return 3;
    }
#endif

    for (s = 0; s < 120; s++) {
        dSpaceCollide(space, 0, near_cb);
        if (s < 80)
            dWorldQuickStep(w, 0.01);
        else
            dWorldStep(w, 0.01);
        dJointGroupEmpty(contacts);
        printf("step %d seed %lu\n", s, dRandGetSeed());
        for (i = 0; i < nb; i++) {
            const dReal *p = dBodyGetPosition(bodies[i]), *q = dBodyGetQuaternion(bodies[i]);
            printf(" %d %d %a %a %a %a %a %a %a\n", i, dBodyIsEnabled(bodies[i]), p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
        }
    }

    if (threads > 0) {
        dThreadingImplementationShutdownProcessing(impl);
        dThreadingFreeThreadPool(pool);
        dWorldSetStepThreadingImplementation(w, NULL, NULL);
        dThreadingFreeImplementation(impl);
    }
    dJointGroupDestroy(contacts);
    dSpaceDestroy(space);
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
