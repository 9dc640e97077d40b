/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* Spinning asymmetric bodies (no gravity) for 1000 steps of each stepper:
 * gyroscopic mode on (the default) and off, finite rotation mode without
 * and with an axis (set before and after the mode), maximum angular speed
 * from the world default and per body, a torque pulse, and a body with an
 * off-diagonal inertia tensor. */
#include <ode/ode.h>
#include <stdio.h>

#define NB 7

static void run(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID b[NB];
    dMass m;
    int i, s;

    dWorldSetMaxAngularSpeed(w, 6.0); /* default for bodies created now */
    b[0] = dBodyCreate(w);
    dWorldSetMaxAngularSpeed(w, dInfinity);
    for (i = 1; i < NB; i++) b[i] = dBodyCreate(w);

    for (i = 0; i < NB; i++) {
        dQuaternion q;
        if (i == 6) dMassSetParameters(&m, 2.0, 0, 0, 0, 0.4, 0.9, 1.3, 0.05, -0.02, 0.1);
        else dMassSetBoxTotal(&m, 1.5, 0.2, 0.6, 1.4);
        dBodySetMass(b[i], &m);
        dQFromAxisAndAngle(q, 0.3, 1, -0.5, 0.4 + 0.3 * i);
        dBodySetQuaternion(b[i], q);
        dBodySetAngularVel(b[i], 2.0, 7.0 - i, 0.3);
    }
    dBodySetGyroscopicMode(b[1], 0);
    dBodySetFiniteRotationMode(b[2], 1);
    dBodySetFiniteRotationAxis(b[3], 0, 1, 1);
    dBodySetFiniteRotationMode(b[3], 1);
    dBodySetFiniteRotationMode(b[4], 1);
    dBodySetFiniteRotationAxis(b[4], 1, -2, 0.5);
    dBodySetGyroscopicMode(b[4], 0);
    dBodySetMaxAngularSpeed(b[5], 3.0);
    printf("%s modes", tag);
    for (i = 0; i < NB; i++) {
        dVector3 a;
        dBodyGetFiniteRotationAxis(b[i], a);
        printf(" [%d %d %.17g %.17g %.17g %.17g]", dBodyGetGyroscopicMode(b[i]) != 0,
               dBodyGetFiniteRotationMode(b[i]), a[0], a[1], a[2], dBodyGetMaxAngularSpeed(b[i]));
    }
    printf("\n");

    for (s = 0; s < 1000; s++) {
        if (s >= 100 && s < 110) dBodyAddRelTorque(b[6], 0.2, 0, -0.1);
        if (s == 500) dBodySetMaxAngularSpeed(b[0], dInfinity);
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        if (s < 3 || s % 25 == 24) {
            for (i = 0; i < NB; i++) {
                const dReal *q = dBodyGetQuaternion(b[i]), *a = dBodyGetAngularVel(b[i]);
                printf("%s s%d b%d q %.17g %.17g %.17g %.17g w %.17g %.17g %.17g\n", tag, s, i,
                       q[0], q[1], q[2], q[3], a[0], a[1], a[2]);
            }
        }
    }
    for (i = 0; i < NB; i++) {
        const dReal *R = dBodyGetRotation(b[i]);
        printf("%s R b%d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", tag, i,
               R[0], R[1], R[2], R[4], R[5], R[6], R[8], R[9], R[10]);
    }
    dWorldDestroy(w);
}

int main(void)
{
    dInitODE2(0);
    run(0);
    run(1);
    dCloseODE();
    return 0;
}
