/* Static cases of ODE's joint documentation for the universal, hinge2,
 * PR, PU and piston joints: the pose when an axis or anchor is set reads
 * 0; turning a body by 90 degrees about a joint axis reads +-pi/2 with
 * ODE's sign (the angle of body 1 relative to body 2, right-handed about
 * the axis; hinge2's angle 2 measures body 2 relative to body 1), also
 * after axis offsets and for joints attached as (0, body), which mostly
 * read the opposite sign; moving body 1 along a prismatic axis by d reads d; the
 * anchor-offset setters make the position read axis . offset. Checked to
 * 1e-6. Self-checking; the test suite also runs it against Debian's
 * library to confirm the expectations. Prints "PASS <n>". */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>

/* dJointSetPUAnchorDelta is deprecated in ODE's header; still tested */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int checks, failures;
static void check(const char *what, double got, double want)
{
    checks++;
    if (!(fabs(got - want) <= 1e-6)) {
        failures++;
        printf("FAIL %s: got %.12g, want %.12g\n", what, got, want);
    }
}

static const double H = 1.5707963267948966; /* pi / 2 */

/* turns body b by `angle` about the world axis (x, y, z) (about its centre) */
static void turn(dBodyID b, dReal x, dReal y, dReal z, dReal angle)
{
    dQuaternion t, q, r;
    const dReal *c = dBodyGetQuaternion(b);
    dQFromAxisAndAngle(t, x, y, z, angle);
    q[0] = c[0]; q[1] = c[1]; q[2] = c[2]; q[3] = c[3];
    dQMultiply0(r, t, q);
    dBodySetQuaternion(b, r);
}

static void reset(dBodyID b, dReal x, dReal y, dReal z)
{
    dQuaternion q = {1, 0, 0, 0};
    dBodySetQuaternion(b, q);
    dBodySetPosition(b, x, y, z);
}

static void universal(dWorldID w, dBodyID a, dBodyID b)
{
    dJointID j = dJointCreateUniversal(w, 0);
    dReal a1, a2;
    reset(a, 0, 0, 0);
    reset(b, 1, 0, 0);
    dJointAttach(j, a, b);
    dJointSetUniversalAnchor(j, 0.5, 0, 0);
    dJointSetUniversalAxis1(j, 0, 0, 1);
    dJointSetUniversalAxis2(j, 0, 1, 0);
    check("universal angle1 at set", dJointGetUniversalAngle1(j), 0);
    check("universal angle2 at set", dJointGetUniversalAngle2(j), 0);
    turn(a, 0, 0, 1, H);
    check("universal body1 +90 about axis1", dJointGetUniversalAngle1(j), H);
    dJointGetUniversalAngles(j, &a1, &a2);
    check("universal angles[0] body1 +90 about axis1", a1, H);
    check("universal angles[1] body1 +90 about axis1", a2, 0);
    reset(a, 0, 0, 0);
    turn(b, 0, 0, 1, H);
    check("universal body2 +90 about axis1", dJointGetUniversalAngle1(j), -H);
    reset(b, 1, 0, 0);
    turn(b, 0, 1, 0, H);
    check("universal body2 +90 about axis2", dJointGetUniversalAngle2(j), -H);
    dJointGetUniversalAngles(j, &a1, &a2);
    check("universal angles[1] body2 +90 about axis2", a2, -H);
    reset(b, 1, 0, 0);
    /* offsets: the current pose reads them, turns add to them */
    dJointSetUniversalAxis1Offset(j, 0, 0, 1, 0.3, -0.2);
    check("universal angle1 offset", dJointGetUniversalAngle1(j), 0.3);
    check("universal angle2 offset", dJointGetUniversalAngle2(j), -0.2);
    turn(a, 0, 0, 1, H);
    check("universal offset + body1 +90 about axis1", dJointGetUniversalAngle1(j), 0.3 + H);
    reset(a, 0, 0, 0);
    dJointSetUniversalAxis2Offset(j, 0, 1, 0, -0.1, 0.4);
    check("universal angle1 offset (axis2 call)", dJointGetUniversalAngle1(j), -0.1);
    check("universal angle2 offset (axis2 call)", dJointGetUniversalAngle2(j), 0.4);
    turn(b, 0, 1, 0, H);
    check("universal offset + body2 +90 about axis2", dJointGetUniversalAngle2(j), 0.4 - H);
    reset(b, 1, 0, 0);
    dJointDestroy(j);

    /* attached as (0, body): the body is body 2 for the user */
    j = dJointCreateUniversal(w, 0);
    dJointAttach(j, 0, b);
    dJointSetUniversalAnchor(j, 0.5, 0, 0);
    dJointSetUniversalAxis1(j, 0, 0, 1);
    dJointSetUniversalAxis2(j, 0, 1, 0);
    /* ODE negates angle 2 of a reversed joint but not angle 1, so here
     * the body's turn about axis 1 reads +90 */
    turn(b, 0, 0, 1, H);
    check("universal (0,b) body +90 about axis1", dJointGetUniversalAngle1(j), H);
    reset(b, 1, 0, 0);
    turn(b, 0, 1, 0, H);
    check("universal (0,b) body +90 about axis2", dJointGetUniversalAngle2(j), -H);
    reset(b, 1, 0, 0);
    dJointDestroy(j);
}

static void hinge2(dWorldID w, dBodyID a, dBodyID b)
{
    dJointID j = dJointCreateHinge2(w, 0);
    dReal ax1[3] = {0, 0, 1}, ax2[3] = {0, 1, 0};
    reset(a, 0, 0, 0);
    reset(b, 0, 1, 0);
    dJointAttach(j, a, b);
    dJointSetHinge2Anchor(j, 0, 1, 0);
    dJointSetHinge2Axes(j, ax1, ax2);
    check("hinge2 angle1 at set", dJointGetHinge2Angle1(j), 0);
    check("hinge2 angle2 at set", dJointGetHinge2Angle2(j), 0);
    turn(a, 0, 0, 1, H);
    check("hinge2 body1 +90 about axis1", dJointGetHinge2Angle1(j), H);
    reset(a, 0, 0, 0);
    turn(b, 0, 0, 1, H);
    check("hinge2 body2 +90 about axis1", dJointGetHinge2Angle1(j), -H);
    reset(b, 0, 1, 0);
    turn(b, 0, 1, 0, H);
    check("hinge2 body2 +90 about axis2", dJointGetHinge2Angle2(j), H);
    reset(b, 0, 1, 0);
    dJointSetHinge2Param(j, dParamSuspensionERP, 0.4);
    dJointSetHinge2Param(j, dParamSuspensionCFM, 0.01);
    check("hinge2 suspension ERP", dJointGetHinge2Param(j, dParamSuspensionERP), 0.4);
    check("hinge2 suspension CFM", dJointGetHinge2Param(j, dParamSuspensionCFM), 0.01);
    dJointDestroy(j);
}

static void pr(dWorldID w, dBodyID a, dBodyID b)
{
    dJointID j = dJointCreatePR(w, 0);
    reset(a, 0, 0, 0);
    reset(b, 0, 1, 0);
    dJointAttach(j, a, b);
    dJointSetPRAnchor(j, 0, 1, 0);
    dJointSetPRAxis1(j, 0, 1, 0);
    dJointSetPRAxis2(j, 1, 0, 0);
    check("PR position at set", dJointGetPRPosition(j), 0);
    check("PR angle at set", dJointGetPRAngle(j), 0);
    dBodySetPosition(a, 0, 0.25, 0);
    check("PR body1 +0.25 along axis1", dJointGetPRPosition(j), 0.25);
    reset(a, 0, 0, 0);
    turn(a, 1, 0, 0, H);
    check("PR body1 +90 about axis2", dJointGetPRAngle(j), H);
    reset(a, 0, 0, 0);
    dJointDestroy(j);

    j = dJointCreatePR(w, 0);
    dJointAttach(j, 0, a);
    dJointSetPRAnchor(j, 0, 1, 0);
    dJointSetPRAxis1(j, 0, 1, 0);
    dJointSetPRAxis2(j, 1, 0, 0);
    dBodySetPosition(a, 0, 0.25, 0);
    check("PR (0,a) body +0.25 along axis1", dJointGetPRPosition(j), -0.25);
    reset(a, 0, 0, 0);
    turn(a, 1, 0, 0, H);
    check("PR (0,a) body +90 about axis2", dJointGetPRAngle(j), -H);
    reset(a, 0, 0, 0);
    dJointDestroy(j);
}

static void pu(dWorldID w, dBodyID a, dBodyID b)
{
    dJointID j = dJointCreatePU(w, 0);
    dReal a1, a2;
    reset(a, 0, 0, 0);
    reset(b, 1, 0, 0);
    dJointAttach(j, a, b);
    dJointSetPUAnchor(j, 0.5, 0, 0);
    dJointSetPUAxis1(j, 0, 0, 1);
    dJointSetPUAxis2(j, 0, 1, 0);
    dJointSetPUAxisP(j, 1, 0, 0);
    check("PU position at set", dJointGetPUPosition(j), 0);
    check("PU angle1 at set", dJointGetPUAngle1(j), 0);
    dBodySetPosition(a, 0.3, 0, 0);
    check("PU body1 +0.3 along axisP", dJointGetPUPosition(j), 0.3);
    reset(a, 0, 0, 0);
    turn(a, 0, 0, 1, H);
    check("PU body1 +90 about axis1", dJointGetPUAngle1(j), H);
    reset(a, 0, 0, 0);
    turn(b, 0, 1, 0, H);
    dJointGetPUAngles(j, &a1, &a2);
    check("PU body2 +90 about axis2", a2, -H);
    reset(b, 1, 0, 0);
    /* offset: the position reads axisP . (dx, dy, dz) */
    dJointSetPUAnchorOffset(j, 0.5, 0, 0, 0.2, 0.7, -0.3);
    check("PU anchor offset", dJointGetPUPosition(j), 0.2);
    dJointSetPUAnchorDelta(j, 0.5, 0, 0, 0.2, 0.7, -0.3);
    check("PU anchor delta", dJointGetPUPosition(j), -0.2);
    dJointDestroy(j);
}

static void piston(dWorldID w, dBodyID a, dBodyID b)
{
    dJointID j = dJointCreatePiston(w, 0);
    reset(a, 0, 0, 0);
    reset(b, 0, 0, 1);
    dJointAttach(j, a, b);
    dJointSetPistonAnchor(j, 0, 0, 0.5);
    dJointSetPistonAxis(j, 0, 0, 1);
    check("piston position at set", dJointGetPistonPosition(j), 0);
    check("piston angle at set", dJointGetPistonAngle(j), 0);
    dBodySetPosition(a, 0, 0, -0.4);
    check("piston body1 -0.4 along axis", dJointGetPistonPosition(j), -0.4);
    reset(a, 0, 0, 0);
    turn(a, 0, 0, 1, H);
    check("piston body1 +90 about axis", dJointGetPistonAngle(j), H);
    reset(a, 0, 0, 0);
    turn(b, 0, 0, 1, H);
    check("piston body2 +90 about axis", dJointGetPistonAngle(j), -H);
    reset(b, 0, 0, 1);
    dJointSetPistonAnchorOffset(j, 0, 0, 0.5, 0.1, 0.2, 0.35);
    check("piston anchor offset", dJointGetPistonPosition(j), 0.35);
    dJointDestroy(j);

    j = dJointCreatePiston(w, 0);
    dJointAttach(j, 0, a);
    dJointSetPistonAnchor(j, 0, 0, 0.5);
    dJointSetPistonAxis(j, 0, 0, 1);
    dBodySetPosition(a, 0, 0, 0.4);
    check("piston (0,a) body +0.4 along axis", dJointGetPistonPosition(j), -0.4);
    reset(a, 0, 0, 0);
    turn(a, 0, 0, 1, H);
    check("piston (0,a) body +90 about axis", dJointGetPistonAngle(j), -H);
    reset(a, 0, 0, 0);
    dJointDestroy(j);
}

int main(void)
{
    dWorldID w;
    dBodyID a, b;
    dInitODE2(0);
    w = dWorldCreate();
    a = dBodyCreate(w);
    b = dBodyCreate(w);
    universal(w, a, b);
    hinge2(w, a, b);
    pr(w, a, b);
    pu(w, a, b);
    piston(w, a, b);
    dWorldDestroy(w);
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
