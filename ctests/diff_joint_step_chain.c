/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* dWorldStep with joints: a 12-link ball-joint chain hanging from the
 * static world (attached as (0, body), so reversed), a hinge pendulum
 * attached as (body, 0), and a free two-body hinge pair pushed by a
 * torque; every joint has a feedback record. Positions, velocities and
 * feedback over the first second (100 steps of 10 ms). The tolerance
 * allows round-off only: the solver follows ODE's operation order. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

#define NL 12

static void pr(const char *tag, int s, dBodyID b) {
    const dReal *p = dBodyGetPosition(b), *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    const dReal *q = dBodyGetQuaternion(b);
    printf("%s %d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n", tag, s,
           p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
}

static void prf(const char *tag, int s, const dJointFeedback *f) {
    printf("%s %d f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g f2 %.17g %.17g %.17g t2 %.17g %.17g %.17g\n", tag, s,
           f->f1[0], f->f1[1], f->f1[2], f->t1[0], f->t1[1], f->t1[2], f->f2[0], f->f2[1], f->f2[2], f->t2[0],
           f->t2[1], f->t2[2]);
}

int main(void) {
    dWorldID w;
    dBodyID link[NL], pend, h1, h2;
    dJointID jl[NL], jp, jh;
    dJointFeedback fl[NL], fp, fh;
    dMass m;
    int i, s;

    memset(fl, 0, sizeof fl);
    memset(&fp, 0, sizeof fp);
    memset(&fh, 0, sizeof fh);
    dInitODE2(0);
    w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    for (i = 0; i < NL; i++) {
        link[i] = dBodyCreate(w);
        dMassSetCapsuleTotal(&m, 0.5 + 0.05 * i, 3, 0.05, 0.4);
        dBodySetMass(link[i], &m);
        dBodySetPosition(link[i], 0.3 * (i + 1), 0.02 * i, 5);
        jl[i] = dJointCreateBall(w, 0);
        if (i == 0) dJointAttach(jl[i], 0, link[0]);
        else dJointAttach(jl[i], link[i - 1], link[i]);
        dJointSetBallAnchor(jl[i], 0.3 * i + 0.15, 0.02 * i - 0.01, 5);
        fl[i].f2[0] = fl[i].t2[0] = 12345; /* untouched for the static side */
        dJointSetFeedback(jl[i], &fl[i]);
    }
    dBodySetLinearVel(link[NL - 1], 0, 1, 0);

    pend = dBodyCreate(w);
    dMassSetBoxTotal(&m, 2, 0.2, 0.2, 1);
    dBodySetMass(pend, &m);
    dBodySetPosition(pend, 0, 3, 2.5);
    jp = dJointCreateHinge(w, 0);
    dJointAttach(jp, pend, 0);
    dJointSetHingeAnchor(jp, 0, 3, 3);
    dJointSetHingeAxis(jp, 1, 0, 0);
    dBodySetAngularVel(pend, 1.5, 0, 0);
    dJointSetFeedback(jp, &fp);

    h1 = dBodyCreate(w);
    h2 = dBodyCreate(w);
    dMassSetBoxTotal(&m, 1, 0.5, 0.2, 0.2);
    dBodySetMass(h1, &m);
    dBodySetMass(h2, &m);
    dBodySetPosition(h1, -2, 0, 8);
    dBodySetPosition(h2, -1.5, 0, 8);
    jh = dJointCreateHinge(w, 0);
    dJointAttach(jh, h1, h2);
    dJointSetHingeAnchor(jh, -1.75, 0, 8);
    dJointSetHingeAxis(jh, 0, 1, 1);
    dJointSetFeedback(jh, &fh);

    for (s = 0; s < 100; s++) {
        dBodyAddTorque(h2, 0.3, 0.1, 0);
        dBodyAddForce(link[NL / 2], 0.5, 0, 0);
        dWorldStep(w, 0.01);
        if (s % 5 == 4 || s < 3) {
            for (i = 0; i < NL; i += 3) pr("link", s, link[i]);
            pr("pend", s, pend);
            pr("h1", s, h1);
            pr("h2", s, h2);
            prf("fb0", s, &fl[0]);
            prf("fb5", s, &fl[5]);
            prf("fbp", s, &fp);
            prf("fbh", s, &fh);
        }
    }
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
