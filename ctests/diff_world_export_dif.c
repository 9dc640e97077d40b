/* DIFF-TOL rel=0 abs=0 */
/* dWorldExportDIF: a world with non-default parameters, bodies in every
 * kind of state (default, moving and rotated with a finite-rotation axis
 * and pending forces, disabled without gravity, auto-disabling, kinematic,
 * with a tiny centre-of-mass offset, carrying geoms of every placeable
 * class with collision bits and a disabled one) and one joint of each type
 * (AMotor in both modes, contacts with several surface modes, joints
 * attached as (b, b'), (b, 0), (0, b) and to nothing) with limits, motors
 * and parameters set. Exported before and after a few steps, with and
 * without a name prefix; the text must match byte for byte. */
#include <ode/ode.h>
#include <stdio.h>

/* Geom transforms are deprecated but still exported. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

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

/* Every limit/motor parameter of group `g` (dParamLoStop + 0x100*g ...). */
static void limot(dJointID j, void (*set)(dJointID, int, dReal), int g, dReal lo, dReal hi)
{
    int o = 0x100 * g;
    set(j, dParamLoStop + o, lo);
    set(j, dParamHiStop + o, hi);
    set(j, dParamVel + o, 0.37 + g);
    set(j, dParamFMax + o, 2.5 + g);
    set(j, dParamFudgeFactor + o, 0.8);
    set(j, dParamBounce + o, 0.25);
    set(j, dParamCFM + o, 1e-7 * (g + 1));
    set(j, dParamStopERP + o, 0.3);
    set(j, dParamStopCFM + o, 2e-6);
}

static const dReal box_planes[] = {1, 0, 0, 0.5, -1, 0, 0, 0.5, 0, 1, 0, 0.5, 0, -1, 0, 0.5, 0, 0, 1, 0.5, 0, 0, -1, 0.5};
static const dReal box_points[] = {0.5, 0.5, 0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, 0.5,
                                   0.5, 0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, -0.5, 0.5, -0.5, -0.5};
static const unsigned int box_poly[] = {4, 0, 3, 7, 4, 4, 1, 5, 6, 2, 4, 0, 4, 5, 1,
                                        4, 3, 2, 6, 7, 4, 0, 1, 2, 3, 4, 4, 7, 6, 5};
static const dReal tri_v[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
static const dTriIndex tri_i[] = {0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2};
static const dReal hf_h[] = {0, 0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.4, 0.2, 0.3, 0.4, 0.5};

int main(void)
{
    dInitODE2(0);
    dWorldID w = dWorldCreate();

    /* A default world first (no bodies, no joints). */
    dWorldExportDIF(w, stdout, "");
    fflush(stdout);

    dWorldSetGravity(w, 0.1, -0.2, -9.81);
    dWorldSetERP(w, 0.35);
    dWorldSetCFM(w, 3.25e-6);
    dWorldSetAutoDisableLinearThreshold(w, 0.02);
    dWorldSetAutoDisableAngularThreshold(w, 0.03);
    dWorldSetAutoDisableAverageSamplesCount(w, 3);
    dWorldSetAutoDisableTime(w, 0.5);
    dWorldSetAutoDisableSteps(w, 7);

    dBodyID b0 = dBodyCreate(w); /* defaults */
    dBodyID b1 = body(w, 0.3, 0.7, 1.1, 1, 2, 3, 0.6);
    dBodySetLinearVel(b1, 0.5, -0.25, 1.0 / 3.0);
    dBodySetAngularVel(b1, -0.1, 0.2, 0.7);
    dBodySetFiniteRotationMode(b1, 1);
    dBodySetFiniteRotationAxis(b1, 0.3, -0.4, 0.5);
    dBodyAddForce(b1, 1.5, -2.5, 3.5);
    dBodyAddTorque(b1, 0.1, 0.2, 0.3);

    dBodyID b2 = body(w, -0.4, 0.2, 0.9, 0, 1, 0, 1.2);
    dBodyDisable(b2);
    dBodySetGravityMode(b2, 0);
    dBodyAddForce(b2, 1.0, 0.0, 2.0); /* a zero component: not printed */
    dBodyAddTorque(b2, 0.0, 0.0, 0.0);
    dBodySetFiniteRotationMode(b2, 1); /* mode without axis */

    dBodyID b3 = body(w, 1.0, -1.0, 2.0, 1, 0, 0, -0.4);
    dBodySetAutoDisableFlag(b3, 1);
    dBodySetAutoDisableLinearThreshold(b3, 0.5);
    dBodySetAutoDisableAngularThreshold(b3, 0.25);
    dBodySetAutoDisableAverageSamplesCount(b3, 2);
    dBodySetAutoDisableTime(b3, 0.125);
    dBodySetAutoDisableSteps(b3, 4);
    dBodySetLinearVel(b3, 0, 0, 0.001);

    dBodyID b4 = body(w, 0, 0, -1, 0, 0, 1, 0.3);
    dBodySetKinematic(b4);
    dBodySetLinearVel(b4, 0.1, 0, 0);

    dBodyID b5 = dBodyCreate(w);
    {
        dMass m;
        dMassSetSphereTotal(&m, 2.0, 0.3);
        m.c[0] = 1e-18;
        m.c[1] = -2e-18;
        m.c[2] = 3e-18;
        dBodySetMass(b5, &m);
        dBodySetPosition(b5, 2, 2, 2);
    }

    /* Reals needing every format: huge, tiny, subnormal, negative zero,
     * integers past 15 digits, exponents of both signs (kept disabled so
     * the steps leave them alone). */
    dBodyID b6 = dBodyCreate(w);
    dBodySetPosition(b6, 1e300, -1.234567890123456789e-5, 123456789012345678.0);
    dBodySetLinearVel(b6, -0.0, 5e-324, 1e16);
    dBodySetAngularVel(b6, 999999999999999.5, -1e-4, 0.00012345678901234567);
    dBodyAddForce(b6, 1e-300, -2.5e+200, 7.0);
    dBodyDisable(b6);

    /* Geoms on b5, in every placeable class. */
    dGeomID gs = dCreateSphere(0, 0.25);
    dGeomSetBody(gs, b5);
    dGeomID gb = dCreateBox(0, 0.1, 0.2, 0.3);
    dGeomSetCategoryBits(gb, 5);
    dGeomSetBody(gb, b5);
    dGeomID gc = dCreateCapsule(0, 0.15, 0.6);
    dGeomSetCollideBits(gc, 0x12345678UL);
    dGeomSetBody(gc, b5);
    dGeomID gy = dCreateCylinder(0, 0.2, 0.45);
    dGeomDisable(gy);
    dGeomSetBody(gy, b5);
    dGeomID gr = dCreateRay(0, 2.75);
    dGeomSetBody(gr, b5);
    dGeomID gv = dCreateConvex(0, box_planes, 6, box_points, 8, box_poly);
    dGeomSetBody(gv, b5);
    dGeomID gt = dCreateGeomTransform(0);
    dGeomID gchild = dCreateBox(0, 0.5, 0.6, 0.7);
    dGeomSetPosition(gchild, 0.1, 0.2, 0.3);
    {
        dMatrix3 R;
        dRFromAxisAndAngle(R, 1, 1, 0, 0.4);
        dGeomSetRotation(gchild, R);
    }
    dGeomTransformSetGeom(gt, gchild);
    dGeomTransformSetCleanup(gt, 1);
    dGeomSetBody(gt, b5);
    dTriMeshDataID td = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(td, tri_v, 3 * sizeof(dReal), 4, tri_i, 12, 3 * sizeof(dTriIndex));
    dGeomID gm = dCreateTriMesh(0, td, 0, 0, 0);
    dGeomSetBody(gm, b5);
    dHeightfieldDataID hd = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildDouble(hd, hf_h, 0, 3, 2, 4, 3, 1, 0, 0.1, 0);
    dGeomID gh = dCreateHeightfield(0, hd, 1);
    dGeomSetBody(gh, b5);
    dGeomID gp = dCreatePlane(0, 0, 0, 1, 0.5); /* not on a body: not exported */
    (void)gp;
    dGeomID gt0 = dCreateGeomTransform(0); /* a transform without a child */
    dGeomSetBody(gt0, b6);

    /* Joints. */
    dJointID j;
    j = dJointCreateBall(w, 0);
    dJointAttach(j, b1, b2);
    dJointSetBallAnchor(j, 0.1, 0.4, 1.0);

    j = dJointCreateHinge(w, 0);
    dJointAttach(j, b1, b2);
    dJointSetHingeAnchor(j, 0.0, 0.5, 1.0);
    dJointSetHingeAxis(j, 0.2, 1.0, 0.3);
    limot(j, dJointSetHingeParam, 0, -0.5, 0.75);

    j = dJointCreateSlider(w, 0);
    dJointAttach(j, b3, 0);
    dJointSetSliderAxis(j, 0.0, 0.6, 0.8);
    limot(j, dJointSetSliderParam, 0, -0.2, 0.3);

    {
        dContact c;
        dJointGroupID grp = dJointGroupCreate(0);
        c.surface.mode = dContactMu2 | dContactFDir1 | dContactBounce | dContactSoftERP | dContactSoftCFM |
                         dContactMotion1 | dContactMotion2 | dContactMotionN | dContactSlip1 | dContactSlip2 |
                         dContactApprox1;
        c.surface.mu = 0.9;
        c.surface.mu2 = dInfinity;
        c.surface.rho = c.surface.rho2 = c.surface.rhoN = 0;
        c.surface.bounce = 0.4;
        c.surface.bounce_vel = 0.05;
        c.surface.soft_erp = 0.6;
        c.surface.soft_cfm = 1e-4;
        c.surface.motion1 = 0.1;
        c.surface.motion2 = -0.2;
        c.surface.motionN = 0.01;
        c.surface.slip1 = 0.001;
        c.surface.slip2 = 0.002;
        c.geom.pos[0] = 0.3;
        c.geom.pos[1] = 0.7;
        c.geom.pos[2] = 0.05;
        c.geom.normal[0] = 0;
        c.geom.normal[1] = 0.6;
        c.geom.normal[2] = 0.8;
        c.geom.depth = 0.0125;
        c.geom.g1 = c.geom.g2 = 0;
        c.geom.side1 = c.geom.side2 = -1;
        c.fdir1[0] = 1;
        c.fdir1[1] = 0;
        c.fdir1[2] = 0;
        j = dJointCreateContact(w, grp, &c);
        dJointAttach(j, b1, 0);
        c.surface.mode = 0;
        c.surface.mu = 0.5;
        j = dJointCreateContact(w, grp, &c);
        dJointAttach(j, b1, b2);
        c.surface.mode = dContactApprox1_2 | dContactBounce;
        c.surface.mu = dInfinity;
        j = dJointCreateContact(w, grp, &c);
        dJointAttach(j, 0, b2);
    }

    j = dJointCreateUniversal(w, 0);
    dJointAttach(j, b1, b3);
    dJointSetUniversalAnchor(j, 0.5, 0.0, 1.5);
    dJointSetUniversalAxis1(j, 1, 0, 0);
    dJointSetUniversalAxis2(j, 0, 0.6, 0.8);
    limot(j, dJointSetUniversalParam, 0, -0.3, 0.4);
    limot(j, dJointSetUniversalParam, 1, -0.6, 0.2);

    j = dJointCreateHinge2(w, 0);
    dJointAttach(j, b1, b3);
    dJointSetHinge2Anchor(j, 0.6, -0.2, 1.4);
    {
        dReal a1[3] = {0, 0, 1}, a2[3] = {0.6, 0.8, 0};
        dJointSetHinge2Axes(j, a1, a2);
    }
    limot(j, dJointSetHinge2Param, 0, -0.25, 0.25);
    limot(j, dJointSetHinge2Param, 1, -1.5, 1.5);
    dJointSetHinge2Param(j, dParamSuspensionERP, 0.45);
    dJointSetHinge2Param(j, dParamSuspensionCFM, 0.015);

    j = dJointCreateFixed(w, 0);
    dJointAttach(j, b2, b3);
    dJointSetFixed(j);

    j = dJointCreateNull(w, 0);
    dJointAttach(j, b1, b2);

    j = dJointCreateAMotor(w, 0);
    dJointAttach(j, b1, b2);
    dJointSetAMotorMode(j, dAMotorUser);
    dJointSetAMotorNumAxes(j, 3);
    dJointSetAMotorAxis(j, 0, 0, 1, 0, 0);
    dJointSetAMotorAxis(j, 1, 1, 0, 1, 0);
    dJointSetAMotorAxis(j, 2, 2, 0, 0.6, 0.8);
    dJointSetAMotorAngle(j, 0, 0.1);
    dJointSetAMotorAngle(j, 1, -0.2);
    dJointSetAMotorAngle(j, 2, 0.3);
    limot(j, dJointSetAMotorParam, 0, -0.4, 0.4);
    limot(j, dJointSetAMotorParam, 1, -0.5, 0.5);
    limot(j, dJointSetAMotorParam, 2, -0.6, 0.6);

    j = dJointCreateAMotor(w, 0);
    dJointAttach(j, 0, b3);
    dJointSetAMotorMode(j, dAMotorEuler);
    dJointSetAMotorAxis(j, 0, 1, 0, 0, 1);
    dJointSetAMotorAxis(j, 2, 2, 1, 0, 0);
    limot(j, dJointSetAMotorParam, 1, -0.1, 0.2);

    j = dJointCreateLMotor(w, 0);
    dJointAttach(j, b1, b2);
    dJointSetLMotorNumAxes(j, 3);
    dJointSetLMotorAxis(j, 0, 0, 1, 0, 0);
    dJointSetLMotorAxis(j, 1, 1, 0, 1, 0);
    dJointSetLMotorAxis(j, 2, 2, 0, 0, 1);
    limot(j, dJointSetLMotorParam, 0, -1, 1);
    limot(j, dJointSetLMotorParam, 2, -2, 2);

    j = dJointCreatePlane2D(w, 0);
    dJointAttach(j, b3, 0);

    j = dJointCreatePR(w, 0);
    dJointAttach(j, b1, b3);
    dJointSetPRAnchor(j, 0.5, 0.2, 1.3);
    dJointSetPRAxis1(j, 1, 0, 0);
    dJointSetPRAxis2(j, 0, 1, 0);
    limot(j, dJointSetPRParam, 0, -0.1, 0.1);
    limot(j, dJointSetPRParam, 1, -0.7, 0.7);

    j = dJointCreatePU(w, 0);
    dJointAttach(j, b1, b2);
    dJointSetPUAnchor(j, 0.0, 0.4, 1.0);
    dJointSetPUAxis1(j, 1, 0, 0);
    dJointSetPUAxis2(j, 0, 1, 0);
    dJointSetPUAxisP(j, 0, 0, 1);
    limot(j, dJointSetPUParam, 0, -0.3, 0.3);
    limot(j, dJointSetPUParam, 1, -0.4, 0.4);
    limot(j, dJointSetPUParam, 2, -0.05, 0.05);

    j = dJointCreatePiston(w, 0);
    dJointAttach(j, b2, b3);
    dJointSetPistonAnchor(j, 0.3, -0.4, 1.5);
    dJointSetPistonAxis(j, 0.6, 0, 0.8);
    limot(j, dJointSetPistonParam, 0, -0.2, 0.2);
    limot(j, dJointSetPistonParam, 1, -0.9, 0.9);

    j = dJointCreateDBall(w, 0);
    dJointAttach(j, b1, b3);
    dJointSetDBallAnchor1(j, 0.3, 0.7, 1.2);
    dJointSetDBallAnchor2(j, 1.0, -1.0, 1.8);

    j = dJointCreateDHinge(w, 0);
    dJointAttach(j, b1, b3);
    dJointSetDHingeAxis(j, 0, 0, 1);
    dJointSetDHingeAnchor1(j, 0.3, 0.7, 1.2);
    dJointSetDHingeAnchor2(j, 1.0, -1.0, 1.8);

    j = dJointCreateTransmission(w, 0);
    dJointAttach(j, b1, b2);
    dJointSetTransmissionMode(j, dTransmissionParallelAxes);
    dJointSetTransmissionAxis(j, 0, 0, 1);
    dJointSetTransmissionAnchor1(j, 0.3, 0.7, 1.1);
    dJointSetTransmissionAnchor2(j, -0.4, 0.2, 0.9);
    dJointSetTransmissionRatio(j, 2.0);

    j = dJointCreateBall(w, 0); /* attached as (0, b): stored reversed */
    dJointAttach(j, 0, b4);
    dJointSetBallAnchor(j, 0.2, 0.2, -0.8);

    j = dJointCreateHinge(w, 0); /* attached to nothing */
    dJointSetHingeParam(j, dParamLoStop, -1);

    dWorldExportDIF(w, stdout, "");
    fflush(stdout);

    dWorldSetAutoDisableFlag(w, 1);
    dBodyEnable(b2);
    for (int i = 0; i < 3; i++) dWorldStep(w, 0.01);
    dWorldExportDIF(w, stdout, "scene_");
    fflush(stdout);

    for (int i = 0; i < 2; i++) dWorldQuickStep(w, 0.01);
    dWorldExportDIF(w, stdout, "q.");
    fflush(stdout);

    (void)b0;
    (void)gs; (void)gb; (void)gc; (void)gy; (void)gr; (void)gv; (void)gm; (void)gh;
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
