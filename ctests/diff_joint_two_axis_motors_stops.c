/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* One second (100 steps of 10 ms) of each two-axis joint type (universal, hinge2, PR, PU, piston) with motors
 * and stops engaged, with dWorldStep then dWorldQuickStep: universal
 * (pendulum to the world with stops on both axes, a reversed one, a
 * free pair with a motor and torques), hinge2 (a suspended, steered and
 * driven wheel on a fixed chassis), PR, PU and piston (to the world, as
 * (0, body), and between two bodies; stops with bounce, motors into and
 * away from stops, fudge factor, adders). Prints joint getters, feedback
 * and body states with 17 digits. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

static void body_state(const char *tag, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    printf("  %s p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n", tag,
           p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
}

static void fb(const char *tag, dJointFeedback *f)
{
    printf("  %s f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g f2 %.17g %.17g %.17g t2 %.17g %.17g %.17g\n", tag,
           f->f1[0], f->f1[1], f->f1[2], f->t1[0], f->t1[1], f->t1[2],
           f->f2[0], f->f2[1], f->f2[2], f->t2[0], f->t2[1], f->t2[2]);
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

static void step(dWorldID w, int quick)
{
    if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
}

static void universal(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID p, r, a, b;
    dJointID jp, jr, jab;
    dJointFeedback f1, f2;
    dReal a1, a2;
    int s;
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetERP(w, 0.3);
    dWorldSetCFM(w, 1e-8);
    if (quick) dWorldSetQuickStepNumIterations(w, 30);

    /* pendulum on a universal joint to the world, stops on both axes */
    p = box(w, 0.5, 0.2, -0.4, 1.2, 0.3, 0.2, 0.2);
    dBodySetAngularVel(p, 0.5, -1, 0.2);
    jp = dJointCreateUniversal(w, 0);
    dJointAttach(jp, p, 0);
    dJointSetUniversalAnchor(jp, 0, 0, 0);
    dJointSetUniversalAxis1(jp, 1, 0, 0);
    dJointSetUniversalAxis2(jp, 0, 1, 0);
    dJointSetUniversalParam(jp, dParamLoStop, -0.3);
    dJointSetUniversalParam(jp, dParamHiStop, 0.25);
    dJointSetUniversalParam(jp, dParamBounce, 0.4);
    dJointSetUniversalParam(jp, dParamLoStop2, -0.5);
    dJointSetUniversalParam(jp, dParamHiStop2, 0.2);
    dJointSetUniversalParam(jp, dParamStopERP2, 0.5);
    memset(&f1, 0, sizeof f1);
    dJointSetFeedback(jp, &f1);

    /* the same attached as (0, body), with an axis offset and a motor */
    r = box(w, -1, 0.3, -0.5, 0.8, 0.2, 0.2, 0.4);
    jr = dJointCreateUniversal(w, 0);
    dJointAttach(jr, 0, r);
    dJointSetUniversalAnchor(jr, -1, 0, 0);
    /* (ODE's Axis1Offset is degenerate on a reversed joint: its two
     * reference axes coincide; Axis2Offset is not) */
    dJointSetUniversalAxis1(jr, 0, 1, 0);
    dJointSetUniversalAxis2Offset(jr, 1, 0, 0, 0.1, -0.2);
    dJointSetUniversalParam(jr, dParamVel, 1.5);
    dJointSetUniversalParam(jr, dParamFMax, 4);
    dJointSetUniversalParam(jr, dParamHiStop2, 0.3);

    /* a free pair: motor on axis 1, stops on axis 2, torques */
    a = box(w, 2, 0, 1, 1, 0.4, 0.2, 0.2);
    b = box(w, 2.5, 0.1, 1, 0.5, 0.4, 0.2, 0.2);
    dBodySetGravityMode(a, 0);
    dBodySetGravityMode(b, 0);
    jab = dJointCreateUniversal(w, 0);
    dJointAttach(jab, a, b);
    dJointSetUniversalAnchor(jab, 2.25, 0.05, 1);
    dJointSetUniversalAxis1(jab, 0, 0.6, 0.8);
    dJointSetUniversalAxis2(jab, 0, -0.8, 0.6);
    dJointSetUniversalParam(jab, dParamVel, -2);
    dJointSetUniversalParam(jab, dParamFMax, 0.5);
    dJointSetUniversalParam(jab, dParamLoStop2, -0.15);
    dJointSetUniversalParam(jab, dParamHiStop2, 0.15);
    memset(&f2, 0, sizeof f2);
    dJointSetFeedback(jab, &f2);

    for (s = 0; s < 100; s++) {
        if (s == 40) {
            dJointSetUniversalParam(jp, dParamVel2, 2);
            dJointSetUniversalParam(jp, dParamFMax2, 3);
        }
        if (s == 70) {
            dJointSetUniversalParam(jp, dParamFudgeFactor2, 0.3);
            dJointSetUniversalParam(jp, dParamVel2, -1);
        }
        dJointAddUniversalTorques(jab, 0.2 * (s % 20 < 10 ? 1 : -1), 0.3);
        step(w, quick);
        if (s % 5 == 4) {
            printf("%s uni %d", tag, s);
            dJointGetUniversalAngles(jp, &a1, &a2);
            printf(" jp %.17g %.17g %.17g %.17g", a1, a2, dJointGetUniversalAngle1Rate(jp), dJointGetUniversalAngle2Rate(jp));
            dJointGetUniversalAngles(jr, &a1, &a2);
            printf(" jr %.17g %.17g %.17g %.17g", a1, a2, dJointGetUniversalAngle1(jr), dJointGetUniversalAngle2(jr));
            printf(" jab %.17g %.17g\n", dJointGetUniversalAngle1(jab), dJointGetUniversalAngle2(jab));
            body_state("p", p);
            body_state("r", r);
            body_state("a", a);
            body_state("b", b);
            fb("jp", &f1);
            fb("jab", &f2);
        }
    }
    dWorldDestroy(w);
}

static void hinge2(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID chassis, wheel, c2, w2;
    dJointID fix, h, h2;
    dJointFeedback f;
    dReal ax1[3] = {0, 0, 1}, ax2[3] = {0, 1, 0};
    int s;
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetERP(w, 0.2);
    dWorldSetCFM(w, 1e-7);
    if (quick) dWorldSetQuickStepNumIterations(w, 30);

    chassis = box(w, 0, 0, 1, 5, 1, 0.6, 0.2);
    fix = dJointCreateFixed(w, 0);
    dJointAttach(fix, chassis, 0);
    dJointSetFixed(fix);
    wheel = box(w, 0.5, 0.4, 0.8, 0.5, 0.2, 0.1, 0.2);
    h = dJointCreateHinge2(w, 0);
    dJointAttach(h, chassis, wheel);
    dJointSetHinge2Anchor(h, 0.5, 0.4, 0.8);
    dJointSetHinge2Axes(h, ax1, ax2);
    dJointSetHinge2Param(h, dParamSuspensionERP, 0.4);
    dJointSetHinge2Param(h, dParamSuspensionCFM, 0.02);
    dJointSetHinge2Param(h, dParamLoStop, -0.4);
    dJointSetHinge2Param(h, dParamHiStop, 0.4);
    dJointSetHinge2Param(h, dParamVel, 1.5);
    dJointSetHinge2Param(h, dParamFMax, 2);
    dJointSetHinge2Param(h, dParamVel2, 8);
    dJointSetHinge2Param(h, dParamFMax2, 0.3);
    memset(&f, 0, sizeof f);
    dJointSetFeedback(h, &f);

    /* a free pair with locked steering and torques */
    c2 = box(w, -2, 0, 1, 2, 0.5, 0.3, 0.2);
    w2 = box(w, -2, 0.4, 1, 0.4, 0.2, 0.1, 0.2);
    dBodySetGravityMode(c2, 0);
    dBodySetGravityMode(w2, 0);
    dBodySetAngularVel(w2, 0.3, 2, 0.1);
    h2 = dJointCreateHinge2(w, 0);
    dJointAttach(h2, c2, w2);
    dJointSetHinge2Anchor(h2, -2, 0.35, 1);
    dJointSetHinge2Axis1(h2, 0.1, 0, 1);
    dJointSetHinge2Axis2(h2, 0, 1, 0);
    dJointSetHinge2Param(h2, dParamLoStop, 0);
    dJointSetHinge2Param(h2, dParamHiStop, 0);
    dJointSetHinge2Param(h2, dParamBounce, 0.3);

    for (s = 0; s < 100; s++) {
        if (s == 50) dJointSetHinge2Param(h, dParamVel, -3);
        if (s == 60) dJointSetHinge2Param(h, dParamFudgeFactor, 0.5);
        dJointAddHinge2Torques(h2, 0.1, -0.2 * (s % 30 < 15 ? 1 : -1));
        step(w, quick);
        if (s % 5 == 4) {
            printf("%s h2 %d h %.17g %.17g %.17g %.17g h2 %.17g %.17g %.17g %.17g\n", tag, s,
                   dJointGetHinge2Angle1(h), dJointGetHinge2Angle2(h),
                   dJointGetHinge2Angle1Rate(h), dJointGetHinge2Angle2Rate(h),
                   dJointGetHinge2Angle1(h2), dJointGetHinge2Angle2(h2),
                   dJointGetHinge2Angle1Rate(h2), dJointGetHinge2Angle2Rate(h2));
            body_state("chassis", chassis);
            body_state("wheel", wheel);
            body_state("c2", c2);
            body_state("w2", w2);
            fb("h", &f);
        }
    }
    dWorldDestroy(w);
}

static void pr(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID a, r, b, c;
    dJointID ja, jr, jbc;
    dJointFeedback f;
    int s;
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetERP(w, 0.25);
    dWorldSetCFM(w, 1e-7);
    if (quick) dWorldSetQuickStepNumIterations(w, 30);

    /* slides along z (gravity) into a bouncing low stop, turns about x
     * driven by a motor into a stop */
    a = box(w, 0, 0, 0, 1, 0.2, 0.2, 0.2);
    dBodySetAngularVel(a, 0.3, 0, 0);
    ja = dJointCreatePR(w, 0);
    dJointAttach(ja, a, 0);
    dJointSetPRAnchor(ja, 0, 0, 0.5);
    dJointSetPRAxis1(ja, 0, 0, 1);
    dJointSetPRAxis2(ja, 1, 0, 0);
    dJointSetPRParam(ja, dParamLoStop, -0.1);
    dJointSetPRParam(ja, dParamHiStop, 0.2);
    dJointSetPRParam(ja, dParamBounce, 0.5);
    dJointSetPRParam(ja, dParamLoStop2, -0.5);
    dJointSetPRParam(ja, dParamHiStop2, 0.3);
    dJointSetPRParam(ja, dParamVel2, 2);
    dJointSetPRParam(ja, dParamFMax2, 1);
    memset(&f, 0, sizeof f);
    dJointSetFeedback(ja, &f);

    /* attached as (0, body): motor on the slide */
    r = box(w, 1, 0, 0, 0.7, 0.2, 0.2, 0.2);
    jr = dJointCreatePR(w, 0);
    dJointAttach(jr, 0, r);
    dJointSetPRAnchor(jr, 1, 0, 0.3);
    dJointSetPRAxis1(jr, 0, 0.6, 0.8);
    dJointSetPRAxis2(jr, 1, 0, 0);
    dJointSetPRParam(jr, dParamVel, 0.4);
    dJointSetPRParam(jr, dParamFMax, 15);
    dJointSetPRParam(jr, dParamHiStop, 0.15);

    /* two bodies, no gravity: torque and a slide motor */
    b = box(w, -1, 0, 1, 1, 0.3, 0.2, 0.2);
    c = box(w, -1, 0.5, 1, 0.5, 0.2, 0.2, 0.2);
    dBodySetGravityMode(b, 0);
    dBodySetGravityMode(c, 0);
    jbc = dJointCreatePR(w, 0);
    dJointAttach(jbc, b, c);
    dJointSetPRAnchor(jbc, -1, 0.5, 1);
    dJointSetPRAxis1(jbc, 0, 1, 0);
    dJointSetPRAxis2(jbc, 0, 0, 1);
    dJointSetPRParam(jbc, dParamVel, -0.5);
    dJointSetPRParam(jbc, dParamFMax, 0.2);
    dJointSetPRParam(jbc, dParamLoStop, -0.05);

    for (s = 0; s < 100; s++) {
        if (s == 50) {
            dJointSetPRParam(ja, dParamVel2, -1);
            dJointSetPRParam(ja, dParamFudgeFactor2, 0.2);
        }
        dJointAddPRTorque(jbc, 0.1);
        step(w, quick);
        if (s % 5 == 4) {
            printf("%s pr %d ja %.17g %.17g %.17g %.17g jr %.17g %.17g %.17g %.17g jbc %.17g %.17g %.17g %.17g\n", tag, s,
                   dJointGetPRPosition(ja), dJointGetPRPositionRate(ja), dJointGetPRAngle(ja), dJointGetPRAngleRate(ja),
                   dJointGetPRPosition(jr), dJointGetPRPositionRate(jr), dJointGetPRAngle(jr), dJointGetPRAngleRate(jr),
                   dJointGetPRPosition(jbc), dJointGetPRPositionRate(jbc), dJointGetPRAngle(jbc), dJointGetPRAngleRate(jbc));
            body_state("a", a);
            body_state("r", r);
            body_state("b", b);
            body_state("c", c);
            fb("ja", &f);
        }
    }
    dWorldDestroy(w);
}

static void pu(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID a, r, b, c;
    dJointID ja, jr, jbc;
    dJointFeedback f;
    dReal a1, a2;
    int s;
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetERP(w, 0.25);
    dWorldSetCFM(w, 1e-7);
    if (quick) dWorldSetQuickStepNumIterations(w, 30);

    /* hangs on a PU to the world: slide along z with stops (bounce),
     * stops on both angles */
    a = box(w, 0.3, 0.1, -0.3, 1, 0.2, 0.2, 0.4);
    dBodySetAngularVel(a, 0.4, -0.6, 0);
    ja = dJointCreatePU(w, 0);
    dJointAttach(ja, a, 0);
    dJointSetPUAnchor(ja, 0.3, 0.1, 0);
    dJointSetPUAxis1(ja, 1, 0, 0);
    dJointSetPUAxis2(ja, 0, 1, 0);
    dJointSetPUAxisP(ja, 0, 0, 1);
    dJointSetPUParam(ja, dParamLoStop, -0.3);
    dJointSetPUParam(ja, dParamHiStop, 0.2);
    dJointSetPUParam(ja, dParamLoStop2, -0.2);
    dJointSetPUParam(ja, dParamHiStop2, 0.25);
    dJointSetPUParam(ja, dParamLoStop3, -0.15);
    dJointSetPUParam(ja, dParamHiStop3, 0.1);
    dJointSetPUParam(ja, dParamBounce3, 0.4);
    memset(&f, 0, sizeof f);
    dJointSetFeedback(ja, &f);

    /* as (0, body), anchor offset, slide motor into a stop */
    r = box(w, 1, 0, -0.2, 0.6, 0.2, 0.2, 0.2);
    jr = dJointCreatePU(w, 0);
    dJointAttach(jr, 0, r);
    dJointSetPUAnchorOffset(jr, 1, 0, 0, 0, 0, -0.05);
    dJointSetPUAxis1(jr, 1, 0, 0);
    dJointSetPUAxis2(jr, 0, 1, 0);
    dJointSetPUAxis3(jr, 0, 0, 1);
    dJointSetPUParam(jr, dParamVel3, 0.5);
    dJointSetPUParam(jr, dParamFMax3, 20);
    dJointSetPUParam(jr, dParamHiStop3, 0.1);
    dJointSetPUParam(jr, dParamVel, 1);
    dJointSetPUParam(jr, dParamFMax, 0.5);

    /* two bodies, no gravity, motors on angle 2 and on the slide */
    b = box(w, -1, 0, 1, 1, 0.3, 0.2, 0.2);
    c = box(w, -1, 0.6, 1, 0.5, 0.2, 0.2, 0.2);
    dBodySetGravityMode(b, 0);
    dBodySetGravityMode(c, 0);
    jbc = dJointCreatePU(w, 0);
    dJointAttach(jbc, b, c);
    dJointSetPUAnchorDelta(jbc, -1, 0.5, 1, 0, 0.02, 0);
    dJointSetPUAxis1(jbc, 1, 0, 0);
    dJointSetPUAxis2(jbc, 0, 0, 1);
    dJointSetPUAxis3(jbc, 0, 1, 0);
    dJointSetPUParam(jbc, dParamVel2, 1);
    dJointSetPUParam(jbc, dParamFMax2, 0.3);
    dJointSetPUParam(jbc, dParamVel3, -0.3);
    dJointSetPUParam(jbc, dParamFMax3, 0.5);
    dJointSetPUParam(jbc, dParamLoStop3, -0.1);

    for (s = 0; s < 100; s++) {
        if (s == 50) {
            dJointSetPUParam(jr, dParamFudgeFactor3, 0.4);
            dJointSetPUParam(jr, dParamVel3, -0.5);
        }
        step(w, quick);
        if (s % 5 == 4) {
            printf("%s pu %d", tag, s);
            dJointGetPUAngles(ja, &a1, &a2);
            printf(" ja %.17g %.17g %.17g %.17g %.17g", dJointGetPUPosition(ja), dJointGetPUPositionRate(ja), a1, a2,
                   dJointGetPUAngle1Rate(ja));
            dJointGetPUAngles(jr, &a1, &a2);
            printf(" jr %.17g %.17g %.17g %.17g %.17g", dJointGetPUPosition(jr), dJointGetPUPositionRate(jr), a1, a2,
                   dJointGetPUAngle2Rate(jr));
            printf(" jbc %.17g %.17g %.17g %.17g\n", dJointGetPUPosition(jbc), dJointGetPUPositionRate(jbc),
                   dJointGetPUAngle1(jbc), dJointGetPUAngle2(jbc));
            body_state("a", a);
            body_state("r", r);
            body_state("b", b);
            body_state("c", c);
            fb("ja", &f);
        }
    }
    dWorldDestroy(w);
}

static void piston(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID a, r, b, c;
    dJointID ja, jr, jbc;
    dJointFeedback f;
    int s;
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetERP(w, 0.25);
    dWorldSetCFM(w, 1e-7);
    if (quick) dWorldSetQuickStepNumIterations(w, 30);

    /* falls along a tilted axis into a bouncing stop, turn motor into a
     * turn stop */
    a = box(w, 0, 0, 0, 1, 0.2, 0.2, 0.4);
    ja = dJointCreatePiston(w, 0);
    dJointAttach(ja, a, 0);
    dJointSetPistonAnchor(ja, 0, 0, 0.1);
    dJointSetPistonAxis(ja, 0.2, 0, 1);
    dJointSetPistonParam(ja, dParamLoStop, -0.2);
    dJointSetPistonParam(ja, dParamHiStop, 0.3);
    dJointSetPistonParam(ja, dParamBounce, 0.6);
    dJointSetPistonParam(ja, dParamVel2, 3);
    dJointSetPistonParam(ja, dParamFMax2, 0.8);
    dJointSetPistonParam(ja, dParamHiStop2, 0.5);
    memset(&f, 0, sizeof f);
    dJointSetFeedback(ja, &f);

    /* as (0, body), anchor offset, slide motor */
    r = box(w, 1, 0, 0, 0.6, 0.2, 0.2, 0.2);
    jr = dJointCreatePiston(w, 0);
    dJointAttach(jr, 0, r);
    dJointSetPistonAnchorOffset(jr, 1, 0, 0.2, 0, 0, 0.05);
    dJointSetPistonAxis(jr, 0, 0, 1);
    dJointSetPistonParam(jr, dParamVel, 0.3);
    dJointSetPistonParam(jr, dParamFMax, 12);
    dJointSetPistonParam(jr, dParamLoStop, -0.1);
    dJointSetPistonParam(jr, dParamHiStop, 0.08);

    /* two bodies, no gravity, axis delta, force adder, turn motor */
    b = box(w, -1, 0, 1, 1, 0.3, 0.2, 0.2);
    c = box(w, -1, 0.5, 1.1, 0.5, 0.2, 0.2, 0.2);
    dBodySetGravityMode(b, 0);
    dBodySetGravityMode(c, 0);
    jbc = dJointCreatePiston(w, 0);
    dJointAttach(jbc, b, c);
    dJointSetPistonAnchor(jbc, -1, 0.25, 1.05);
    dJointSetPistonAxisDelta(jbc, 0, 1, 0.2, 0, 0.1, 0);
    dJointSetPistonParam(jbc, dParamVel2, -1);
    dJointSetPistonParam(jbc, dParamFMax2, 0.2);
    dJointSetPistonParam(jbc, dParamLoStop, -0.3);
    dJointSetPistonParam(jbc, dParamHiStop, 0.05);

    for (s = 0; s < 100; s++) {
        if (s == 50) {
            dJointSetPistonParam(ja, dParamVel2, -2);
            dJointSetPistonParam(ja, dParamFudgeFactor2, 0.5);
        }
        dJointAddPistonForce(jbc, 0.4 * (s % 20 < 10 ? 1 : -1));
        step(w, quick);
        if (s % 5 == 4) {
            printf("%s piston %d ja %.17g %.17g %.17g %.17g jr %.17g %.17g %.17g %.17g jbc %.17g %.17g %.17g %.17g\n",
                   tag, s,
                   dJointGetPistonPosition(ja), dJointGetPistonPositionRate(ja), dJointGetPistonAngle(ja),
                   dJointGetPistonAngleRate(ja),
                   dJointGetPistonPosition(jr), dJointGetPistonPositionRate(jr), dJointGetPistonAngle(jr),
                   dJointGetPistonAngleRate(jr),
                   dJointGetPistonPosition(jbc), dJointGetPistonPositionRate(jbc), dJointGetPistonAngle(jbc),
                   dJointGetPistonAngleRate(jbc));
            body_state("a", a);
            body_state("r", r);
            body_state("b", b);
            body_state("c", c);
            fb("ja", &f);
        }
    }
    dWorldDestroy(w);
}

int main(int argc, char **argv)
{
    int quick;
    (void)argc; (void)argv;
    dInitODE2(0);
    for (quick = 0; quick < 2; quick++) {
        universal(quick);
        hinge2(quick);
        pr(quick);
        pu(quick);
        piston(quick);
    }
    dCloseODE();
    return 0;
}
