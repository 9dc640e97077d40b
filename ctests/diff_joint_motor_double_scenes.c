/* DIFF-TOL rel=0 abs=0 */
/* One second (100 steps of 0.01 s) of scenes built on the angular motor,
 * linear motor, plane-2D, double ball, double hinge and transmission
 * joints, each run with dWorldStep and dWorldQuickStep: motors driving,
 * stops (with bounce) engaged, user-mode angles fed from a hinge, Euler
 * mode between two bodies and reversed, torques added, drift correction,
 * gears in the three transmission modes (with backlash). Prints body
 * states and joint read-outs every 10 steps. The scene number can be given
 * as an argument to run one scene. */
#include <ode/ode.h>
#include <stdio.h>
#include <stdlib.h>

#define NSCENES 7

static void pv(const char *tag, const dReal *v)
{
    printf("%s %.17g %.17g %.17g\n", tag, v[0], v[1], v[2]);
}

static void state(const char *tag, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    printf("%s p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n", tag, p[0],
           p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
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

static void rotate(dBodyID b, dReal ax, dReal ay, dReal az, dReal angle)
{
    dMatrix3 R;
    dRFromAxisAndAngle(R, ax, ay, az, angle);
    dBodySetRotation(b, R);
}

static void amotor_read(const char *tag, dJointID j)
{
    int i;
    printf("%s", tag);
    for (i = 0; i < dJointGetAMotorNumAxes(j); i++)
        printf(" %.17g %.17g", dJointGetAMotorAngle(j, i), dJointGetAMotorAngleRate(j, i));
    printf("\n");
}

static void feedback(const char *tag, dJointFeedback *f)
{
    printf("%s f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g f2 %.17g %.17g %.17g t2 %.17g %.17g %.17g\n", tag, f->f1[0],
           f->f1[1], f->f1[2], f->t1[0], f->t1[1], f->t1[2], f->f2[0], f->f2[1], f->f2[2], f->t2[0], f->t2[1],
           f->t2[2]);
}

static void run(int quick, int scene)
{
    dWorldID w = dWorldCreate();
    dBodyID b[6] = {0};
    dJointID j[8] = {0};
    dJointFeedback fb[2];
    int nb = 0, s, i;
    char tag[64];
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetERP(w, 0.2);
    dWorldSetCFM(w, 1e-9);
    if (quick) dWorldSetQuickStepNumIterations(w, 30);

    switch (scene) {
    case 0: /* AMotor, user mode: stops fed from a hinge angle; 3-axis motor between free bodies */
        dWorldSetGravity(w, 0, -9.81, 0);
        b[0] = box(w, 0.5, 0, 0, 1, 0.6, 0.1, 0.1);
        j[0] = dJointCreateHinge(w, 0);
        dJointAttach(j[0], b[0], 0);
        dJointSetHingeAnchor(j[0], 0, 0, 0);
        dJointSetHingeAxis(j[0], 0, 0, 1);
        j[1] = dJointCreateAMotor(w, 0);
        dJointAttach(j[1], b[0], 0);
        dJointSetAMotorNumAxes(j[1], 1);
        dJointSetAMotorAxis(j[1], 0, 1, 0, 0, 1);
        dJointSetAMotorParam(j[1], dParamLoStop, -0.6);
        dJointSetAMotorParam(j[1], dParamHiStop, 0.3);
        dJointSetAMotorParam(j[1], dParamBounce, 0.4);
        dJointSetAMotorParam(j[1], dParamVel, 1.0);
        dJointSetAMotorParam(j[1], dParamFMax, 0.8);
        dJointSetAMotorParam(j[1], dParamFudgeFactor, 0.5);
        b[1] = box(w, 2, 0, 1, 1, 0.3, 0.2, 0.5);
        b[2] = box(w, 2.6, 0.2, 1, 2, 0.4, 0.4, 0.2);
        rotate(b[2], 1, 1, 0, 0.4);
        dBodySetGravityMode(b[1], 0);
        dBodySetGravityMode(b[2], 0);
        j[2] = dJointCreateAMotor(w, 0);
        dJointAttach(j[2], b[1], b[2]);
        dJointSetAMotorNumAxes(j[2], 3);
        dJointSetAMotorAxis(j[2], 0, 0, 1, 0, 0);
        dJointSetAMotorAxis(j[2], 1, 1, 0, 1, 0);
        dJointSetAMotorAxis(j[2], 2, 2, 0, 0.3, 1);
        dJointSetAMotorParam(j[2], dParamVel, 0.5);
        dJointSetAMotorParam(j[2], dParamFMax, 0.2);
        dJointSetAMotorParam(j[2], dParamVel2, -1);
        dJointSetAMotorParam(j[2], dParamFMax2, 0.1);
        dJointSetAMotorParam(j[2], dParamVel3, 2);
        dJointSetAMotorParam(j[2], dParamFMax3, dInfinity);
        dJointSetAMotorParam(j[2], dParamCFM3, 1e-3);
        dJointSetFeedback(j[2], &fb[0]);
        nb = 3;
        break;
    case 1: /* AMotor, Euler mode: two-body chain on ball joints with stops, one reversed */
        b[0] = box(w, 0, 0, 1.5, 1, 0.2, 0.2, 1.0);
        b[1] = box(w, 0, 0, 0.5, 1, 0.2, 0.2, 1.0);
        b[2] = box(w, 2, 0, 0.5, 1.5, 0.3, 0.3, 1.0);
        dBodySetAngularVel(b[0], 0.5, 1.0, 0.2);
        dBodySetAngularVel(b[1], -1.5, 0.5, 2.0);
        dBodySetAngularVel(b[2], 1.0, -0.7, 1.5);
        j[0] = dJointCreateBall(w, 0);
        dJointAttach(j[0], b[0], 0);
        dJointSetBallAnchor(j[0], 0, 0, 2);
        j[1] = dJointCreateBall(w, 0);
        dJointAttach(j[1], b[0], b[1]);
        dJointSetBallAnchor(j[1], 0, 0, 1);
        j[2] = dJointCreateAMotor(w, 0);
        dJointAttach(j[2], b[0], b[1]);
        dJointSetAMotorMode(j[2], dAMotorEuler);
        dJointSetAMotorAxis(j[2], 0, 1, 1, 0, 0);
        dJointSetAMotorAxis(j[2], 2, 2, 0, 0, 1);
        for (i = 0; i < 3; i++) {
            dJointSetAMotorParam(j[2], dParamLoStop + i * dParamGroup, -0.3);
            dJointSetAMotorParam(j[2], dParamHiStop + i * dParamGroup, 0.3);
        }
        dJointSetAMotorParam(j[2], dParamBounce1, 0.5);
        dJointSetAMotorParam(j[2], dParamVel2, 1.0);
        dJointSetAMotorParam(j[2], dParamFMax2, 0.3);
        dJointSetAMotorParam(j[2], dParamStopERP3, 0.5);
        dJointSetFeedback(j[2], &fb[0]);
        j[3] = dJointCreateBall(w, 0);
        dJointAttach(j[3], 0, b[2]);
        dJointSetBallAnchor(j[3], 2, 0, 1);
        j[4] = dJointCreateAMotor(w, 0);
        dJointAttach(j[4], 0, b[2]);
        dJointSetAMotorMode(j[4], dAMotorEuler);
        dJointSetAMotorAxis(j[4], 0, 1, 1, 0, 0);
        dJointSetAMotorAxis(j[4], 2, 2, 0, 0, 1);
        dJointSetAMotorParam(j[4], dParamLoStop, -0.2);
        dJointSetAMotorParam(j[4], dParamHiStop, 0.2);
        dJointSetAMotorParam(j[4], dParamLoStop3, -0.5);
        dJointSetAMotorParam(j[4], dParamHiStop3, 0.5);
        dJointSetAMotorParam(j[4], dParamVel3, -2);
        dJointSetAMotorParam(j[4], dParamFMax3, 0.5);
        nb = 3;
        break;
    case 2: /* LMotor: world-axis motors on one body, body-relative axes between two */
        b[0] = box(w, 0, 0, 1, 1, 0.3, 0.3, 0.3);
        rotate(b[0], 0, 0, 1, 0.3);
        j[0] = dJointCreateLMotor(w, 0);
        dJointAttach(j[0], b[0], 0);
        dJointSetLMotorNumAxes(j[0], 3);
        dJointSetLMotorAxis(j[0], 0, 0, 1, 0, 0);
        dJointSetLMotorAxis(j[0], 1, 1, 0, 1, 0);
        dJointSetLMotorAxis(j[0], 2, 0, 0, 0, 1);
        dJointSetLMotorParam(j[0], dParamVel, 1.0);
        dJointSetLMotorParam(j[0], dParamFMax, 0.5);
        dJointSetLMotorParam(j[0], dParamVel2, -0.5);
        dJointSetLMotorParam(j[0], dParamFMax2, dInfinity);
        dJointSetLMotorParam(j[0], dParamVel3, 0);
        dJointSetLMotorParam(j[0], dParamFMax3, 5.0);
        dJointSetLMotorParam(j[0], dParamLoStop, 0.1); /* stops are not used by the LMotor */
        b[1] = box(w, 2, 0, 1, 1, 0.3, 0.3, 0.3);
        b[2] = box(w, 2.5, 0.5, 1.2, 0.5, 0.2, 0.2, 0.2);
        rotate(b[2], 1, 0, 0, 0.5);
        dBodySetAngularVel(b[1], 0, 0, 1);
        j[1] = dJointCreateLMotor(w, 0);
        dJointAttach(j[1], b[1], b[2]);
        dJointSetLMotorNumAxes(j[1], 2);
        dJointSetLMotorAxis(j[1], 0, 1, 1, 0, 0);
        dJointSetLMotorAxis(j[1], 1, 2, 0, 0, 1);
        dJointSetLMotorParam(j[1], dParamVel, 0.3);
        dJointSetLMotorParam(j[1], dParamFMax, 2.0);
        dJointSetLMotorParam(j[1], dParamVel2, 0.0);
        dJointSetLMotorParam(j[1], dParamFMax2, 20.0);
        dJointSetLMotorParam(j[1], dParamCFM2, 1e-4);
        dJointSetFeedback(j[1], &fb[0]);
        nb = 3;
        break;
    case 3: /* Plane2D: motors along x, y and about z; drift and off-plane spin corrected */
        dWorldSetGravity(w, 0, -9.81, 0);
        b[0] = box(w, 0, 0, 0, 1, 0.4, 0.2, 0.1);
        j[0] = dJointCreatePlane2D(w, 0);
        dJointAttach(j[0], b[0], 0);
        dJointSetPlane2DXParam(j[0], dParamVel, 1.0);
        dJointSetPlane2DXParam(j[0], dParamFMax, 2.0);
        dJointSetPlane2DYParam(j[0], dParamVel, 0.5);
        dJointSetPlane2DYParam(j[0], dParamFMax, 5.0);
        dJointSetPlane2DAngleParam(j[0], dParamVel, 3.0);
        dJointSetPlane2DAngleParam(j[0], dParamFMax, 0.05);
        dJointSetPlane2DAngleParam(j[0], dParamLoStop, 0.1); /* stops are not used */
        b[1] = box(w, 1, 1, 0.1, 2, 0.3, 0.3, 0.3);
        dBodySetAngularVel(b[1], 2, -1, 0.5);
        dBodySetLinearVel(b[1], 0.2, 0, 0.3);
        j[1] = dJointCreatePlane2D(w, 0);
        dJointAttach(j[1], b[1], 0);
        dJointSetPlane2DXParam(j[1], dParamVel, -1.0);
        dJointSetPlane2DXParam(j[1], dParamFMax, 0.5);
        dJointSetFeedback(j[1], &fb[0]);
        nb = 2;
        break;
    case 4: /* DBall: a chain of two, a stretched one (distance set), one reversed */
        b[0] = box(w, 0.5, 0, 2, 1, 0.2, 0.2, 0.2);
        b[1] = box(w, 1.0, 0.3, 1.5, 0.5, 0.2, 0.2, 0.2);
        b[2] = box(w, 3, 0, 1, 1, 0.2, 0.2, 0.2);
        j[0] = dJointCreateDBall(w, 0);
        dJointAttach(j[0], b[0], 0);
        dJointSetDBallAnchor1(j[0], 0.5, 0, 2.1);
        dJointSetDBallAnchor2(j[0], 0, 0, 2.5);
        j[1] = dJointCreateDBall(w, 0);
        dJointAttach(j[1], b[0], b[1]);
        dJointSetDBallAnchor1(j[1], 0.55, 0, 1.95);
        dJointSetDBallAnchor2(j[1], 0.95, 0.3, 1.6);
        dJointSetDBallParam(j[1], dParamERP, 0.5);
        dJointSetDBallParam(j[1], dParamCFM, 1e-6);
        dJointSetFeedback(j[1], &fb[0]);
        j[2] = dJointCreateDBall(w, 0);
        dJointAttach(j[2], 0, b[2]);
        dJointSetDBallAnchor1(j[2], 3, 0, 2);
        dJointSetDBallAnchor2(j[2], 3.1, 0, 1.1);
        dJointSetDBallDistance(j[2], 1.3);
        nb = 3;
        break;
    case 5: /* DHinge: to the world and between two bodies */
        b[0] = box(w, 0.5, 0, 2, 1, 0.6, 0.1, 0.1);
        b[1] = box(w, 1.2, 0.2, 2, 0.5, 0.6, 0.1, 0.1);
        dBodySetAngularVel(b[1], 0.3, 0.2, 0);
        j[0] = dJointCreateDHinge(w, 0);
        dJointAttach(j[0], b[0], 0);
        dJointSetDHingeAxis(j[0], 0, 1, 0);
        dJointSetDHingeAnchor1(j[0], 0.3, 0, 2);
        dJointSetDHingeAnchor2(j[0], 0, 0, 2);
        j[1] = dJointCreateDHinge(w, 0);
        dJointAttach(j[1], b[0], b[1]);
        dJointSetDHingeAxis(j[1], 0.1, 1, 0);
        dJointSetDHingeAnchor1(j[1], 0.8, 0, 2);
        dJointSetDHingeAnchor2(j[1], 0.95, 0.1, 2);
        dJointSetDHingeParam(j[1], dParamERP, 0.4);
        dJointSetFeedback(j[1], &fb[0]);
        nb = 2;
        break;
    case 6: /* Transmission: parallel gears (ratio 2), bevel gears, chain with backlash */
        dWorldSetGravity(w, 0, 0, 0);
        for (i = 0; i < 6; i++) {
            static const dReal pos[6][3] = {{0, 0, 0}, {1.5, 0, 0}, {0, 3, 0}, {0.5, 3.5, 0.5}, {0, 6, 0}, {2, 6.2, 0}};
            static const dReal ax[6][3] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, -1, 0}, {0, 0, 1}, {0, 0, 1}};
            b[i] = box(w, pos[i][0], pos[i][1], pos[i][2], 1 + 0.2 * i, 0.3, 0.3, 0.1);
            j[i] = dJointCreateHinge(w, 0);
            dJointAttach(j[i], b[i], 0);
            dJointSetHingeAnchor(j[i], pos[i][0], pos[i][1], pos[i][2]);
            dJointSetHingeAxis(j[i], ax[i][0], ax[i][1], ax[i][2]);
        }
        for (i = 0; i < 3; i++) {
            dJointSetHingeParam(j[2 * i], dParamVel, 2.0);
            dJointSetHingeParam(j[2 * i], dParamFMax, 1.0);
        }
        j[6] = dJointCreateTransmission(w, 0);
        dJointAttach(j[6], b[0], b[1]);
        dJointSetTransmissionMode(j[6], dTransmissionParallelAxes);
        dJointSetTransmissionAxis(j[6], 0, 0, 1);
        dJointSetTransmissionAnchor1(j[6], 0, 0, 0);
        dJointSetTransmissionAnchor2(j[6], 1.5, 0, 0);
        dJointSetTransmissionRatio(j[6], 2.0);
        dJointSetFeedback(j[6], &fb[0]);
        j[7] = dJointCreateTransmission(w, 0);
        dJointAttach(j[7], b[2], b[3]);
        dJointSetTransmissionMode(j[7], dTransmissionIntersectingAxes);
        dJointSetTransmissionAxis1(j[7], 0, 0, 1);
        dJointSetTransmissionAxis2(j[7], 0, -1, 0);
        dJointSetTransmissionAnchor1(j[7], 0, 3, 0);
        dJointSetTransmissionAnchor2(j[7], 0.5, 3.5, 0.5);
        dJointSetTransmissionParam(j[7], dParamERP, 0.5);
        {
            dJointID c = dJointCreateTransmission(w, 0);
            dJointAttach(c, b[4], b[5]);
            dJointSetTransmissionMode(c, dTransmissionChainDrive);
            dJointSetTransmissionAxis(c, 0, 0, 1);
            dJointSetTransmissionAnchor1(c, 0, 6, 0);
            dJointSetTransmissionAnchor2(c, 2, 6.2, 0);
            dJointSetTransmissionRadius1(c, 0.2);
            dJointSetTransmissionRadius2(c, 0.5);
            dJointSetTransmissionBacklash(c, 0.02);
            dJointSetTransmissionParam(c, dParamCFM, 1e-6);
            j[5] = c; /* the hinge of b[5] is not read any more */
        }
        nb = 6;
        break;
    }

    for (s = 0; s < 100; s++) {
        if (scene == 0) {
            /* the user tells the AMotor its angle */
            dJointSetAMotorAngle(j[1], 0, dJointGetHingeAngle(j[0]));
        }
        if (scene == 1 && s < 50) dJointAddAMotorTorques(j[4], 0.3, 0, -0.2);
        if (scene == 0 && s >= 50) dJointAddAMotorTorques(j[2], 0.1, -0.1, 0.05);
        if (quick)
            dWorldQuickStep(w, 0.01);
        else
            dWorldStep(w, 0.01);
        if (s % 10 == 9) {
            for (i = 0; i < nb; i++) {
                sprintf(tag, "%s s%d b%d", quick ? "quick" : "step", s, i);
                state(tag, b[i]);
            }
            sprintf(tag, "%s s%d", quick ? "quick" : "step", s);
            if (scene == 0) {
                amotor_read(tag, j[1]);
                amotor_read(tag, j[2]);
                feedback(tag, &fb[0]);
            } else if (scene == 1) {
                amotor_read(tag, j[2]);
                amotor_read(tag, j[4]);
                feedback(tag, &fb[0]);
            } else if (scene == 2 || scene == 3 || scene == 5) {
                feedback(tag, &fb[0]);
            } else if (scene == 4) {
                printf("%s dist %.17g %.17g %.17g\n", tag, dJointGetDBallDistance(j[0]), dJointGetDBallDistance(j[1]),
                       dJointGetDBallDistance(j[2]));
                feedback(tag, &fb[0]);
            } else if (scene == 6) {
                dVector3 v;
                printf("%s angles %.17g %.17g %.17g %.17g %.17g %.17g ratio %.17g %.17g\n", tag,
                       dJointGetTransmissionAngle1(j[6]), dJointGetTransmissionAngle2(j[6]),
                       dJointGetTransmissionAngle1(j[7]), dJointGetTransmissionAngle2(j[7]),
                       dJointGetTransmissionAngle1(j[5]), dJointGetTransmissionAngle2(j[5]),
                       dJointGetTransmissionRatio(j[7]), dJointGetTransmissionRatio(j[5]));
                dJointGetTransmissionContactPoint1(j[7], v);
                pv(tag, v);
                dJointGetTransmissionContactPoint2(j[5], v);
                pv(tag, v);
                feedback(tag, &fb[0]);
            }
        }
    }
    dWorldDestroy(w);
}

int main(int argc, char **argv)
{
    int scene, quick;
    dInitODE2(0);
    for (scene = 0; scene < NSCENES; scene++) {
        if (argc > 1 && atoi(argv[1]) != scene) continue;
        printf("scene %d\n", scene);
        for (quick = 0; quick < 2; quick++) run(quick, scene);
    }
    dCloseODE();
    return 0;
}
