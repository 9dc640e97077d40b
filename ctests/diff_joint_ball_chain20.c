/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* A 20-link ball-joint chain hung from the static world, released from a
 * slanted line with a sideways push on its tip and a force on a middle
 * link every step, for 1 s (100 steps of 10 ms) with dWorldStep, then the
 * same scene with dWorldQuickStep (20 iterations, dRandSetSeed(7) first).
 * Joints are attached in both orders; feedback records on the first, a
 * middle and the last joint. Prints every 5th step: every 4th link's
 * state, the feedback records and dRandGetSeed().
 * Tolerance: our steppers follow ODE's operation order (row assembly,
 * Dantzig pivoting, SOR sweep order and dRand reordering), so only
 * round-off could differ; over 1 s of a 60-row island this stays far below
 * 1e-9 relative (the traces are bit-identical when checked locally), and
 * 1e-12 absolute covers values that should be exactly zero. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

#define NL 20

static void pr_body(int s, int i, dBodyID b) {
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    printf("%d link %d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n", s, i,
           p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
}

static void pr_fb(int s, int i, const dJointFeedback *f) {
    printf("%d fb %d f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g f2 %.17g %.17g %.17g t2 %.17g %.17g %.17g\n", s, i,
           f->f1[0], f->f1[1], f->f1[2], f->t1[0], f->t1[1], f->t1[2], f->f2[0], f->f2[1], f->f2[2], f->t2[0],
           f->t2[1], f->t2[2]);
}

static void run(int quick) {
    static const int with_fb[3] = {0, NL / 2, NL - 1};
    dWorldID w = dWorldCreate();
    dBodyID b[NL];
    dJointID j[NL];
    dJointFeedback fb[3];
    dMass m;
    int i, s;

    printf("%s\n", quick ? "dWorldQuickStep" : "dWorldStep");
    memset(fb, 0, sizeof fb);
    dRandSetSeed(7);
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(w, 20);
    for (i = 0; i < NL; i++) {
        b[i] = dBodyCreate(w);
        dMassSetCapsuleTotal(&m, 0.3 + 0.02 * i, 1, 0.03, 0.15);
        dBodySetMass(b[i], &m);
        dBodySetPosition(b[i], 0.2 * i + 0.1, 0.03 * i, 6 - 0.05 * i);
        j[i] = dJointCreateBall(w, 0);
        if (i == 0) dJointAttach(j[i], 0, b[0]);
        else if (i % 3 == 1) dJointAttach(j[i], b[i], b[i - 1]);
        else dJointAttach(j[i], b[i - 1], b[i]);
        dJointSetBallAnchor(j[i], 0.2 * i, 0.03 * i - 0.015, 6 - 0.05 * i + 0.025);
    }
    for (i = 0; i < 3; i++) dJointSetFeedback(j[with_fb[i]], &fb[i]);
    dBodySetLinearVel(b[NL - 1], 0, 1.5, 0);
    for (s = 0; s < 100; s++) {
        dBodyAddForce(b[NL / 3], 0.3, -0.2, 0.5);
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        if (s % 5 == 4 || s < 2) {
            for (i = 0; i < NL; i += 4) pr_body(s, i, b[i]);
            pr_body(s, NL - 1, b[NL - 1]);
            for (i = 0; i < 3; i++) pr_fb(s, with_fb[i], &fb[i]);
            printf("%d seed %lu\n", s, dRandGetSeed());
        }
    }
    dWorldDestroy(w);
}

int main(void) {
    dInitODE2(0);
    run(0);
    run(1);
    dCloseODE();
    return 0;
}
