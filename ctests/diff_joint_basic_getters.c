/* DIFF-TOL rel=0 abs=0 */
/* Joint getters and setters without stepping, for ball, hinge, slider and
 * fixed joints attached as (b0, b1), (b0, 0) and (0, b0): anchors, axes,
 * hinge angle and rate, slider position and rate after moving the bodies,
 * dJointSetHingeAxisOffset, the *Delta setters, parameters of every number
 * (groups 2 and 3 are ignored by single-axis joints), dJointAddHingeTorque
 * and dJointAddSliderForce on the force accumulators, and re-attachment
 * (anchors and axes are kept in the world, angle 0 is reset).
 * tests/joint_basic_getters.rs replays this program step for step on our library
 * (attaching by hand while dJointAttach is not available) and requires an
 * identical trace. Keep both in sync. */
#include <ode/ode.h>
#include <stdio.h>

static void pv(const char *what, const dReal *v)
{
    printf("%s %.17g %.17g %.17g\n", what, v[0], v[1], v[2]);
}

static void pr(const char *what, dReal v)
{
    printf("%s %.17g\n", what, v);
}

static void pose(dBodyID b, dReal x, dReal y, dReal z, dReal ax, dReal ay, dReal az, dReal angle)
{
    dQuaternion q;
    dBodySetPosition(b, x, y, z);
    dQFromAxisAndAngle(q, ax, ay, az, angle);
    dBodySetQuaternion(b, q);
}

static void reset(dBodyID *b)
{
    pose(b[0], 0.3, -0.2, 1.1, 0.3, 1, -0.5, 0.7);
    pose(b[1], 1.2, 0.4, 0.9, -0.6, 0.2, 1, 1.9);
    pose(b[2], -0.5, 0.8, 0.2, 1, 0, 0, 0.3);
    dBodySetLinearVel(b[0], 0.5, -1.5, 0.25);
    dBodySetAngularVel(b[0], 0.7, 0.2, -0.9);
    dBodySetLinearVel(b[1], -0.3, 0.8, 1.1);
    dBodySetAngularVel(b[1], -0.4, 1.3, 0.6);
    dBodySetForce(b[0], 0, 0, 0);
    dBodySetTorque(b[0], 0, 0, 0);
    dBodySetForce(b[1], 0, 0, 0);
    dBodySetTorque(b[1], 0, 0, 0);
}

/* Moves body 0: a rotation about the world axis a through point c, plus a
 * translation. */
static void move0(dBodyID b, const dReal *a, const dReal *c, dReal angle, dReal tx, dReal ty, dReal tz)
{
    dMatrix3 R, Rn;
    dVector3 d, dn;
    const dReal *p = dBodyGetPosition(b);
    int i;
    dRFromAxisAndAngle(R, a[0], a[1], a[2], angle);
    for (i = 0; i < 3; i++) d[i] = p[i] - c[i];
    dMultiply0_331(dn, R, d);
    dBodySetPosition(b, c[0] + dn[0] + tx, c[1] + dn[1] + ty, c[2] + dn[2] + tz);
    dMultiply0_333(Rn, R, dBodyGetRotation(b));
    dBodySetRotation(b, Rn);
}

static void params(const char *tag, dJointID j, void (*set)(dJointID, int, dReal), dReal (*get)(dJointID, int))
{
    static const int groups[3] = {0, dParamGroup2, dParamGroup3};
    int g, p;
    for (g = 0; g < 3; g++) {
        for (p = 0; p < dParamsInGroup; p++) {
            dReal before = get(j, groups[g] + p);
            set(j, groups[g] + p, 0.125 * (p + 1) + g);
            printf("%s param %d %d %.17g %.17g\n", tag, g, p, before, get(j, groups[g] + p));
        }
    }
    /* rejected by ODE's own rules */
    set(j, dParamFMax, -3);
    set(j, dParamFudgeFactor, 1.5);
    set(j, dParamFudgeFactor, -0.5);
    printf("%s param fmax %.17g fudge %.17g\n", tag, get(j, dParamFMax), get(j, dParamFudgeFactor));
}

int main(void)
{
    static const char *names[3] = {"b0b1", "b0", "0b0"};
    dVector3 v;
    dWorldID w;
    dBodyID b[3];
    int k, i;
    dInitODE2(0);
    w = dWorldCreate();
    dWorldSetERP(w, 0.35);
    dWorldSetCFM(w, 2e-6);
    for (i = 0; i < 3; i++) b[i] = dBodyCreate(w);

    for (k = 0; k < 3; k++) {
        dBodyID first = k == 2 ? 0 : b[0];
        dBodyID second = k == 0 ? b[1] : (k == 1 ? 0 : b[0]);
        const dReal anchor[3] = {0.5, 0.1, 1.0};
        const dReal axis[3] = {0.2, 0.9, -0.4};
        const dReal other[3] = {-0.7, 0.1, 0.3};
        dJointID j;
        printf("== attach %s\n", names[k]);

        /* ball */
        reset(b);
        j = dJointCreateBall(w, 0);
        dJointAttach(j, first, second);
        dJointGetBallAnchor(j, v); pv("ball anchor fresh", v);
        dJointSetBallAnchor(j, anchor[0], anchor[1], anchor[2]);
        dJointGetBallAnchor(j, v); pv("ball anchor", v);
        dJointGetBallAnchor2(j, v); pv("ball anchor2", v);
        move0(b[0], other, anchor, 0.4, 0.05, -0.1, 0.02);
        dJointGetBallAnchor(j, v); pv("ball anchor moved", v);
        dJointGetBallAnchor2(j, v); pv("ball anchor2 moved", v);
        dJointAttach(j, b[2], first);
        dJointGetBallAnchor(j, v); pv("ball anchor reattached", v);
        dJointGetBallAnchor2(j, v); pv("ball anchor2 reattached", v);
        dJointSetBallAnchor2(j, 0.25, -0.5, 0.75);
        dJointGetBallAnchor2(j, v); pv("ball anchor2 set", v);
        params("ball", j, dJointSetBallParam, dJointGetBallParam);
        dJointDestroy(j);

        /* hinge */
        reset(b);
        j = dJointCreateHinge(w, 0);
        dJointAttach(j, first, second);
        dJointGetHingeAxis(j, v); pv("hinge axis fresh", v);
        pr("hinge angle fresh", dJointGetHingeAngle(j));
        dJointSetHingeAnchor(j, anchor[0], anchor[1], anchor[2]);
        dJointSetHingeAxis(j, axis[0], axis[1], axis[2]);
        dJointGetHingeAnchor(j, v); pv("hinge anchor", v);
        dJointGetHingeAnchor2(j, v); pv("hinge anchor2", v);
        dJointGetHingeAxis(j, v); pv("hinge axis", v);
        pr("hinge angle", dJointGetHingeAngle(j));
        pr("hinge rate", dJointGetHingeAngleRate(j));
        for (i = 0; i < 5; i++) {
            move0(b[0], axis, anchor, 0.45 + 0.6 * i, 0, 0, 0);
            printf("hinge turn %d: ", i);
            pr("angle", dJointGetHingeAngle(j));
            dJointGetHingeAnchor(j, v); pv("hinge anchor turned", v);
            dJointGetHingeAnchor2(j, v); pv("hinge anchor2 turned", v);
        }
        move0(b[0], other, anchor, 0.2, 0.1, 0.2, 0.3);
        pr("hinge angle off-axis", dJointGetHingeAngle(j));
        pr("hinge rate off-axis", dJointGetHingeAngleRate(j));
        dJointGetHingeAxis(j, v); pv("hinge axis off-axis", v);
        dJointAddHingeTorque(j, 2.5);
        pv("hinge torque b0", dBodyGetTorque(b[0]));
        pv("hinge torque b1", dBodyGetTorque(b[1]));
        pv("hinge force b0", dBodyGetForce(b[0]));
        dJointSetHingeAxisOffset(j, other[0], other[1], other[2], 0.6);
        pr("hinge angle after offset", dJointGetHingeAngle(j));
        dJointGetHingeAxis(j, v); pv("hinge axis after offset", v);
        dJointSetHingeAnchorDelta(j, 0.1, 0.2, 0.3, 0.5, -0.25, 0.125);
        dJointGetHingeAnchor(j, v); pv("hinge anchor delta", v);
        dJointGetHingeAnchor2(j, v); pv("hinge anchor2 delta", v);
        pr("hinge angle delta", dJointGetHingeAngle(j));
        move0(b[0], axis, anchor, -0.3, 0, 0, 0);
        dJointAttach(j, b[2], first);
        pr("hinge angle reattached", dJointGetHingeAngle(j));
        dJointGetHingeAxis(j, v); pv("hinge axis reattached", v);
        dJointGetHingeAnchor(j, v); pv("hinge anchor reattached", v);
        dJointGetHingeAnchor2(j, v); pv("hinge anchor2 reattached", v);
        params("hinge", j, dJointSetHingeParam, dJointGetHingeParam);
        dJointDestroy(j);

        /* slider */
        reset(b);
        j = dJointCreateSlider(w, 0);
        dJointAttach(j, first, second);
        pr("slider position fresh", dJointGetSliderPosition(j));
        dJointSetSliderAxis(j, axis[0], axis[1], axis[2]);
        dJointGetSliderAxis(j, v); pv("slider axis", v);
        pr("slider position", dJointGetSliderPosition(j));
        pr("slider rate", dJointGetSliderPositionRate(j));
        move0(b[0], axis, anchor, 0, 0.2, 0.9, -0.4);
        pr("slider position moved", dJointGetSliderPosition(j));
        move0(b[0], other, anchor, 0.3, -0.3, 0.1, 0.2);
        pr("slider position moved off-axis", dJointGetSliderPosition(j));
        pr("slider rate moved off-axis", dJointGetSliderPositionRate(j));
        dJointGetSliderAxis(j, v); pv("slider axis moved", v);
        dJointAddSliderForce(j, -1.75);
        pv("slider force b0", dBodyGetForce(b[0]));
        pv("slider force b1", dBodyGetForce(b[1]));
        pv("slider torque b0", dBodyGetTorque(b[0]));
        pv("slider torque b1", dBodyGetTorque(b[1]));
        dJointSetSliderAxisDelta(j, other[0], other[1], other[2], 0.5, 0.25, -0.125);
        pr("slider position delta", dJointGetSliderPosition(j));
        dJointGetSliderAxis(j, v); pv("slider axis delta", v);
        move0(b[0], other, anchor, 0, 0.5, 0.5, 0.5);
        pr("slider position delta moved", dJointGetSliderPosition(j));
        dJointAttach(j, b[2], first);
        pr("slider position reattached", dJointGetSliderPosition(j));
        dJointGetSliderAxis(j, v); pv("slider axis reattached", v);
        params("slider", j, dJointSetSliderParam, dJointGetSliderParam);
        dJointDestroy(j);

        /* fixed */
        reset(b);
        j = dJointCreateFixed(w, 0);
        dJointAttach(j, first, second);
        dJointSetFixed(j);
        params("fixed", j, dJointSetFixedParam, dJointGetFixedParam);
        dJointDestroy(j);
    }
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
