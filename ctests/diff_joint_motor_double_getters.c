/* DIFF-TOL rel=0 abs=0 */
/* Getters and setters of the angular motor, linear motor, double ball,
 * double hinge and transmission joints, attached as (b0, b1), (b0, 0) and
 * (0, b0), before and after the bodies move: axes and their relativity,
 * user and Euler angles (Euler angles are measured by the step, so a
 * force-free step is taken), angle rates, torques added, parameters of all
 * groups, anchors, distances, transmission contact points, phases, radii
 * and ratio in the three modes. Printed to the last bit. */
#include <ode/ode.h>
#include <stdio.h>

static void pv(const char *tag, const dReal *v)
{
    printf("%s %.17g %.17g %.17g\n", tag, v[0], v[1], v[2]);
}

static dBodyID body(dWorldID w, dReal x, dReal y, dReal z, dReal ax, dReal ay, dReal az, dReal angle)
{
    dMass m;
    dMatrix3 R;
    dBodyID b = dBodyCreate(w);
    dMassSetBoxTotal(&m, 1.3, 0.4, 0.3, 0.2);
    dBodySetMass(b, &m);
    dBodySetPosition(b, x, y, z);
    dRFromAxisAndAngle(R, ax, ay, az, angle);
    dBodySetRotation(b, R);
    return b;
}

static void turn(dBodyID b, dReal ax, dReal ay, dReal az, dReal angle)
{
    dMatrix3 R, R2;
    dRFromAxisAndAngle(R, ax, ay, az, angle);
    dMultiply0_333(R2, R, dBodyGetRotation(b));
    dBodySetRotation(b, R2);
}

static void amotor_state(const char *tag, dJointID j)
{
    dVector3 v;
    int i, n = dJointGetAMotorNumAxes(j);
    printf("%s mode %d num %d\n", tag, dJointGetAMotorMode(j), n);
    for (i = 0; i < 3; i++) {
        dJointGetAMotorAxis(j, i, v);
        printf("%s axis%d rel %d angle %.17g rate %.17g ", tag, i, dJointGetAMotorAxisRel(j, i),
               dJointGetAMotorAngle(j, i), dJointGetAMotorAngleRate(j, i));
        pv("ax", v);
    }
}

static void params3(const char *tag, dReal (*get)(dJointID, int), dJointID j)
{
    int g, p;
    printf("%s params", tag);
    for (g = 0; g < 3; g++)
        for (p = 0; p < dParamsInGroup; p++) printf(" %.17g", get(j, g * dParamGroup + p));
    printf("\n");
}

static void torques(const char *tag, dBodyID a, dBodyID b)
{
    pv(tag, dBodyGetTorque(a));
    if (b) pv(tag, dBodyGetTorque(b));
    dBodySetTorque(a, 0, 0, 0);
    if (b) dBodySetTorque(b, 0, 0, 0);
}

static void amotor_tests(dWorldID w)
{
    dBodyID a = body(w, 0.1, 0.2, 0.3, 1, 2, 3, 0.7);
    dBodyID b = body(w, 0.5, -0.2, 0.4, -1, 0.5, 2, 1.1);
    dBodyID c = body(w, -0.7, 0.1, 1.0, 0.3, -0.2, 1, -0.4);
    dJointID j = dJointCreateAMotor(w, 0);
    dJointID r = dJointCreateAMotor(w, 0);
    dJointID e = dJointCreateAMotor(w, 0);
    dJointID er = dJointCreateAMotor(w, 0);
    dJointID one = dJointCreateAMotor(w, 0);

    dBodySetAngularVel(a, 0.3, -0.5, 0.8);
    dBodySetAngularVel(b, -0.2, 0.9, 0.1);
    dBodySetAngularVel(c, 0.6, 0.4, -0.7);

    printf("fresh mode %d num %d\n", dJointGetAMotorMode(j), dJointGetAMotorNumAxes(j));
    params3("fresh", dJointGetAMotorParam, j);

    /* user mode, two bodies, axes relative to world / body 1 / body 2 */
    dJointAttach(j, a, b);
    dJointSetAMotorNumAxes(j, 3);
    dJointSetAMotorAxis(j, 0, 0, 1, 1, 0);
    dJointSetAMotorAxis(j, 1, 1, 0, 2, 1);
    dJointSetAMotorAxis(j, 2, 2, 3, -1, 2);
    dJointSetAMotorAngle(j, 0, 0.25);
    dJointSetAMotorAngle(j, 1, -1.5);
    dJointSetAMotorAngle(j, 2, 4.0);
    dJointSetAMotorParam(j, dParamVel, 1.5);
    dJointSetAMotorParam(j, dParamFMax2, 3.0);
    dJointSetAMotorParam(j, dParamLoStop3, -0.5);
    dJointSetAMotorParam(j, dParamHiStop3, 0.5);
    dJointSetAMotorParam(j, dParamFudgeFactor2, 0.5);
    dJointSetAMotorParam(j, dParamBounce, 0.3);
    dJointSetAMotorParam(j, dParamCFM3, 1e-4);
    dJointSetAMotorParam(j, dParamStopERP2, 0.7);
    dJointSetAMotorParam(j, dParamStopCFM, 1e-3);
    dJointSetAMotorParam(j, dParamSuspensionERP, 0.7); /* not an AMotor parameter: ignored */
    amotor_state("user", j);
    params3("user", dJointGetAMotorParam, j);
    turn(a, 0, 0, 1, 0.5);
    turn(b, 1, 0, 0, -0.3);
    amotor_state("user-moved", j);
    dJointAddAMotorTorques(j, 1, 2, 3);
    torques("user-torque", a, b);
    dJointSetAMotorNumAxes(j, 2);
    dJointAddAMotorTorques(j, 1, 2, 3);
    torques("user-torque2", a, b);
    dJointSetAMotorNumAxes(j, 1);
    dJointAddAMotorTorques(j, 1, 2, 3);
    torques("user-torque1", a, b);
    amotor_state("user-1axis", j);

    /* user mode attached as (0, c): body numbering is swapped */
    dJointAttach(r, 0, c);
    dJointSetAMotorNumAxes(r, 3);
    dJointSetAMotorAxis(r, 0, 0, 0, 0, 1);
    dJointSetAMotorAxis(r, 1, 1, 1, 0, 0);
    dJointSetAMotorAxis(r, 2, 2, 0, 1, 0);
    amotor_state("rev", r);
    turn(c, 0, 1, 0, 0.4);
    amotor_state("rev-moved", r);
    dJointAddAMotorTorques(r, 0.5, -1, 2);
    torques("rev-torque", c, 0);

    /* Euler mode between two bodies */
    dJointAttach(e, a, b);
    dJointSetAMotorMode(e, dAMotorEuler);
    dJointSetAMotorAxis(e, 0, 1, 1, 0, 0);
    dJointSetAMotorAxis(e, 2, 2, 0, 0, 1);
    amotor_state("euler", e);
    /* Euler mode with one body, and attached as (0, c) */
    dJointAttach(one, c, 0);
    dJointSetAMotorMode(one, dAMotorEuler);
    dJointSetAMotorAxis(one, 0, 1, 0, 1, 0);
    dJointSetAMotorAxis(one, 2, 2, 1, 0, 0);
    dJointAttach(er, 0, a);
    dJointSetAMotorMode(er, dAMotorEuler);
    dJointSetAMotorAxis(er, 0, 1, 0, 0, 1);
    dJointSetAMotorAxis(er, 2, 2, 0, 1, 0.2);
    dJointSetAMotorNumAxes(er, 1); /* stays 3 in Euler mode */
    amotor_state("euler-one", one);
    amotor_state("euler-rev", er);
    turn(a, 1, 1, 0, 0.6);
    turn(b, 0, 1, 1, -0.9);
    turn(c, 1, 0, 1, 0.3);
    dWorldSetGravity(w, 0, 0, 0);
    dWorldStep(w, 0.001); /* measures the Euler angles */
    amotor_state("euler-stepped", e);
    amotor_state("euler-one-stepped", one);
    amotor_state("euler-rev-stepped", er);
    amotor_state("user-stepped", j);
    dJointAddAMotorTorques(e, 0.2, 0.4, -0.6);
    torques("euler-torque", a, b);
    dJointAddAMotorTorques(er, 0.2, 0.4, -0.6);
    torques("euler-rev-torque", a, 0);
    dJointSetAMotorMode(e, dAMotorUser);
    amotor_state("back-to-user", e);

    dJointDestroy(j);
    dJointDestroy(r);
    dJointDestroy(e);
    dJointDestroy(er);
    dJointDestroy(one);
}

static void lmotor_tests(dWorldID w)
{
    dBodyID a = body(w, 1, 2, 3, 0, 1, 0, 0.3);
    dBodyID b = body(w, -1, 0, 2, 1, 0, 1, -0.8);
    dJointID j = dJointCreateLMotor(w, 0);
    dJointID r = dJointCreateLMotor(w, 0);
    dVector3 v;
    int i;
    params3("lm-fresh", dJointGetLMotorParam, j);
    dJointAttach(j, a, b);
    dJointSetLMotorNumAxes(j, 3);
    dJointSetLMotorAxis(j, 0, 0, 1, 2, 2);
    dJointSetLMotorAxis(j, 1, 1, 0, 1, 0);
    dJointSetLMotorAxis(j, 2, 2, 0, 3, 4);
    dJointSetLMotorParam(j, dParamVel2, -0.5);
    dJointSetLMotorParam(j, dParamFMax3, 7);
    dJointSetLMotorParam(j, dParamLoStop, -1);
    dJointSetLMotorParam(j, dParamFMax3 + dParamGroup, 9); /* group 4: clamped to group 3 */
    dJointSetLMotorParam(j, dParamERP, 0.5);               /* not a motor parameter */
    printf("lm num %d\n", dJointGetLMotorNumAxes(j));
    for (i = 0; i < 3; i++) {
        dJointGetLMotorAxis(j, i, v);
        pv("lm axis", v);
    }
    params3("lm", dJointGetLMotorParam, j);
    printf("lm clamped %.17g\n", dJointGetLMotorParam(j, dParamFMax3 + 2 * dParamGroup));
    /* one body: body-2 axes become body-1 axes */
    dJointAttach(r, 0, b);
    dJointSetLMotorNumAxes(r, 2);
    dJointSetLMotorAxis(r, 0, 2, 1, 0, 0);
    dJointSetLMotorAxis(r, 1, 0, 0, 0, 2);
    for (i = 0; i < 2; i++) {
        dJointGetLMotorAxis(r, i, v);
        pv("lm-rev axis", v);
    }
    dJointDestroy(j);
    dJointDestroy(r);
}

static void dball_state(const char *tag, dJointID j, int hinge)
{
    dVector3 v;
    if (hinge) {
        dJointGetDHingeAnchor1(j, v);
        pv(tag, v);
        dJointGetDHingeAnchor2(j, v);
        pv(tag, v);
        printf("%s dist %.17g erp %.17g cfm %.17g other %.17g\n", tag, dJointGetDHingeDistance(j),
               dJointGetDHingeParam(j, dParamERP), dJointGetDHingeParam(j, dParamCFM),
               dJointGetDHingeParam(j, dParamVel));
    } else {
        dJointGetDBallAnchor1(j, v);
        pv(tag, v);
        dJointGetDBallAnchor2(j, v);
        pv(tag, v);
        printf("%s dist %.17g erp %.17g cfm %.17g other %.17g\n", tag, dJointGetDBallDistance(j),
               dJointGetDBallParam(j, dParamERP), dJointGetDBallParam(j, dParamCFM),
               dJointGetDBallParam(j, dParamVel));
    }
}

static void dball_tests(dWorldID w)
{
    dBodyID a = body(w, 0.5, 0.5, 2, 1, 1, 1, 0.9);
    dBodyID b = body(w, -0.5, 1.5, 1, 0, 1, 2, -0.6);
    dJointID j = dJointCreateDBall(w, 0);
    dJointID u = dJointCreateDBall(w, 0);
    dJointID r = dJointCreateDBall(w, 0);
    dJointID h = dJointCreateDHinge(w, 0);
    dJointID hr = dJointCreateDHinge(w, 0);
    dVector3 v;

    dball_state("db-fresh", j, 0);
    /* anchors set before attaching keep their values (then read in the
     * bodies' frames) */
    dJointSetDBallAnchor1(u, 0.1, 0.2, 0.3);
    dJointSetDBallAnchor2(u, 1, 1, 1);
    dball_state("db-unattached", u, 0);
    dJointAttach(u, a, b);
    dball_state("db-attached-late", u, 0);

    dJointAttach(j, a, b);
    dJointSetDBallAnchor1(j, 0.6, 0.5, 2.1);
    dJointSetDBallAnchor2(j, -0.4, 1.6, 1.2);
    dJointSetDBallParam(j, dParamERP, 0.4);
    dJointSetDBallParam(j, dParamCFM, 1e-5);
    dJointSetDBallParam(j, dParamFMax, 3);
    dball_state("db", j, 0);
    turn(a, 0, 0, 1, 0.3);
    dball_state("db-moved", j, 0);
    dJointSetDBallDistance(j, 2.5);
    dball_state("db-dist", j, 0);

    dJointAttach(r, 0, b);
    dJointSetDBallAnchor1(r, 3, 2, 1);
    dJointSetDBallAnchor2(r, -0.5, 1.4, 1.1);
    dball_state("db-rev", r, 0);

    dJointAttach(h, a, b);
    dJointSetDHingeAxis(h, 0, 1, 1);
    dJointSetDHingeAnchor1(h, 0.5, 0.6, 2);
    dJointSetDHingeAnchor2(h, -0.5, 1.6, 1);
    dJointSetDHingeParam(h, dParamERP, 0.3);
    dJointGetDHingeAxis(h, v);
    pv("dh axis", v);
    dball_state("dh", h, 1);
    dball_state("dh-as-dball", h, 0);
    turn(b, 1, 0, 0, 0.5);
    dJointGetDHingeAxis(h, v);
    pv("dh axis-moved", v);
    dball_state("dh-moved", h, 1);

    dJointAttach(hr, 0, a);
    dJointSetDHingeAxis(hr, 1, 0, 0);
    dJointSetDHingeAnchor1(hr, 0, 0, 5);
    dJointSetDHingeAnchor2(hr, 0.5, 0.5, 2.5);
    dJointGetDHingeAxis(hr, v);
    pv("dh-rev axis", v);
    dball_state("dh-rev", hr, 1);

    dJointDestroy(j);
    dJointDestroy(u);
    dJointDestroy(r);
    dJointDestroy(h);
    dJointDestroy(hr);
}

/* The phases (angles) are only defined once a step has measured them. */
static void tr_state(const char *tag, dJointID j, int stepped)
{
    dVector3 v;
    printf("%s mode %d ratio %.17g r1 %.17g r2 %.17g backlash %.17g erp %.17g cfm %.17g\n", tag,
           dJointGetTransmissionMode(j), dJointGetTransmissionRatio(j), dJointGetTransmissionRadius1(j),
           dJointGetTransmissionRadius2(j), dJointGetTransmissionBacklash(j),
           dJointGetTransmissionParam(j, dParamERP), dJointGetTransmissionParam(j, dParamCFM));
    if (stepped)
        printf("%s angles %.17g %.17g\n", tag, dJointGetTransmissionAngle1(j), dJointGetTransmissionAngle2(j));
    dJointGetTransmissionAxis1(j, v);
    pv(tag, v);
    dJointGetTransmissionAxis2(j, v);
    pv(tag, v);
    dJointGetTransmissionAnchor1(j, v);
    pv(tag, v);
    dJointGetTransmissionAnchor2(j, v);
    pv(tag, v);
}

static void contacts(const char *tag, dJointID j)
{
    dVector3 v;
    dJointGetTransmissionContactPoint1(j, v);
    pv(tag, v);
    dJointGetTransmissionContactPoint2(j, v);
    pv(tag, v);
}

static void transmission_tests(void)
{
    int mode;
    for (mode = 0; mode < 3; mode++) {
        dWorldID w = dWorldCreate();
        dBodyID a = body(w, 0, 0, 0, 0, 0, 1, 0.2);
        dBodyID b = body(w, mode == 1 ? 0.5 : 1.5, mode == 1 ? 0.5 : 0.1, 0, 1, 0, 0, 0.1);
        dJointID j = dJointCreateTransmission(w, 0);
        dVector3 v = {9, 9, 9};
        char tag[32];
        int s;
        dWorldSetGravity(w, 0, 0, 0);
        if (mode == 0) {
            dJointGetTransmissionAxis(j, v);
            pv("tr-unattached axis", v);
        }
        dJointAttach(j, a, b);
        dJointSetTransmissionMode(j, mode);
        dJointSetTransmissionParam(j, dParamERP, 0.3);
        dJointSetTransmissionParam(j, dParamCFM, 1e-6);
        dJointSetTransmissionParam(j, dParamVel, 1);
        if (mode == 1) {
            dJointSetTransmissionAxis1(j, 0, 0, 1);
            dJointSetTransmissionAxis2(j, 0, -1, 0.1);
            dJointSetTransmissionAnchor1(j, 0, 0, 0);
            dJointSetTransmissionAnchor2(j, 0.5, 0.5, 0);
        } else {
            dJointSetTransmissionAxis(j, 0, 0, 1);
            dJointSetTransmissionAnchor1(j, 0, 0, 0);
            dJointSetTransmissionAnchor2(j, 1.5, 0.1, 0);
        }
        if (mode == 0) {
            dJointSetTransmissionRatio(j, 2.0);
            dJointGetTransmissionAxis(j, v);
            pv("tr axis", v);
        }
        if (mode == 2) {
            dJointSetTransmissionRadius1(j, 0.3);
            dJointSetTransmissionRadius2(j, 0.6);
        }
        dJointSetTransmissionBacklash(j, mode == 2 ? 0.01 : 0);
        sprintf(tag, "tr%d-set", mode);
        tr_state(tag, j, 0);
        dBodySetAngularVel(a, 0, 0, 2.0);
        dBodySetAngularVel(b, mode == 1 ? 0.3 : 0, mode == 1 ? 0.2 : 0, mode == 1 ? 0.1 : -0.5);
        for (s = 0; s < 3; s++) {
            dWorldStep(w, 0.01);
            sprintf(tag, "tr%d-step%d", mode, s);
            tr_state(tag, j, 1);
            contacts(tag, j);
        }
        dWorldDestroy(w);
    }
}

int main(void)
{
    dWorldID w;
    dInitODE2(0);
    w = dWorldCreate();
    amotor_tests(w);
    lmotor_tests(w);
    dball_tests(w);
    dWorldDestroy(w);
    transmission_tests();
    dCloseODE();
    return 0;
}
