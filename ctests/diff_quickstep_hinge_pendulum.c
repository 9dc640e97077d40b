/* DIFF-TOL rel=1e-6 abs=1e-9 */
/* dWorldQuickStep on hinge pendulums: one body hinged to the static world
 * (5 unbounded rows) and a two-link hinge chain whose second hinge has a
 * low stop that it hits (a bounded limit row), with joint feedback on
 * every joint (f2/t2 of the body-body hinge included). dRandSetSeed(0) at
 * the start; dRandGetSeed() printed every step checks that the random
 * constraint reordering draws exactly as ODE's does. 150 steps of 10 ms.
 * Tolerance: the solver alone is bit-exact (tests/solver_quickstep_oracle.rs); the
 * slack covers round-off differences in joint row assembly. */
#include <ode/ode.h>
#include "feedback_sentinel.h"
#include <stdio.h>

static void body_line(const char *tag, int s, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    printf("%s s%d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n",
           tag, s, p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
}

static void fb_line(const char *tag, int s, const dJointFeedback *f)
{
    printf("%s s%d f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g f2 %.17g %.17g %.17g t2 %.17g %.17g %.17g\n",
           tag, s, f->f1[0], f->f1[1], f->f1[2], f->t1[0], f->t1[1], f->t1[2],
           f->f2[0], f->f2[1], f->f2[2], f->t2[0], f->t2[1], f->t2[2]);
}

int main(void)
{
    dWorldID w;
    dBodyID a, b1, b2;
    dJointID ja, j1, j2;
    dJointFeedback fa, f1, f2;
    dMass m;
    int s;

    dInitODE2(0);
    dRandSetSeed(0);
    w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(w, 25);
    dWorldSetQuickStepW(w, 1.2);

    /* single pendulum, hinge axis y through the origin */
    a = dBodyCreate(w);
    dMassSetBoxTotal(&m, 1.0, 0.1, 0.1, 0.6);
    dBodySetMass(a, &m);
    dBodySetPosition(a, 0.3, 0, -0.4);
    ja = dJointCreateHinge(w, 0);
    dJointAttach(ja, a, 0);
    dJointSetHingeAnchor(ja, 0, 0, 0);
    dJointSetHingeAxis(ja, 0, 1, 0);
    feedback_fill_sentinel(&fa);
    dJointSetFeedback(ja, &fa);

    /* two-link chain hanging from (2, 0, 0), second hinge limited */
    b1 = dBodyCreate(w);
    dMassSetBoxTotal(&m, 0.8, 0.1, 0.1, 0.5);
    dBodySetMass(b1, &m);
    dBodySetPosition(b1, 2.25, 0, 0);
    b2 = dBodyCreate(w);
    dMassSetBoxTotal(&m, 0.5, 0.1, 0.1, 0.5);
    dBodySetMass(b2, &m);
    dBodySetPosition(b2, 2.75, 0, 0);
    dBodySetAngularVel(b2, 0, 0.5, 0);
    j1 = dJointCreateHinge(w, 0);
    dJointAttach(j1, b1, 0);
    dJointSetHingeAnchor(j1, 2, 0, 0);
    dJointSetHingeAxis(j1, 0, 1, 0);
    feedback_fill_sentinel(&f1);
    dJointSetFeedback(j1, &f1);
    j2 = dJointCreateHinge(w, 0);
    dJointAttach(j2, b1, b2);
    dJointSetHingeAnchor(j2, 2.5, 0, 0);
    dJointSetHingeAxis(j2, 0, 1, 0);
    dJointSetHingeParam(j2, dParamLoStop, -0.3);
    dJointSetHingeParam(j2, dParamHiStop, 0.3);
    feedback_fill_sentinel(&f2);
    dJointSetFeedback(j2, &f2);

    for (s = 0; s < 150; s++) {
        dWorldQuickStep(w, 0.01);
        body_line("a", s, a);
        body_line("b1", s, b1);
        body_line("b2", s, b2);
        fb_line("ja", s, &fa);
        fb_line("j1", s, &f1);
        fb_line("j2", s, &f2);
        printf("s%d angle %.17g seed %lu\n", s, dJointGetHingeAngle(j2), dRandGetSeed());
    }
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
