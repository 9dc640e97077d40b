/* DIFF-TOL rel=1e-6 abs=1e-9 */
/* Fixed and ball joints for 1.5 s with both steppers: a body fixed to the
 * world with dJointSetFixed after a displacement (pulled back through its
 * ERP, per-joint ERP/CFM), a two-body fixed pair spun by a torque, a
 * 6-link ball chain hanging from the world with its last link attached as
 * (0, body), per-joint ball ERP/CFM, and a null joint (no rows). Prints
 * body states and ball anchors. */
#include <ode/ode.h>
#include <stdio.h>

static void body_state(const char *tag, int i, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    printf("%s%d p %.10g %.10g %.10g q %.10g %.10g %.10g %.10g v %.10g %.10g %.10g w %.10g %.10g %.10g\n", tag, i,
           p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
}

static dBodyID box(dWorldID w, dReal x, dReal y, dReal z, dReal m, dReal lx, dReal ly, dReal lz)
{
    dMass mass;
    dBodyID b = dBodyCreate(w);
    dMassSetBoxTotal(&mass, m, lx, ly, lz);
    dBodySetMass(b, &mass);
    dBodySetPosition(b, x, y, z);
    return b;
}

#define NL 6

static void run(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID f, g, h, link[NL], n1, n2;
    dJointID jf, jgh, ball[NL + 1], jn;
    dQuaternion q;
    dVector3 v;
    int s, i;
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetERP(w, 0.3);
    if (quick) dWorldSetQuickStepNumIterations(w, 60);

    f = box(w, 0, 0, 2, 1, 0.3, 0.4, 0.5);
    jf = dJointCreateFixed(w, 0);
    dJointAttach(jf, f, 0);
    dJointSetFixed(jf);
    dJointSetFixedParam(jf, dParamERP, 0.5);
    dJointSetFixedParam(jf, dParamCFM, 1e-5);
    dBodySetPosition(f, 0.05, -0.02, 2.03);
    dQFromAxisAndAngle(q, 1, 0.5, 0.2, 0.05);
    dBodySetQuaternion(f, q);

    g = box(w, 1, 0, 1, 1, 0.3, 0.3, 0.3);
    h = box(w, 1.3, 0.2, 1.1, 0.5, 0.2, 0.2, 0.2);
    dBodySetGravityMode(g, 0);
    dBodySetGravityMode(h, 0);
    jgh = dJointCreateFixed(w, 0);
    dJointAttach(jgh, g, h);
    dJointSetFixed(jgh);

    for (i = 0; i < NL; i++) link[i] = box(w, -1 + 0.3 * i, 1, 3, 0.4, 0.25, 0.05, 0.05);
    ball[0] = dJointCreateBall(w, 0);
    dJointAttach(ball[0], link[0], 0);
    dJointSetBallAnchor(ball[0], -1.15, 1, 3);
    for (i = 1; i < NL; i++) {
        ball[i] = dJointCreateBall(w, 0);
        dJointAttach(ball[i], link[i - 1], link[i]);
        dJointSetBallAnchor(ball[i], -1.15 + 0.3 * i, 1, 3);
    }
    dJointSetBallParam(ball[2], dParamERP, 0.1);
    dJointSetBallParam(ball[3], dParamCFM, 1e-4);
    /* the last link also hangs from a second world point, attached (0, body) */
    ball[NL] = dJointCreateBall(w, 0);
    dJointAttach(ball[NL], 0, link[NL - 1]);
    dJointSetBallAnchor(ball[NL], -1 + 0.3 * (NL - 1) + 0.125, 1, 3);

    n1 = box(w, 3, 3, 3, 1, 0.1, 0.1, 0.1);
    n2 = box(w, 3.5, 3, 3, 1, 0.1, 0.1, 0.1);
    jn = dJointCreateNull(w, 0);
    dJointAttach(jn, n1, n2);

    for (s = 0; s < 150; s++) {
        dBodyAddTorque(g, 0.2, 0.1, 0.5);
        dBodyAddForce(h, 0, 0.3, 0);
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        if (s % 5 == 4) {
            printf("%s %d\n", tag, s);
            body_state("  f", 0, f);
            body_state("  g", 0, g);
            body_state("  h", 0, h);
            for (i = 0; i < NL; i++) body_state("  link", i, link[i]);
            body_state("  n", 1, n1);
            for (i = 2; i <= NL; i += 2) {
                dJointGetBallAnchor(ball[i], v);
                printf("  ball%d anchor %.10g %.10g %.10g", i, v[0], v[1], v[2]);
                dJointGetBallAnchor2(ball[i], v);
                printf(" anchor2 %.10g %.10g %.10g\n", v[0], v[1], v[2]);
            }
        }
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
