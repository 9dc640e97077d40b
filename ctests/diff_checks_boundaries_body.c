/* DIFF-TOL rel=0 abs=0 */
/*
 * Body, mass, rotation and math argument checks at ODE's own boundaries
 * (issue 9 §1): every call here is one Debian's ODE 0.16.2 accepts and
 * proceeds with, so ours must accept it and give the same numbers.
 *
 *  - damping scales outside [0, 1], negative damping and auto-disable
 *    thresholds (stored squared), negative idle time and steps, a negative
 *    maximum angular speed: set on bodies of a jointed scene that is then
 *    stepped (both steppers), so the values act;
 *  - a quaternion whose squared length overflows (ODE stores zero), tiny
 *    quaternions that still normalise, matrices just inside ODE's
 *    orthogonalisation assertion (rows 1e-10 from parallel), rows scaled
 *    by 1e-200 and 1e200, a sheared matrix;
 *  - a mass of 1e-300 with inertia 1e-300, the centre of mass at exactly
 *    DBL_EPSILON;
 *  - dNormalize3/dRFromZAxis of (6e-309, 0, 0), dNormalize4 of tiny and
 *    huge vectors, dWorldImpulseToForce and a step with a 1e-300 step.
 * Values whose boundary ODE guards (and the refused side of every boundary)
 * are in t_checks_boundaries_refused.c. Prints %.17g: identical text.
 */
#include <ode/ode.h>
#include <stdio.h>
#include <float.h>
#include <math.h>

static void p3(const char *label, const dReal *v) { printf("%s %.17g %.17g %.17g\n", label, v[0], v[1], v[2]); }
static void p4(const char *label, const dReal *v) { printf("%s %.17g %.17g %.17g %.17g\n", label, v[0], v[1], v[2], v[3]); }
static void pR(const char *label, const dReal *R)
{
    printf("%s", label);
    for (int i = 0; i < 12; i++) printf(" %.17g", R[i]);
    printf("\n");
}

static void pbody(const char *label, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    printf("%s e%d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g\n", label, dBodyIsEnabled(b), p[0], p[1], p[2], q[0], q[1],
           q[2], q[3]);
    printf("%s v %.17g %.17g %.17g w %.17g %.17g %.17g\n", label, v[0], v[1], v[2], w[0], w[1], w[2]);
}

static void settings(const char *label, dBodyID b)
{
    printf("%s damping %.17g %.17g thr %.17g %.17g adis %.17g %.17g time %.17g steps %d samples %d maxw %.17g\n", label,
           dBodyGetLinearDamping(b), dBodyGetAngularDamping(b), dBodyGetLinearDampingThreshold(b),
           dBodyGetAngularDampingThreshold(b), dBodyGetAutoDisableLinearThreshold(b),
           dBodyGetAutoDisableAngularThreshold(b), dBodyGetAutoDisableTime(b), dBodyGetAutoDisableSteps(b),
           dBodyGetAutoDisableAverageSamplesCount(b), dBodyGetMaxAngularSpeed(b));
}

/* ---- values outside the documented ranges, stepped ---------------------------------------- */

static void out_of_range_settings(int quick)
{
    dWorldID w = dWorldCreate();
    dBodyID b[4];
    dMass m;
    int i, s;
    char label[64];
    dWorldSetGravity(w, 0, 0, -9.81);
    /* world defaults out of range too: new bodies take them */
    dWorldSetDamping(w, -0.05, 1.2);
    dWorldSetLinearDampingThreshold(w, -0.5);
    dWorldSetAngularDampingThreshold(w, -0.25);
    dWorldSetMaxAngularSpeed(w, -20);
    for (i = 0; i < 4; i++) {
        b[i] = dBodyCreate(w);
        dMassSetBoxTotal(&m, 1 + i, 0.4, 0.3, 0.2 + 0.1 * i);
        dBodySetMass(b[i], &m);
        dBodySetPosition(b[i], i, 0, 2);
        dBodySetLinearVel(b[i], 0.5 * i, -1, 0.3);
        dBodySetAngularVel(b[i], 3 + i, -2, 5);
        /* joints, so auto-disable applies */
        dJointAttach(dJointCreateBall(w, 0), b[i], 0);
    }
    settings("world defaults", b[0]);
    dBodySetLinearDamping(b[0], 1.5);
    dBodySetAngularDamping(b[0], -0.5);
    dBodySetLinearDampingThreshold(b[0], -0.01);
    dBodySetAngularDampingThreshold(b[0], -2);
    dBodySetDamping(b[1], 2, -0.1);
    dBodySetMaxAngularSpeed(b[1], -3);
    dBodySetAutoDisableFlag(b[2], 1);
    dBodySetAutoDisableLinearThreshold(b[2], -1000);
    dBodySetAutoDisableAngularThreshold(b[2], -1000);
    dBodySetAutoDisableTime(b[2], -1);
    dBodySetAutoDisableSteps(b[2], -5);
    dBodySetAutoDisableAverageSamplesCount(b[2], 1);
    dBodySetAutoDisableFlag(b[3], 1);
    dBodySetAutoDisableLinearThreshold(b[3], -1e3);
    dBodySetAutoDisableAngularThreshold(b[3], -1e3);
    dBodySetAutoDisableTime(b[3], 0.05);
    dBodySetAutoDisableSteps(b[3], -2);
    dBodySetAutoDisableAverageSamplesCount(b[3], 3);
    for (i = 0; i < 4; i++) {
        sprintf(label, "body %d", i);
        settings(label, b[i]);
    }
    for (s = 1; s <= 60; s++) {
        if (quick) dWorldQuickStep(w, 0.01);
        else dWorldStep(w, 0.01);
        if (s % 10 == 0) {
            for (i = 0; i < 4; i++) {
                sprintf(label, "%s %d b%d", quick ? "quick" : "step", s, i);
                pbody(label, b[i]);
            }
        }
    }
    dWorldDestroy(w);
}

/* ---- orientations ------------------------------------------------------------------------- */

static void orientations(void)
{
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w), c = dBodyCreate(w);
    int s;
    dBodySetAngularVel(c, 0.3, -0.7, 1.1);
    dBodySetLinearVel(c, 1, 0, 0);
    {
        /* squared length overflows: ODE scales by 1/sqrt(inf) = 0 */
        dQuaternion q = {1e200, 1, 0, 0};
        dBodySetQuaternion(b, q);
        p4("quaternion 1e200 q", dBodyGetQuaternion(b));
        pR("quaternion 1e200 R", dBodyGetRotation(b));
        /* (ODE would assert stepping it: the step normalises it again) */
        dBodyDisable(b);
        dWorldStep(w, 0.01);
        p4("quaternion 1e200, disabled, after a step", dBodyGetQuaternion(b));
    }
    {
        static const dReal tiny[] = {1e-160, 3e-155, 1e-150, 1.5e-154};
        for (unsigned k = 0; k < sizeof tiny / sizeof tiny[0]; k++) {
            dQuaternion q = {tiny[k], -2 * tiny[k], 0, tiny[k] / 3};
            dBodySetQuaternion(c, q);
            p4("tiny quaternion q", dBodyGetQuaternion(c));
            pR("tiny quaternion R", dBodyGetRotation(c));
        }
        for (s = 0; s < 5; s++) dWorldStep(w, 0.01);
        pbody("tiny quaternion, stepped", c);
    }
    {
        static const double eps[] = {1e-5, 1e-8, 5e-10, 1e-10};
        for (unsigned k = 0; k < sizeof eps / sizeof eps[0]; k++) {
            dMatrix3 R = {1, 0.3, 0, 0, 1, 0.3 + eps[k], 0.2 * eps[k], 0, 0, 0, 1, 0};
            dMatrix3 R2 = {0.6, 0.8, 0, 0, 0.6 + eps[k], 0.8, 0, 0, 0, 0, 1, 0};
            printf("rows %g from parallel\n", eps[k]);
            dBodySetRotation(c, R);
            p4(" q", dBodyGetQuaternion(c));
            pR(" R", dBodyGetRotation(c));
            dBodySetRotation(c, R2);
            p4(" q2", dBodyGetQuaternion(c));
            pR(" R2", dBodyGetRotation(c));
        }
        for (s = 0; s < 5; s++) dWorldStep(w, 0.01);
        pbody("near-degenerate rotation, stepped", c);
    }
    {
        dMatrix3 scaled = {1e-200, 0, 0, 0, 0, 1e200, 0, 0, 0, 0, 5, 0};
        dMatrix3 shear = {1, 0.5, 0.25, 0, 0, 2, 1, 0, 3, 0, 1, 0};
        dMatrix3 huge = {1e300, 0, 0, 0, 0, 1e300, 0, 0, 0, 0, 1e300, 0};
        dBodySetRotation(c, scaled);
        p4("scaled rows q", dBodyGetQuaternion(c));
        pR("scaled rows R", dBodyGetRotation(c));
        dBodySetRotation(c, shear);
        p4("sheared q", dBodyGetQuaternion(c));
        pR("sheared R", dBodyGetRotation(c));
        dBodySetRotation(c, huge);
        p4("1e300 identity q", dBodyGetQuaternion(c));
        pR("1e300 identity R", dBodyGetRotation(c));
        for (s = 0; s < 5; s++) dWorldQuickStep(w, 0.01);
        pbody("after the odd matrices, stepped", c);
    }
    dWorldDestroy(w);
}

/* ---- masses -------------------------------------------------------------------------------- */

static void masses(void)
{
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w), c = dBodyCreate(w);
    dMass m, got;
    int s;
    dWorldSetGravity(w, 0, -1, -9.81);
    dMassSetZero(&m);
    m.mass = 1e-300;
    m.I[0] = m.I[5] = m.I[10] = 1e-300;
    dBodySetMass(b, &m);
    dBodyGetMass(b, &got);
    printf("tiny mass %.17g I %.17g %.17g %.17g\n", got.mass, got.I[0], got.I[5], got.I[10]);
    dMassSetBox(&m, 1, 1, 2, 3);
    m.c[0] = DBL_EPSILON;
    m.c[2] = -DBL_EPSILON;
    dBodySetMass(c, &m);
    dBodyGetMass(c, &got);
    printf("centre at epsilon %.17g %.17g %.17g mass %.17g\n", got.c[0], got.c[1], got.c[2], got.mass);
    dBodySetAngularVel(c, 1, 2, 3);
    for (s = 0; s < 10; s++) dWorldStep(w, 0.01);
    pbody("tiny mass body", b);
    pbody("epsilon centre body", c);
    dWorldDestroy(w);
}

/* ---- math helpers -------------------------------------------------------------------------- */

static void math_helpers(void)
{
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w);
    {
        dReal v[4] = {6e-309, 0, 0, 0};
        dNormalize3(v);
        p3("dNormalize3 (6e-309, 0, 0)", v);
        v[0] = -1e-300; v[1] = 6e-301; v[2] = 1e-310;
        dNormalize3(v);
        p3("dNormalize3 (-1e-300, 6e-301, 1e-310)", v);
        v[0] = 1e300; v[1] = -1e308; v[2] = 1e307;
        dNormalize3(v);
        p3("dNormalize3 (1e300, -1e308, 1e307)", v);
    }
    {
        dReal v[4] = {0, 1e-160, 0, -2e-160};
        dNormalize4(v);
        p4("dNormalize4 tiny", v);
        v[0] = 1e200; v[1] = 0; v[2] = -1; v[3] = 0;
        dNormalize4(v);
        p4("dNormalize4 huge", v);
    }
    {
        dMatrix3 R;
        dRFromZAxis(R, 6e-309, 0, 0);
        pR("dRFromZAxis (6e-309, 0, 0)", R);
        dRFromZAxis(R, 0, -1e-300, 1e-301);
        pR("dRFromZAxis (0, -1e-300, 1e-301)", R);
        dRFromAxisAndAngle(R, 0, 0, 0, 1);
        pR("dRFromAxisAndAngle zero axis", R);
        dRFromAxisAndAngle(R, 1e-170, 0, 0, 1);
        pR("dRFromAxisAndAngle (1e-170, 0, 0)", R);
    }
    {
        dVector3 f;
        dWorldImpulseToForce(w, 1e-300, 1, -2, 3, f);
        p3("impulse to force, step 1e-300", f);
        dWorldImpulseToForce(w, -0.5, 1, -2, 3, f);
        p3("impulse to force, step -0.5", f);
    }
    dBodySetLinearVel(b, 1, 2, 3);
    dBodySetAngularVel(b, 4, 5, 6);
    dWorldStep(w, 1e-300);
    pbody("step 1e-300", b);
    dWorldQuickStep(w, 1e-300);
    pbody("quick step 1e-300", b);
    dWorldDestroy(w);
}

int main(void)
{
    dInitODE2(0);
    out_of_range_settings(0);
    out_of_range_settings(1);
    orientations();
    masses();
    math_helpers();
    dCloseODE();
    return 0;
}
