/* Reference trajectories for tests/world_integrator.rs, which replays the
 * same scenarios on the library's integrator directly (setting body state
 * field by field) and requires identical traces. Run against Debian's
 * libode only. Argument: "step" or "quick" (the stepper). Inertia tensors
 * are chosen so that ODE's inverse of them is exact (powers of four). */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

static int quick;
static dBodyID bodies[8];
static int nbodies;

static void step(dWorldID w, dReal h)
{
    if (quick) dWorldQuickStep(w, h); else dWorldStep(w, h);
}

static void moved(dBodyID b)
{
    int i;
    for (i = 0; i < nbodies; i++) if (bodies[i] == b) printf("moved b%d\n", i);
}

static void dump(int s, int i, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *a = dBodyGetAngularVel(b);
    printf("s%d b%d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n",
           s, i, p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], a[0], a[1], a[2]);
}

static void dumpR(int i, dBodyID b)
{
    const dReal *R = dBodyGetRotation(b);
    int k;
    printf("R b%d", i);
    for (k = 0; k < 12; k++) printf(" %.17g", R[k]);
    printf("\n");
}

static dBodyID make(dWorldID w, dReal m, dReal i1, dReal i2, dReal i3, const dReal q[4])
{
    dMass mass;
    dBodyID b = dBodyCreate(w);
    dMassSetParameters(&mass, m, 0, 0, 0, i1, i2, i3, 0, 0, 0);
    dBodySetMass(b, &mass);
    dBodySetQuaternion(b, q);
    bodies[nbodies++] = b;
    return b;
}

int main(int argc, char **argv)
{
    int s, i;
    quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    dInitODE2(0);
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0.3, -0.2, -9.81);

    const dReal q0[4] = {0.9, 0.1, -0.3, 0.2};
    const dReal q1[4] = {0.2, 0.7, 0.1, -0.4};
    const dReal q2[4] = {1, 0, 0, 0};

    /* b0: forces and damping */
    dBodyID b0 = make(w, 2.0, 0.25, 1, 4, q0);
    dBodySetLinearVel(b0, 1, 2, 3);
    dBodySetAngularVel(b0, 0.5, -1, 2);
    dBodySetLinearDamping(b0, 0.01);
    dBodySetAngularDamping(b0, 0.02);
    dBodySetLinearDampingThreshold(b0, 0.5);
    dBodySetAngularDampingThreshold(b0, 0.25);

    /* b1: fast asymmetric spin, gyroscopic, no gravity */
    dBodyID b1 = make(w, 0.5, 1, 4, 16, q1);
    dBodySetGravityMode(b1, 0);
    dBodySetAngularVel(b1, 3, 0.2, -0.1);

    /* b2: same without gyroscopic term, max angular speed */
    dBodyID b2 = make(w, 0.5, 1, 4, 16, q1);
    dBodySetGyroscopicMode(b2, 0);
    dBodySetAngularVel(b2, 3, 0.2, -0.1);
    dBodySetMaxAngularSpeed(b2, 2.5);

    /* b3: finite rotation without axis */
    dBodyID b3 = make(w, 1.0, 4, 1, 0.25, q0);
    dBodySetFiniteRotationMode(b3, 1);
    dBodySetAngularVel(b3, -1, 4, 0.5);

    /* b4: finite rotation about an axis */
    dBodyID b4 = make(w, 1.0, 4, 1, 0.25, q0);
    dBodySetFiniteRotationAxis(b4, 1, 2, 2);
    dBodySetFiniteRotationMode(b4, 1);
    dBodySetAngularVel(b4, -1, 4, 0.5);

    /* b5: kinematic, moved by its velocity only */
    dBodyID b5 = make(w, 3.0, 1, 1, 1, q2);
    dBodySetKinematic(b5);
    dBodySetLinearVel(b5, -1, 0.5, 0.25);
    dBodySetAngularVel(b5, 0.1, 0.2, 0.3);

    /* b6: disabled: never moves, keeps its forces */
    dBodyID b6 = make(w, 1.0, 1, 1, 1, q2);
    dBodySetLinearVel(b6, 1, 1, 1);
    dBodyDisable(b6);

    dBodySetMovedCallback(b0, moved);
    dBodySetMovedCallback(b5, moved);
    dBodySetMovedCallback(b6, moved);

    for (s = 0; s < 1000; s++) {
        dBodyAddForce(b0, 0.5 * (s % 7), -1.0, 0.25);
        dBodyAddTorque(b0, 0.01, 0.02 * (s % 3), -0.03);
        dBodyAddTorque(b1, 0.001, 0, 0);
        dBodyAddForce(b6, 0.5, 0, 0);
        step(w, s < 500 ? 0.01 : 0.004);
        if (s < 5 || s % 50 == 49)
            for (i = 0; i < nbodies; i++) dump(s, i, bodies[i]);
    }
    for (i = 0; i < nbodies; i++) dumpR(i, bodies[i]);
    printf("force b6 %.17g %.17g %.17g\n", dBodyGetForce(b6)[0], dBodyGetForce(b6)[1], dBodyGetForce(b6)[2]);
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
