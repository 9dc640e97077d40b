/* DIFF-TOL rel=0 abs=0 */
/*
 * Joint argument checks at ODE's own boundaries (issue 9 §1): every call
 * here is one Debian's ODE 0.16.2 accepts and proceeds with, so ours must
 * accept it too and give the same numbers, bit for bit.
 *
 *  1. hinge2 axes set one at a time with the deprecated per-axis setters,
 *     in both orders, on wheel bodies rotated by dRFromAxisAndAngle(1, 0, 0,
 *     pi/2), whose rounding residue makes the not-yet-updated axis 2
 *     parallel to the new axis 1 up to 2.2e-16 (ODE refuses only exactly
 *     parallel axes); then a small four-wheel vehicle built that way drives,
 *     steers and brakes for 300 steps with each stepper.
 *  2. hinge2 axes nearly parallel on unrotated bodies: Axis1(1e-17, 1, 0),
 *     (1e-300, 1, 0), (6e-309, 1, 0) against axis 2 (0, 1, 0).
 *  3. Tiny axes for every joint with an axis (hinge, slider, universal, PR,
 *     PU, piston, amotor, lmotor, double hinge, transmission): components
 *     down to 6e-309, just above the size below which ODE's normalisation
 *     overflows (about 5.6e-309), on rotated bodies, with getters and a step.
 *  4. Out-of-order setters: anchors and axes set before dJointAttach (ODE
 *     ignores the axes of an unattached joint), two-axis joints set one
 *     axis at a time in both orders on rotated bodies, nearly parallel
 *     universal axes, a double ball distance of -0.
 * Prints %.17g; Debian's trace and ours must be identical text.
 */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>

static dWorldID world;

static void p3(const char *label, const dReal *v) { printf("%s %.17g %.17g %.17g\n", label, v[0], v[1], v[2]); }
static void p1(const char *label, dReal v) { printf("%s %.17g\n", label, v); }

static void pbody(const char *label, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    printf("%s p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g\n", label, p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
    printf("%s v %.17g %.17g %.17g w %.17g %.17g %.17g\n", label, v[0], v[1], v[2], w[0], w[1], w[2]);
}

static dBodyID body_at(dReal x, dReal y, dReal z, const dReal *axis_angle)
{
    dBodyID b = dBodyCreate(world);
    dMass m;
    dMassSetBox(&m, 1, 0.3, 0.4, 0.5);
    dBodySetMass(b, &m);
    dBodySetPosition(b, x, y, z);
    if (axis_angle) {
        dMatrix3 R;
        dRFromAxisAndAngle(R, axis_angle[0], axis_angle[1], axis_angle[2], axis_angle[3]);
        dBodySetRotation(b, R);
    }
    return b;
}

static void hinge2_state(const char *label, dJointID j)
{
    dVector3 v;
    printf("%s\n", label);
    dJointGetHinge2Axis1(j, v); p3(" axis1", v);
    dJointGetHinge2Axis2(j, v); p3(" axis2", v);
    dJointGetHinge2Anchor(j, v); p3(" anchor", v);
    dJointGetHinge2Anchor2(j, v); p3(" anchor2", v);
    p1(" angle1", dJointGetHinge2Angle1(j));
    p1(" angle2", dJointGetHinge2Angle2(j));
    p1(" rate1", dJointGetHinge2Angle1Rate(j));
    p1(" rate2", dJointGetHinge2Angle2Rate(j));
}

/* ---- 1. the vehicle ---------------------------------------------------------------- */

#define NWHEEL 4
static dSpaceID space;
static dJointGroupID contacts;
static dGeomID ground;

static void near_cb(void *data, dGeomID a, dGeomID b)
{
    dContact c[8];
    int i, n;
    dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
    (void)data;
    if (ba && bb && dAreConnectedExcluding(ba, bb, dJointTypeContact)) return;
    n = dCollide(a, b, 8, &c[0].geom, sizeof(dContact));
    for (i = 0; i < n; i++) {
        c[i].surface.mode = dContactSlip1 | dContactSlip2 | dContactSoftERP | dContactSoftCFM | dContactApprox1;
        c[i].surface.mu = 2;
        c[i].surface.slip1 = 0.05;
        c[i].surface.slip2 = 0.05;
        c[i].surface.soft_erp = 0.6;
        c[i].surface.soft_cfm = 0.01;
        dJointID j = dJointCreateContact(world, contacts, &c[i]);
        dJointAttach(j, ba, bb);
    }
}

static void vehicle(int quick)
{
    static const dReal wheel_rot[4] = {1, 0, 0, M_PI / 2};
    const dReal wx[NWHEEL] = {0.6, 0.6, -0.6, -0.6}, wy[NWHEEL] = {0.45, -0.45, 0.45, -0.45};
    dBodyID chassis, wheel[NWHEEL];
    dJointID h[NWHEEL];
    dMass m;
    int i, step;
    char label[64];

    world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, -9.81);
    space = dSimpleSpaceCreate(0);
    contacts = dJointGroupCreate(0);
    ground = dCreatePlane(space, 0, 0, 1, 0);

    chassis = dBodyCreate(world);
    dBodySetPosition(chassis, 0, 0, 0.55);
    dMassSetBoxTotal(&m, 2, 1.6, 0.7, 0.2);
    dBodySetMass(chassis, &m);
    dGeomSetBody(dCreateBox(space, 1.6, 0.7, 0.2), chassis);

    for (i = 0; i < NWHEEL; i++) {
        wheel[i] = body_at(wx[i], wy[i], 0.3, wheel_rot);
        dMassSetSphereTotal(&m, 0.3, 0.2);
        dBodySetMass(wheel[i], &m);
        dGeomSetBody(dCreateSphere(space, 0.2), wheel[i]);
        h[i] = dJointCreateHinge2(world, 0);
        dJointAttach(h[i], chassis, wheel[i]);
        dJointSetHinge2Anchor(h[i], wx[i], wy[i], 0.3);
        sprintf(label, "wheel %d attached", i);
        hinge2_state(label, h[i]);
        /* The deprecated per-axis setters, in both orders. Setting axis 1
         * first leaves the rotated wheel's current axis 2 at world
         * (0, 2.2e-16, 1): parallel to the new axis 1 but for rounding. */
        if (i % 2 == 0) {
            dJointSetHinge2Axis1(h[i], 0, 0, 1);
            sprintf(label, "wheel %d axis1 set first", i);
            hinge2_state(label, h[i]);
            dJointSetHinge2Axis2(h[i], 0, 1, 0);
        } else {
            dJointSetHinge2Axis2(h[i], 0, 1, 0);
            sprintf(label, "wheel %d axis2 set first", i);
            hinge2_state(label, h[i]);
            dJointSetHinge2Axis1(h[i], 0, 0, 1);
        }
        sprintf(label, "wheel %d both axes", i);
        hinge2_state(label, h[i]);
        dJointSetHinge2Param(h[i], dParamSuspensionERP, 0.4);
        dJointSetHinge2Param(h[i], dParamSuspensionCFM, 0.05);
        dJointSetHinge2Param(h[i], dParamFMax2, 3);
        if (i >= 2) {
            dJointSetHinge2Param(h[i], dParamLoStop, 0);
            dJointSetHinge2Param(h[i], dParamHiStop, 0);
        } else {
            dJointSetHinge2Param(h[i], dParamLoStop, -0.5);
            dJointSetHinge2Param(h[i], dParamHiStop, 0.5);
            dJointSetHinge2Param(h[i], dParamFMax, 5);
        }
    }

    for (step = 0; step < 300; step++) {
        /* drive, then steer left, then brake */
        dReal speed = step < 200 ? -8.0 : 0.0;
        dReal steer = step >= 80 && step < 160 ? 0.4 : 0.0;
        for (i = 0; i < NWHEEL; i++) {
            dJointSetHinge2Param(h[i], dParamVel2, speed);
            if (i < 2) {
                dJointSetHinge2Param(h[i], dParamVel, 2 * (steer - dJointGetHinge2Angle1(h[i])));
            }
        }
        dSpaceCollide(space, 0, &near_cb);
        if (quick) dWorldQuickStep(world, 0.01);
        else dWorldStep(world, 0.01);
        dJointGroupEmpty(contacts);
        if (step % 10 == 9) {
            sprintf(label, "%s %d chassis", quick ? "quick" : "step", step + 1);
            pbody(label, chassis);
            for (i = 0; i < NWHEEL; i++) {
                printf("  h%d %.17g %.17g %.17g %.17g\n", i, dJointGetHinge2Angle1(h[i]), dJointGetHinge2Angle2(h[i]),
                       dJointGetHinge2Angle1Rate(h[i]), dJointGetHinge2Angle2Rate(h[i]));
            }
        }
    }
    dJointGroupDestroy(contacts);
    dSpaceDestroy(space);
    dWorldDestroy(world);
}

/* ---- 2. nearly parallel hinge2 axes ------------------------------------------------ */

static void hinge2_near_parallel(void)
{
    static const dReal tiny[] = {1e-17, 1e-300, 6e-309};
    static const dReal rot[4] = {0.3, -0.5, 0.8, 1.1};
    unsigned k;
    world = dWorldCreate();
    for (k = 0; k < sizeof tiny / sizeof tiny[0]; k++) {
        char label[64];
        dBodyID a = body_at(0, 0, 1, 0), b = body_at(0.5, 0, 1, 0);
        dJointID j = dJointCreateHinge2(world, 0);
        dJointAttach(j, a, b);
        dJointSetHinge2Anchor(j, 0.25, 0, 1);
        dJointSetHinge2Axis1(j, tiny[k], 1, 0);
        sprintf(label, "near-parallel axis1 (%g, 1, 0)", tiny[k]);
        hinge2_state(label, j);
        /* the same through dJointSetHinge2Axes, axis 2 only, then both */
        {
            dReal a2[3] = {0, 1, tiny[k]};
            dJointSetHinge2Axes(j, 0, a2);
            hinge2_state(" axes(NULL, (0, 1, tiny))", j);
        }
        dBodySetAngularVel(b, 0.1, 0.2, 0.3);
        dWorldStep(world, 0.01);
        hinge2_state(" after a step", j);
        pbody(" a", a);
        pbody(" b", b);
        /* nearly parallel on rotated bodies (a fresh pair: re-attaching
         * these bodies rotated alike would make the axes exactly parallel,
         * which ODE refuses, see t_checks_boundaries_refused.c) */
        {
            dVector3 a1;
            dBodyID c = body_at(0, 1, 1, rot), d = body_at(0.5, 1, 1, rot);
            dJointID jr = dJointCreateHinge2(world, 0);
            dJointAttach(jr, c, d);
            dJointSetHinge2Anchor(jr, 0.25, 1, 1);
            dJointGetHinge2Axis2(jr, a1);
            a1[2] += 4 * tiny[k] + 1e-15;
            dJointSetHinge2Axes(jr, a1, 0);
            hinge2_state(" rotated, axis1 = axis2 + (0, 0, 1e-15)", jr);
        }
    }
    dWorldDestroy(world);
}

/* ---- 3. tiny axes on every joint with an axis -------------------------------------- */

static void tiny_axes(void)
{
    /* The last column says whether body 1 is rotated. ODE normalises the
     * axes of the motors, the double hinge and the transmission after
     * taking them into a body's frame, where a rotation can shrink a
     * component below the limit: the 6e-309 axes are used unrotated. */
    static const dReal axes[][4] = {
        {6e-309, 0, 0, 0}, {0, -6e-309, 6e-309, 0}, {1e-300, 2e-300, -3e-300, 1}, {1e-200, 0, 1e-210, 1},
        {0, 0, 2.2250738585072014e-308, 1},
    };
    static const dReal rot[4] = {-0.2, 0.7, 0.4, 0.9};
    unsigned k;
    for (k = 0; k < sizeof axes / sizeof axes[0]; k++) {
        const dReal *x = axes[k];
        dVector3 v;
        dBodyID a, b;
        dJointID j;
        world = dWorldCreate();
        a = body_at(0, 0, 1, x[3] != 0 ? rot : 0);
        b = body_at(0.4, 0.1, 1.2, 0);
        dBodySetAngularVel(a, 0.2, -0.1, 0.3);
        dBodySetLinearVel(b, 0.1, 0.2, -0.3);
        printf("tiny axis %d (%g, %g, %g)\n", k, x[0], x[1], x[2]);

        j = dJointCreateHinge(world, 0);
        dJointAttach(j, a, b);
        dJointSetHingeAnchor(j, 0.2, 0, 1);
        dJointSetHingeAxis(j, x[0], x[1], x[2]);
        dJointGetHingeAxis(j, v); p3(" hinge axis", v);
        dJointSetHingeAxisOffset(j, x[0], x[1], x[2], 0.3);
        dJointGetHingeAxis(j, v); p3(" hinge axis offset", v);
        p1(" hinge angle", dJointGetHingeAngle(j));

        j = dJointCreateSlider(world, 0);
        dJointAttach(j, a, b);
        dJointSetSliderAxis(j, x[0], x[1], x[2]);
        dJointGetSliderAxis(j, v); p3(" slider axis", v);
        p1(" slider pos", dJointGetSliderPosition(j));
        dJointSetSliderAxisDelta(j, x[0], x[1], x[2], 0.1, 0.2, 0.3);
        dJointGetSliderAxis(j, v); p3(" slider axis delta", v);

        j = dJointCreateUniversal(world, 0);
        dJointAttach(j, a, b);
        dJointSetUniversalAnchor(j, 0.2, 0.05, 1.1);
        dJointSetUniversalAxis1(j, x[0], x[1], x[2]);
        dJointSetUniversalAxis2(j, 0, 1, 0);
        dJointGetUniversalAxis1(j, v); p3(" universal axis1", v);
        dJointGetUniversalAxis2(j, v); p3(" universal axis2", v);
        p1(" universal angle1", dJointGetUniversalAngle1(j));
        p1(" universal angle2", dJointGetUniversalAngle2(j));

        j = dJointCreatePR(world, 0);
        dJointAttach(j, a, b);
        dJointSetPRAxis1(j, x[0], x[1], x[2]);
        dJointSetPRAxis2(j, 0, 1, 0);
        dJointGetPRAxis1(j, v); p3(" pr axis1", v);
        dJointGetPRAxis2(j, v); p3(" pr axis2", v);
        p1(" pr position", dJointGetPRPosition(j));

        j = dJointCreatePU(world, 0);
        dJointAttach(j, a, b);
        dJointSetPUAxis1(j, x[0], x[1], x[2]);
        dJointSetPUAxis3(j, x[0], x[1], x[2]);
        dJointGetPUAxis1(j, v); p3(" pu axis1", v);
        dJointGetPUAxis3(j, v); p3(" pu axis3", v);
        p1(" pu position", dJointGetPUPosition(j));

        j = dJointCreatePiston(world, 0);
        dJointAttach(j, a, b);
        dJointSetPistonAxis(j, x[0], x[1], x[2]);
        dJointGetPistonAxis(j, v); p3(" piston axis", v);
        p1(" piston position", dJointGetPistonPosition(j));

        j = dJointCreateAMotor(world, 0);
        dJointAttach(j, a, b);
        dJointSetAMotorNumAxes(j, 3);
        dJointSetAMotorAxis(j, 0, 1, x[0], x[1], x[2]);
        dJointSetAMotorAxis(j, 1, 0, x[2], x[0], x[1]);
        dJointSetAMotorAxis(j, 2, 2, x[1], x[2], x[0]);
        dJointGetAMotorAxis(j, 0, v); p3(" amotor axis0", v);
        dJointGetAMotorAxis(j, 1, v); p3(" amotor axis1", v);
        dJointGetAMotorAxis(j, 2, v); p3(" amotor axis2", v);
        dJointSetAMotorParam(j, dParamFMax, 1);
        dJointSetAMotorParam(j, dParamVel, 0.5);

        j = dJointCreateLMotor(world, 0);
        dJointAttach(j, a, b);
        dJointSetLMotorNumAxes(j, 2);
        dJointSetLMotorAxis(j, 0, 1, x[0], x[1], x[2]);
        dJointSetLMotorAxis(j, 1, 2, x[2], x[1], x[0]);
        dJointGetLMotorAxis(j, 0, v); p3(" lmotor axis0", v);
        dJointGetLMotorAxis(j, 1, v); p3(" lmotor axis1", v);

        j = dJointCreateDHinge(world, 0);
        dJointAttach(j, a, b);
        dJointSetDHingeAnchor1(j, 0, 0, 1);
        dJointSetDHingeAnchor2(j, 0.4, 0.1, 1.2);
        dJointSetDHingeAxis(j, x[0], x[1], x[2]);
        dJointGetDHingeAxis(j, v); p3(" dhinge axis", v);

        j = dJointCreateTransmission(world, 0);
        dJointAttach(j, a, b);
        dJointSetTransmissionMode(j, dTransmissionIntersectingAxes);
        dJointSetTransmissionAxis1(j, x[0], x[1], x[2]);
        dJointSetTransmissionAxis2(j, x[1], x[2], x[0] + 1);
        dJointGetTransmissionAxis1(j, v); p3(" transmission axis1", v);
        dJointGetTransmissionAxis2(j, v); p3(" transmission axis2", v);
        dJointSetTransmissionMode(j, dTransmissionParallelAxes);
        dJointSetTransmissionAxis(j, x[0], x[1], x[2]);
        dJointGetTransmissionAxis(j, v); p3(" transmission axis", v);

        /* the lot together for a few steps (no NaN may appear) */
        {
            int s;
            for (s = 0; s < 3; s++) dWorldStep(world, 0.01);
        }
        pbody(" a", a);
        pbody(" b", b);
        dWorldDestroy(world);
    }
}

/* ---- 4. out-of-order setter sequences ------------------------------------------------ */

static void before_attach(void)
{
    static const dReal rot[4] = {0.5, 0.5, -0.1, 0.7};
    dVector3 v;
    dJointID j[10];
    dBodyID a, b;
    int i;
    world = dWorldCreate();
    a = body_at(0, 0, 1, rot);
    b = body_at(0.3, -0.2, 1.1, 0);
    printf("setters before attach\n");
    j[0] = dJointCreateHinge(world, 0);
    dJointSetHingeAnchor(j[0], 1, 2, 3);
    dJointSetHingeAxis(j[0], 0, 1, 0);
    dJointSetHingeAxis(j[0], 0, 0, 0); /* ignored by ODE while unattached */
    j[1] = dJointCreateSlider(world, 0);
    dJointSetSliderAxis(j[1], 0, 1, 0);
    dJointSetSliderAxis(j[1], 0, 0, 0);
    j[2] = dJointCreateUniversal(world, 0);
    dJointSetUniversalAnchor(j[2], 1, 2, 3);
    dJointSetUniversalAxis1(j[2], 0, 0, 1);
    dJointSetUniversalAxis2(j[2], 0, 0, 0);
    j[3] = dJointCreateHinge2(world, 0);
    dJointSetHinge2Anchor(j[3], 1, 2, 3);
    j[4] = dJointCreatePR(world, 0);
    dJointSetPRAnchor(j[4], 1, 2, 3);
    dJointSetPRAxis1(j[4], 0, 0, 0);
    dJointSetPRAxis2(j[4], 1, 1, 0);
    j[5] = dJointCreatePU(world, 0);
    dJointSetPUAnchor(j[5], 1, 2, 3);
    dJointSetPUAxis1(j[5], 0, 0, 0);
    dJointSetPUAxis2(j[5], 0, 1, 1);
    dJointSetPUAxis3(j[5], 0, 0, 0);
    j[6] = dJointCreatePiston(world, 0);
    dJointSetPistonAnchor(j[6], 1, 2, 3);
    dJointSetPistonAxis(j[6], 0, 0, 0);
    j[7] = dJointCreateAMotor(world, 0);
    dJointSetAMotorNumAxes(j[7], 1);
    dJointSetAMotorAxis(j[7], 0, 0, 0, 3, 4);
    j[8] = dJointCreateTransmission(world, 0);
    dJointSetTransmissionAxis(j[8], 0, 0, 0);
    dJointSetTransmissionAnchor1(j[8], 1, 2, 3);
    j[9] = dJointCreateDBall(world, 0);
    dJointSetDBallAnchor1(j[9], 1, 2, 3);
    dJointSetDBallAnchor2(j[9], 2, 3, 4);
    dJointSetDBallDistance(j[9], -0.0);
    p1(" dball distance", dJointGetDBallDistance(j[9]));
    for (i = 0; i < 10; i++) dJointAttach(j[i], a, b);
    dJointGetHingeAnchor(j[0], v); p3(" hinge anchor", v);
    dJointGetHingeAxis(j[0], v); p3(" hinge axis", v);
    dJointGetSliderAxis(j[1], v); p3(" slider axis", v);
    dJointGetUniversalAnchor(j[2], v); p3(" universal anchor", v);
    dJointGetUniversalAxis1(j[2], v); p3(" universal axis1", v);
    dJointGetUniversalAxis2(j[2], v); p3(" universal axis2", v);
    hinge2_state(" hinge2", j[3]);
    dJointGetPRAxis1(j[4], v); p3(" pr axis1", v);
    dJointGetPRAxis2(j[4], v); p3(" pr axis2", v);
    dJointGetPUAxis1(j[5], v); p3(" pu axis1", v);
    dJointGetPUAxis2(j[5], v); p3(" pu axis2", v);
    dJointGetPUAxis3(j[5], v); p3(" pu axis3", v);
    dJointGetPistonAxis(j[6], v); p3(" piston axis", v);
    dJointGetAMotorAxis(j[7], 0, v); p3(" amotor axis0", v);
    dJointGetTransmissionAxis1(j[8], v); p3(" transmission axis1", v);
    dJointGetDBallAnchor1(j[9], v); p3(" dball anchor1", v);
    dJointGetDBallAnchor2(j[9], v); p3(" dball anchor2", v);
    dWorldDestroy(world);
}

static void one_axis_at_a_time(void)
{
    /* rotations whose matrices carry rounding residue */
    static const dReal rots[][4] = {{1, 0, 0, M_PI / 2}, {0, 1, 0, M_PI}, {1, 1, 1, 2 * M_PI / 3}, {0, 0, 1, -M_PI / 2}};
    unsigned k;
    for (k = 0; k < sizeof rots / sizeof rots[0]; k++) {
        dVector3 v;
        dBodyID a, b;
        dJointID u1, u2, pr, pu;
        int order;
        world = dWorldCreate();
        a = body_at(0, 0, 1, 0);
        b = body_at(0.5, 0, 1, rots[k]);
        printf("one axis at a time, body 2 rotated by %d\n", (int)k);
        for (order = 0; order < 2; order++) {
            u1 = dJointCreateUniversal(world, 0);
            dJointAttach(u1, a, b);
            dJointSetUniversalAnchor(u1, 0.25, 0, 1);
            if (order == 0) {
                dJointSetUniversalAxis1(u1, 0, 0, 1);
                dJointGetUniversalAxis2(u1, v); p3("  universal axis2 between", v);
                dJointSetUniversalAxis2(u1, 0, 1, 0);
            } else {
                dJointSetUniversalAxis2(u1, 0, 1, 0);
                dJointGetUniversalAxis1(u1, v); p3("  universal axis1 between", v);
                dJointSetUniversalAxis1(u1, 0, 0, 1);
            }
            dJointGetUniversalAxis1(u1, v); p3("  universal axis1", v);
            dJointGetUniversalAxis2(u1, v); p3("  universal axis2", v);
            p1("  universal angle1", dJointGetUniversalAngle1(u1));
            p1("  universal angle2", dJointGetUniversalAngle2(u1));
            /* nearly parallel universal axes (ODE has no check) */
            u2 = dJointCreateUniversal(world, 0);
            dJointAttach(u2, a, b);
            dJointSetUniversalAxis1(u2, 1e-17, 1, 0);
            dJointSetUniversalAxis2(u2, 0, 1, 1e-300);
            dJointGetUniversalAxis1(u2, v); p3("  near-parallel universal axis1", v);
            dJointGetUniversalAxis2(u2, v); p3("  near-parallel universal axis2", v);
            pr = dJointCreatePR(world, 0);
            dJointAttach(pr, a, b);
            if (order == 0) {
                dJointSetPRAxis1(pr, 0, 0, 1);
                dJointSetPRAxis2(pr, 0, 1, 0);
            } else {
                dJointSetPRAxis2(pr, 0, 1, 0);
                dJointSetPRAxis1(pr, 0, 0, 1);
            }
            dJointGetPRAxis1(pr, v); p3("  pr axis1", v);
            dJointGetPRAxis2(pr, v); p3("  pr axis2", v);
            p1("  pr angle", dJointGetPRAngle(pr));
            pu = dJointCreatePU(world, 0);
            dJointAttach(pu, a, b);
            if (order == 0) {
                dJointSetPUAxis1(pu, 0, 0, 1);
                dJointSetPUAxis2(pu, 0, 1, 0);
            } else {
                dJointSetPUAxis2(pu, 0, 1, 0);
                dJointSetPUAxis1(pu, 0, 0, 1);
            }
            dJointGetPUAxis1(pu, v); p3("  pu axis1", v);
            dJointGetPUAxis2(pu, v); p3("  pu axis2", v);
            p1("  pu angle1", dJointGetPUAngle1(pu));
            p1("  pu angle2", dJointGetPUAngle2(pu));
        }
        {
            int s;
            dBodySetAngularVel(b, 0.3, 0.1, -0.2);
            for (s = 0; s < 5; s++) dWorldStep(world, 0.01);
        }
        pbody(" a", a);
        pbody(" b", b);
        dWorldDestroy(world);
    }
}

int main(void)
{
    dInitODE2(0);
    vehicle(0);
    vehicle(1);
    hinge2_near_parallel();
    tiny_axes();
    before_attach();
    one_axis_at_a_time();
    dCloseODE();
    return 0;
}
