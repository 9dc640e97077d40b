/* DIFF-TOL rel=1e-6 abs=1e-9 */
/* Hinges under gravity for 1.5 s with both steppers: a pendulum hinged to
 * the world with stops (bounce, stop ERP/CFM), then a motor driving it into
 * and away from a stop (FMax limited, fudge factor), a motor with
 * FMax = dInfinity tracking its velocity; a two-body hinge attached as
 * (0, body) (REVERSE) plus a free swinging pair with dJointAddHingeTorque
 * and a hinge axis offset. Prints angles, rates, anchors and body states. */
#include <ode/ode.h>
#include <stdio.h>

static void body_state(const char *tag, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    printf("%s p %.10g %.10g %.10g q %.10g %.10g %.10g %.10g v %.10g %.10g %.10g w %.10g %.10g %.10g\n", tag,
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

static void run(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID p, a, b, c, d;
    dJointID hp, hab, hc, hd;
    dVector3 v;
    int s;
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetERP(w, 0.25);
    dWorldSetCFM(w, 1e-7);
    if (quick) dWorldSetQuickStepNumIterations(w, 40);

    /* pendulum to the world: hinge at the origin, axis y, stops */
    p = box(w, 0.6, 0, 0, 1.5, 0.5, 0.1, 0.1);
    hp = dJointCreateHinge(w, 0);
    dJointAttach(hp, p, 0);
    dJointSetHingeAnchor(hp, 0, 0, 0);
    dJointSetHingeAxis(hp, 0, 1, 0);
    dJointSetHingeParam(hp, dParamLoStop, -0.4);
    dJointSetHingeParam(hp, dParamHiStop, 0.9);
    dJointSetHingeParam(hp, dParamBounce, 0.5);
    dJointSetHingeParam(hp, dParamStopERP, 0.4);
    dJointSetHingeParam(hp, dParamStopCFM, 1e-6);

    /* two bodies, attached as (0, a) then re-attached (b, a) reversed
     * through (0, a): REVERSE handling, motor with infinite FMax */
    a = box(w, -1, 0.5, 1, 2, 0.3, 0.3, 0.3);
    b = box(w, -1, 0.5, 0.4, 1, 0.2, 0.2, 0.6);
    hab = dJointCreateHinge(w, 0);
    dJointAttach(hab, 0, a);
    dJointSetHingeAnchor(hab, -1, 0.5, 1.15);
    dJointSetHingeAxis(hab, 1, 0, 0);
    hc = dJointCreateHinge(w, 0);
    dJointAttach(hc, a, b);
    dJointSetHingeAnchor(hc, -1, 0.5, 0.85);
    dJointSetHingeAxisOffset(hc, 0.3, 1, 0, 0.2);
    dJointSetHingeParam(hc, dParamVel, -1.5);
    dJointSetHingeParam(hc, dParamFMax, dInfinity);

    /* a free pair driven by equal and opposite torques */
    c = box(w, 2, 0, 1, 1, 0.4, 0.2, 0.2);
    d = box(w, 2.5, 0, 1, 0.5, 0.4, 0.2, 0.2);
    dBodySetGravityMode(c, 0);
    dBodySetGravityMode(d, 0);
    hd = dJointCreateHinge(w, 0);
    dJointAttach(hd, c, d);
    dJointSetHingeAnchor(hd, 2.25, 0, 1);
    dJointSetHingeAxis(hd, 0, 0.6, 0.8);

    for (s = 0; s < 160; s++) {
        if (s == 45) {
            /* drive into the high stop with limited force, held there */
            dJointSetHingeParam(hp, dParamVel, 3);
            dJointSetHingeParam(hp, dParamFMax, 40);
        }
        if (s == 85) {
            /* drive away from the stop: fudge factor while at it */
            dJointSetHingeParam(hp, dParamFudgeFactor, 0.3);
            dJointSetHingeParam(hp, dParamVel, -2);
        }
        if (s == 110) dJointSetHingeParam(hp, dParamVel, -6);
        if (s == 120) dJointSetHingeParam(hc, dParamFMax, 5);
        dJointAddHingeTorque(hd, 0.5 * (s % 20 < 10 ? 1 : -1));
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        if (s % 5 == 4) {
            printf("%s %d hp %.10g %.10g hab %.10g %.10g hc %.10g %.10g hd %.10g %.10g\n", tag, s,
                   dJointGetHingeAngle(hp), dJointGetHingeAngleRate(hp),
                   dJointGetHingeAngle(hab), dJointGetHingeAngleRate(hab),
                   dJointGetHingeAngle(hc), dJointGetHingeAngleRate(hc),
                   dJointGetHingeAngle(hd), dJointGetHingeAngleRate(hd));
            body_state("  p", p);
            body_state("  a", a);
            body_state("  b", b);
            body_state("  c", c);
            body_state("  d", d);
            dJointGetHingeAnchor(hc, v);
            printf("  hc anchor %.10g %.10g %.10g", v[0], v[1], v[2]);
            dJointGetHingeAnchor2(hc, v);
            printf(" anchor2 %.10g %.10g %.10g", v[0], v[1], v[2]);
            dJointGetHingeAxis(hc, v);
            printf(" axis %.10g %.10g %.10g\n", v[0], v[1], v[2]);
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
