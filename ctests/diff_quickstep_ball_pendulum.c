/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* dWorldQuickStep on a single body hung from the static world by a ball
 * joint (3 unbounded rows, so the periodic random reordering of ODE's
 * quickstep draws from dRand twice per step with the default 20
 * iterations). Explicit inertia with products, gyroscopic term off, an
 * initial velocity that violates the constraint, joint feedback.
 * Prints the state, the feedback and dRandGetSeed() after every step.
 * tests/solver_quickstep_oracle.rs replays this scene through the Rust solver with
 * hand-assembled rows and requires the same numbers bit for bit. */
#include <ode/ode.h>
#include "feedback_sentinel.h"
#include <stdio.h>

int main(void)
{
    dWorldID w;
    dBodyID b;
    dJointID j;
    dJointFeedback fb;
    dMass m;
    int s;

    dInitODE2(0);
    dRandSetSeed(0);
    w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    b = dBodyCreate(w);
    dMassSetParameters(&m, 2.0, 0, 0, 0, 0.1, 0.2, 0.15, 0.01, 0.0, 0.02);
    dBodySetMass(b, &m);
    dBodySetGyroscopicMode(b, 0);
    dBodySetPosition(b, 0.25, 0, -1);
    dBodySetLinearVel(b, 0.5, 0.3, 0);
    dBodySetAngularVel(b, 0.2, -0.4, 1.0);
    j = dJointCreateBall(w, 0);
    dJointAttach(j, b, 0);
    dJointSetBallAnchor(j, 0, 0, 0);
    feedback_fill_sentinel(&fb);
    dJointSetFeedback(j, &fb);

    for (s = 0; s < 200; s++) {
        const dReal *p, *q, *v, *a;
        dWorldQuickStep(w, 0.01);
        p = dBodyGetPosition(b); q = dBodyGetQuaternion(b);
        v = dBodyGetLinearVel(b); a = dBodyGetAngularVel(b);
        printf("s %d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g"
               " f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g seed %lu\n",
               s, p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], a[0], a[1], a[2],
               fb.f1[0], fb.f1[1], fb.f1[2], fb.t1[0], fb.t1[1], fb.t1[2], dRandGetSeed());
    }
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
