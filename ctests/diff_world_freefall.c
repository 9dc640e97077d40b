/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* Free bodies under gravity for 1000 steps of each stepper: forces and
 * torques through every dBodyAdd* variant (world and body frames, at
 * world and body points), gravity mode off, linear and angular damping
 * (world defaults given at creation and per-body settings) with speed
 * thresholds that damping crosses. Prints the state every few steps. */
#include <ode/ode.h>
#include <stdio.h>

#define NB 6

static void dump(const char *tag, int s, dBodyID *b)
{
    int i;
    for (i = 0; i < NB; i++) {
        const dReal *p = dBodyGetPosition(b[i]), *q = dBodyGetQuaternion(b[i]);
        const dReal *v = dBodyGetLinearVel(b[i]), *w = dBodyGetAngularVel(b[i]);
        printf("%s s%d b%d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n",
               tag, s, i, p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
    }
}

static void run(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID b[NB];
    dMass m;
    int i, s;

    dWorldSetGravity(w, 0.1, -0.2, -9.81);
    /* world damping defaults, taken by the bodies created next */
    dWorldSetDamping(w, 0.001, 0.002);
    dWorldSetLinearDampingThreshold(w, 2.0);
    dWorldSetAngularDampingThreshold(w, 0.5);

    for (i = 0; i < NB; i++) {
        dQuaternion q;
        b[i] = dBodyCreate(w);
        dMassSetBoxTotal(&m, 1.0 + i, 0.3 + 0.1 * i, 0.7, 1.1 - 0.1 * i);
        dBodySetMass(b[i], &m);
        dQFromAxisAndAngle(q, 1, 0.5 * i, -0.25, 0.3 + 0.2 * i);
        dBodySetQuaternion(b[i], q);
        dBodySetPosition(b[i], i, 0.5 * i, 10);
        dBodySetLinearVel(b[i], 0.5 - i, 3, 2 * i);
        dBodySetAngularVel(b[i], 0.3 * i, -0.2, 1 - 0.4 * i);
    }
    /* per-body damping overrides */
    dBodySetLinearDamping(b[2], 0.05);
    dBodySetAngularDampingThreshold(b[2], 3.0);
    dBodySetDamping(b[3], 0, 0);
    dBodySetDamping(b[4], 0.02, 0.03);
    dBodySetLinearDampingThreshold(b[4], 0.0);
    dBodySetGravityMode(b[5], 0);

    for (s = 0; s < 1000; s++) {
        dReal k = 0.001 * (s % 13);
        dBodyAddForce(b[0], 1 + k, -2, 0.5);
        dBodyAddTorque(b[0], 0.1, -k, 0.05);
        dBodyAddRelForce(b[1], 0.3, k, -0.7);
        dBodyAddRelTorque(b[1], -0.02, 0.04, k);
        dBodyAddForceAtPos(b[2], 0.2, 0.1, k, s * 0.001, 1, -2);
        dBodyAddForceAtRelPos(b[3], -k, 0.4, 0.2, 0.1, 0.2, 0.3);
        dBodyAddRelForceAtPos(b[4], 0.5, -0.5, k, 2, 0.25, 9);
        dBodyAddRelForceAtRelPos(b[5], k, 0.3, -0.1, -0.2, 0.05, 0.4);
        if (s == 300) dBodySetForce(b[0], 0, 0, 50);
        if (s == 301) dBodySetTorque(b[1], 0.5, 0, 0);
        if (quick) dWorldQuickStep(w, 0.005); else dWorldStep(w, 0.005);
        if (s < 3 || s % 25 == 24) dump(tag, s, b);
    }
    for (i = 0; i < NB; i++) {
        const dReal *R = dBodyGetRotation(b[i]);
        const dReal *f = dBodyGetForce(b[i]), *t = dBodyGetTorque(b[i]);
        printf("%s R b%d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", tag, i,
               R[0], R[1], R[2], R[4], R[5], R[6], R[8], R[9], R[10]);
        printf("%s acc b%d %.17g %.17g %.17g %.17g %.17g %.17g\n", tag, i, f[0], f[1], f[2], t[0], t[1], t[2]);
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
