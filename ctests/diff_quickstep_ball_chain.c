/* DIFF-TOL rel=1e-6 abs=1e-9 */
/* dWorldQuickStep on a chain of 8 boxes linked by ball joints, the first
 * hung from the static world, released from a slanted straight line so the
 * chain swings and twists (gyroscopic term on, the default). One island of
 * 24 rows: the random reordering every 8th iteration draws 23 numbers per
 * shuffle from dRand. Feedback on the top and a middle joint; the island
 * body and joint order follow ODE's island traversal. dRandGetSeed()
 * printed every step. 100 steps of 10 ms. Tolerance: the solver alone is
 * bit-exact (tests/solver_quickstep_oracle.rs); the slack covers round-off
 * differences in joint row assembly. */
#include <ode/ode.h>
#include "feedback_sentinel.h"
#include <stdio.h>

#define N 8

int main(void)
{
    dWorldID w;
    dBodyID b[N];
    dJointID j[N];
    dJointFeedback ftop, fmid;
    dMass m;
    int i, s;

    dInitODE2(0);
    dRandSetSeed(0);
    w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    for (i = 0; i < N; i++) {
        b[i] = dBodyCreate(w);
        dMassSetBoxTotal(&m, 0.3 + 0.05 * i, 0.2, 0.1, 0.1);
        dBodySetMass(b[i], &m);
        dBodySetPosition(b[i], 0.2 * i + 0.1, 0.05 * i, -0.02 * i);
        j[i] = dJointCreateBall(w, 0);
        if (i == 0) {
            dJointAttach(j[i], b[i], 0);
            dJointSetBallAnchor(j[i], 0, 0, 0);
        } else {
            dJointAttach(j[i], b[i - 1], b[i]);
            dJointSetBallAnchor(j[i], 0.2 * i, 0.05 * i - 0.025, -0.02 * i + 0.01);
        }
    }
    dBodySetAngularVel(b[N - 1], 1.0, 0, 0);
    feedback_fill_sentinel(&ftop);
    dJointSetFeedback(j[0], &ftop);
    feedback_fill_sentinel(&fmid);
    dJointSetFeedback(j[N / 2], &fmid);

    for (s = 0; s < 100; s++) {
        dWorldQuickStep(w, 0.01);
        for (i = 0; i < N; i++) {
            const dReal *p = dBodyGetPosition(b[i]), *q = dBodyGetQuaternion(b[i]);
            const dReal *v = dBodyGetLinearVel(b[i]), *a = dBodyGetAngularVel(b[i]);
            printf("s%d b%d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n",
                   s, i, p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], a[0], a[1], a[2]);
        }
        printf("s%d top f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g mid f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g"
               " f2 %.17g %.17g %.17g t2 %.17g %.17g %.17g seed %lu\n", s,
               ftop.f1[0], ftop.f1[1], ftop.f1[2], ftop.t1[0], ftop.t1[1], ftop.t1[2],
               fmid.f1[0], fmid.f1[1], fmid.f1[2], fmid.t1[0], fmid.t1[1], fmid.t1[2],
               fmid.f2[0], fmid.f2[1], fmid.f2[2], fmid.t2[0], fmid.t2[1], fmid.t2[2], dRandGetSeed());
    }
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
