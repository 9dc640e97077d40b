/*
 * Argument checks on both sides of ODE's own boundaries (issue 9 §1): each
 * case is a call just inside or just outside what Debian's ODE 0.16.2
 * accepts, with the outcome ODE has for it:
 *
 *   ACCEPT  ODE proceeds with finite results: ours must not report;
 *   ASSERT  ODE's assertion fires (Debian's build aborts): ours must report
 *           once and change nothing observable;
 *   NAN     ODE proceeds but turns the result into NaN: ours must report
 *           once and change nothing observable.
 *
 * Run against our library (the default) it checks exactly that. Run with
 * CHECKS_ORACLE=1 against Debian's library it checks the table itself:
 * the debug handler then leaves ODE's failed assertion with longjmp (ODE
 * would abort after the handler returns), and a case is ASSERT if that
 * happened, NAN if the observed values hold a NaN, ACCEPT otherwise.
 * tests/checks_boundaries.rs runs both. Prints one line per case and
 * "PASS <n>" (or "FAIL ...").
 */
#include <ode/ode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <setjmp.h>
#include <float.h>
#include <math.h>

enum { ACCEPT, ASSERT, NAN_ };
static const char *const outcome_name[] = {"accept", "assert", "nan"};
enum { SETUP, ACT, OBSERVE };

static int oracle;
static jmp_buf jb;
static int reports;
static char last_msg[512];

static void on_debug(int num, const char *msg, va_list ap)
{
    (void)num;
    vsnprintf(last_msg, sizeof last_msg, msg, ap);
    reports++;
    if (oracle) longjmp(jb, 1);
}

/* observed values */
#define MAXOBS 64
static double obs[MAXOBS];
static int nobs;
static void o1(double v) { if (nobs < MAXOBS) obs[nobs++] = v; }
static void o3(const dReal *v) { o1(v[0]); o1(v[1]); o1(v[2]); }
static void o4(const dReal *v) { o3(v); o1(v[3]); }

/* shared objects of the current case */
static dWorldID W;
static dBodyID A, B;
static dJointID J;
static dGeomID G;
static dHeightfieldDataID H;
static dTriMeshDataID T;
static dReal V[16];
static dMatrix3 M;
static dContactGeom C[4];

static void fresh(const dReal *rot_a, const dReal *rot_b)
{
    dMatrix3 R;
    W = dWorldCreate();
    A = dBodyCreate(W);
    B = dBodyCreate(W);
    dBodySetPosition(A, 0, 0, 1);
    dBodySetPosition(B, 0.5, 0, 1);
    if (rot_a) { dRFromAxisAndAngle(R, rot_a[0], rot_a[1], rot_a[2], rot_a[3]); dBodySetRotation(A, R); }
    if (rot_b) { dRFromAxisAndAngle(R, rot_b[0], rot_b[1], rot_b[2], rot_b[3]); dBodySetRotation(B, R); }
    memset(V, 0, sizeof V);
    memset(C, 0, sizeof C);
}

static const dReal ROT[4] = {0.3, -0.5, 0.8, 1.1};
/* an exact quarter turn about z: body y goes to world x, no residue */
static const dMatrix3 QUARTER_Z = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0};

static void obs_body(dBodyID b) { o3(dBodyGetPosition(b)); o4(dBodyGetQuaternion(b)); }
static void obs_hinge2(dJointID j)
{
    dVector3 v;
    dJointGetHinge2Axis1(j, v); o3(v);
    dJointGetHinge2Axis2(j, v); o3(v);
    dJointGetHinge2Anchor(j, v); o3(v);
    o1(dJointGetHinge2Angle1(j));
    o1(dJointGetHinge2Angle2(j));
}

/* ---- joints ------------------------------------------------------------------------------ */

static void hinge2_axes(int ph, dReal x, dReal y, dReal z)
{
    if (ph == SETUP) { fresh(0, 0); J = dJointCreateHinge2(W, 0); dJointAttach(J, A, B); dJointSetHinge2Anchor(J, 0.25, 0, 1); }
    else if (ph == ACT) dJointSetHinge2Axis1(J, x, y, z);
    else obs_hinge2(J);
}
static void hinge2_parallel(int ph) { hinge2_axes(ph, 0, 1, 0); }
static void hinge2_tilt_1e17(int ph) { hinge2_axes(ph, 1e-17, 1, 0); }
static void hinge2_tilt_6e309(int ph) { hinge2_axes(ph, 6e-309, 1, 0); }
static void hinge2_tilt_1e310(int ph) { hinge2_axes(ph, 1e-310, 1, 0); }
static void hinge2_zero(int ph) { hinge2_axes(ph, 0, 0, 0); }
static void hinge2_axes_null(int ph)
{
    if (ph == ACT) dJointSetHinge2Axes(J, 0, 0);
    else hinge2_axes(ph, 0, 0, 0);
}
/* the case: body 2 turned by pi/2 about x carries rounding residue,
 * so its current axis 2 is world (0, 2.2e-16, 1) when axis 1 becomes z */
static void hinge2_residue(int ph)
{
    static const dReal rx[4] = {1, 0, 0, M_PI / 2};
    if (ph == SETUP) { fresh(0, rx); J = dJointCreateHinge2(W, 0); dJointAttach(J, A, B); dJointSetHinge2Anchor(J, 0.25, 0, 1); }
    else if (ph == ACT) dJointSetHinge2Axis1(J, 0, 0, 1);
    else obs_hinge2(J);
}
/* attaching re-expresses the axes in the new bodies: with body 2 turned so
 * that its y is world x exactly, the default axes are parallel */
static void hinge2_attach(int ph, int exact)
{
    static const dReal rz[4] = {0, 0, 1, -M_PI / 2};
    if (ph == SETUP) {
        fresh(0, exact ? 0 : rz);
        if (exact) dBodySetRotation(B, QUARTER_Z);
        J = dJointCreateHinge2(W, 0);
    } else if (ph == ACT) dJointAttach(J, A, B);
    else { o1(dJointGetNumBodies(J)); o1(dJointGetBody(J, 0) == A); o1(dJointGetHinge2Angle1(J)); }
}
static void hinge2_attach_exact(int ph) { hinge2_attach(ph, 1); }
static void hinge2_attach_residue(int ph) { hinge2_attach(ph, 0); }
/* setting the anchor recomputes the angle references: exactly parallel
 * axes (body 2 turned after the axes were set) make ODE assert */
static void hinge2_anchor(int ph, int exact)
{
    static const dReal rz[4] = {0, 0, 1, -M_PI / 2};
    if (ph == SETUP) {
        fresh(0, 0);
        J = dJointCreateHinge2(W, 0);
        dJointAttach(J, A, B);
        if (exact) dBodySetRotation(B, QUARTER_Z);
        else { dMatrix3 R; dRFromAxisAndAngle(R, rz[0], rz[1], rz[2], rz[3]); dBodySetRotation(B, R); }
    } else if (ph == ACT) dJointSetHinge2Anchor(J, 0.1, 0.2, 0.3);
    else { dVector3 v; dJointGetHinge2Anchor(J, v); o3(v); o1(dJointGetHinge2Angle1(J)); o1(dJointGetHinge2Angle2(J)); }
}
static void hinge2_anchor_exact(int ph) { hinge2_anchor(ph, 1); }
static void hinge2_anchor_residue(int ph) { hinge2_anchor(ph, 0); }

static void hinge_axis(int ph, int attached, dReal x, dReal y, dReal z)
{
    if (ph == SETUP) { fresh(ROT, 0); J = dJointCreateHinge(W, 0); if (attached) dJointAttach(J, A, B); }
    else if (ph == ACT) dJointSetHingeAxis(J, x, y, z);
    else { dVector3 v = {0, 0, 0}; dJointGetHingeAxis(J, v); o3(v); o1(dJointGetHingeAngle(J)); }
}
static void hinge_zero(int ph) { hinge_axis(ph, 1, 0, 0, 0); }
static void hinge_zero_unattached(int ph) { hinge_axis(ph, 0, 0, 0, 0); }
static void hinge_5e309(int ph) { hinge_axis(ph, 1, 5e-309, 0, 0); }
static void hinge_6e309(int ph) { hinge_axis(ph, 1, 6e-309, 0, 0); }
static void hinge_mixed_tiny(int ph) { hinge_axis(ph, 1, -5e-309, 5.5e-309, 1e-320); }

static void slider_5e309(int ph)
{
    if (ph == SETUP) { fresh(ROT, 0); J = dJointCreateSlider(W, 0); dJointAttach(J, A, B); }
    else if (ph == ACT) dJointSetSliderAxis(J, 0, 5e-309, 0);
    else { dVector3 v; dJointGetSliderAxis(J, v); o3(v); o1(dJointGetSliderPosition(J)); }
}
static void universal_5e309(int ph)
{
    if (ph == SETUP) { fresh(ROT, 0); J = dJointCreateUniversal(W, 0); dJointAttach(J, A, B); }
    else if (ph == ACT) dJointSetUniversalAxis2(J, 0, 0, 5e-309);
    else { dVector3 v; dJointGetUniversalAxis2(J, v); o3(v); o1(dJointGetUniversalAngle2(J)); }
}
static void piston_5e309(int ph)
{
    if (ph == SETUP) { fresh(ROT, 0); J = dJointCreatePiston(W, 0); dJointAttach(J, A, B); }
    else if (ph == ACT) dJointSetPistonAxis(J, 5e-309, 0, 0);
    else { dVector3 v; dJointGetPistonAxis(J, v); o3(v); o1(dJointGetPistonPosition(J)); }
}

/* The motors, the double hinge and the transmission normalise the axis in
 * a body's frame: a rotation shrinks (6e-309, 0, 0) below the limit. */
static void amotor_axis(int ph, int rel)
{
    if (ph == SETUP) { fresh(ROT, 0); J = dJointCreateAMotor(W, 0); dJointAttach(J, A, B); dJointSetAMotorNumAxes(J, 1); }
    else if (ph == ACT) dJointSetAMotorAxis(J, 0, rel, 6e-309, 0, 0);
    else { dVector3 v; dJointGetAMotorAxis(J, 0, v); o3(v); }
}
static void amotor_global(int ph) { amotor_axis(ph, 0); }
static void amotor_body1(int ph) { amotor_axis(ph, 1); }
static void lmotor_axis(int ph, int rel)
{
    if (ph == SETUP) { fresh(ROT, 0); J = dJointCreateLMotor(W, 0); dJointAttach(J, A, B); dJointSetLMotorNumAxes(J, 1); }
    else if (ph == ACT) dJointSetLMotorAxis(J, 0, rel, 6e-309, 0, 0);
    else { dVector3 v; dJointGetLMotorAxis(J, 0, v); o3(v); }
}
static void lmotor_global(int ph) { lmotor_axis(ph, 0); }
static void lmotor_body1(int ph) { lmotor_axis(ph, 1); }
static void dhinge_axis(int ph, int rotated)
{
    if (ph == SETUP) { fresh(rotated ? ROT : 0, 0); J = dJointCreateDHinge(W, 0); dJointAttach(J, A, B); }
    else if (ph == ACT) dJointSetDHingeAxis(J, 6e-309, 0, 0);
    else { dVector3 v; dJointGetDHingeAxis(J, v); o3(v); }
}
static void dhinge_plain(int ph) { dhinge_axis(ph, 0); }
static void dhinge_rotated(int ph) { dhinge_axis(ph, 1); }
static void dhinge_unattached(int ph)
{
    if (ph == SETUP) { fresh(0, 0); J = dJointCreateDHinge(W, 0); }
    else if (ph == ACT) dJointSetDHingeAxis(J, 0, 0, 1);
    else o1(dJointGetDHingeDistance(J));
}
static void transmission_axis(int ph, int rotated)
{
    if (ph == SETUP) {
        fresh(rotated ? ROT : 0, 0);
        J = dJointCreateTransmission(W, 0);
        dJointAttach(J, A, B);
        dJointSetTransmissionMode(J, dTransmissionIntersectingAxes);
    } else if (ph == ACT) dJointSetTransmissionAxis1(J, 6e-309, 0, 0);
    else { dVector3 v; dJointGetTransmissionAxis1(J, v); o3(v); }
}
static void transmission_plain(int ph) { transmission_axis(ph, 0); }
static void transmission_rotated(int ph) { transmission_axis(ph, 1); }

static void dball_distance(int ph, dReal d)
{
    if (ph == SETUP) { fresh(0, 0); J = dJointCreateDBall(W, 0); dJointAttach(J, A, B); }
    else if (ph == ACT) dJointSetDBallDistance(J, d);
    else o1(dJointGetDBallDistance(J));
}
static void dball_minus0(int ph) { dball_distance(ph, -0.0); }
static void dball_minus_tiny(int ph) { dball_distance(ph, -1e-300); }

static void attach(int ph, int same, int none)
{
    if (ph == SETUP) { fresh(0, 0); J = dJointCreateBall(W, 0); }
    else if (ph == ACT) dJointAttach(J, none ? 0 : A, none ? 0 : same ? A : B);
    else { o1(dJointGetNumBodies(J)); o1(dBodyGetNumJoints(A)); }
}
static void attach_same(int ph) { attach(ph, 1, 0); }
static void attach_none(int ph) { attach(ph, 0, 1); }
static void attach_hinge2_one(int ph)
{
    if (ph == SETUP) { fresh(0, 0); J = dJointCreateHinge2(W, 0); }
    else if (ph == ACT) dJointAttach(J, A, 0);
    else { o1(dJointGetNumBodies(J)); o1(dBodyGetNumJoints(A)); }
}

/* ---- bodies ------------------------------------------------------------------------------ */

static void quaternion(int ph, dReal q0)
{
    if (ph == SETUP) fresh(ROT, 0);
    else if (ph == ACT) { dQuaternion q = {q0, 0, 0, 0}; dBodySetQuaternion(A, q); }
    else { o4(dBodyGetQuaternion(A)); o3(dBodyGetRotation(A)); }
}
static void quat_1e200(int ph) { quaternion(ph, 1e-200); }
static void quat_1e160(int ph) { quaternion(ph, 1e-160); }
static void quat_big(int ph) { quaternion(ph, 1e200); }
static void quat_zero(int ph) { quaternion(ph, 0); }

static void rotation(int ph, double eps)
{
    if (ph == SETUP) fresh(0, 0);
    else if (ph == ACT) {
        dMatrix3 R = {1, 0.3, 0, 0, 1, 0.3 + eps, 0.2 * eps, 0, 0, 0, 1, 0};
        dBodySetRotation(A, R);
    } else { o4(dBodyGetQuaternion(A)); o3(dBodyGetRotation(A)); }
}
static void rot_rows_1e10(int ph) { rotation(ph, 1e-10); }
static void rot_rows_3e11(int ph) { rotation(ph, 3e-11); }
static void rot_row0_zero(int ph)
{
    if (ph == ACT) { dMatrix3 R = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}; dBodySetRotation(A, R); }
    else rotation(ph, 0);
}
static void rot_scaled(int ph)
{
    if (ph == ACT) { dMatrix3 R = {1e-200, 0, 0, 0, 0, 1e200, 0, 0, 0, 0, 5, 0}; dBodySetRotation(A, R); }
    else rotation(ph, 0);
}

static void mass(int ph, dReal m, dReal i, dReal cx)
{
    if (ph == SETUP) fresh(0, 0);
    else if (ph == ACT) {
        dMass mm;
        dMassSetZero(&mm);
        mm.mass = m;
        mm.I[0] = mm.I[5] = mm.I[10] = i;
        mm.c[0] = cx;
        dBodySetMass(A, &mm);
    } else { dMass mm; dBodyGetMass(A, &mm); o1(mm.mass); o1(mm.I[0]); o1(mm.c[0]); }
}
static void mass_tiny(int ph) { mass(ph, 1e-300, 1e-300, 0); }
static void mass_zero(int ph) { mass(ph, 0, 1, 0); }
static void mass_c_eps(int ph) { mass(ph, 1, 1, DBL_EPSILON); }
static void mass_c_2eps(int ph) { mass(ph, 1, 1, 2 * DBL_EPSILON); }
static void mass_i_zero(int ph) { mass(ph, 1, 0, 0); }

static void finite_axis(int ph, dReal x)
{
    if (ph == SETUP) { fresh(0, 0); dBodySetFiniteRotationMode(A, 1); }
    else if (ph == ACT) dBodySetFiniteRotationAxis(A, 0, x, 0);
    else { dVector3 v; dBodyGetFiniteRotationAxis(A, v); o3(v); }
}
static void finite_axis_zero(int ph) { finite_axis(ph, 0); }
static void finite_axis_5e309(int ph) { finite_axis(ph, 5e-309); }
static void finite_axis_6e309(int ph) { finite_axis(ph, 6e-309); }

static void damping(int ph)
{
    if (ph == SETUP) fresh(0, 0);
    else if (ph == ACT) {
        dBodySetDamping(A, 1.5, -0.5);
        dBodySetLinearDampingThreshold(A, -2);
        dBodySetAngularDampingThreshold(A, -3);
        dBodySetAutoDisableLinearThreshold(A, -4);
        dBodySetAutoDisableAngularThreshold(A, -5);
        dBodySetAutoDisableTime(A, -6);
        dBodySetAutoDisableSteps(A, -7);
        dBodySetMaxAngularSpeed(A, -8);
    } else {
        o1(dBodyGetLinearDamping(A)); o1(dBodyGetAngularDamping(A));
        o1(dBodyGetLinearDampingThreshold(A)); o1(dBodyGetAngularDampingThreshold(A));
        o1(dBodyGetAutoDisableLinearThreshold(A)); o1(dBodyGetAutoDisableAngularThreshold(A));
        o1(dBodyGetAutoDisableTime(A)); o1(dBodyGetAutoDisableSteps(A)); o1(dBodyGetMaxAngularSpeed(A));
    }
}

static void step(int ph, dReal h)
{
    if (ph == SETUP) { fresh(0, 0); dBodySetLinearVel(A, 1, 2, 3); }
    else if (ph == ACT) dWorldStep(W, h);
    else obs_body(A);
}
static void step_zero(int ph) { step(ph, 0); }
static void step_negative(int ph) { step(ph, -1e-300); }
static void step_tiny(int ph) { step(ph, 1e-300); }
static void step_6e309(int ph) { step(ph, 6e-309); }
static void step_5e309(int ph) { step(ph, 5e-309); }
static void impulse_zero_step(int ph)
{
    if (ph == SETUP) fresh(0, 0);
    else if (ph == ACT) dWorldImpulseToForce(W, 0, 1, 0, 0, V);
    else o3(V);
}

/* ---- math ---------------------------------------------------------------------------------- */

static void normalize3(int ph, dReal x)
{
    if (ph == SETUP) { fresh(0, 0); V[0] = x; V[1] = 0; V[2] = 0; }
    else if (ph == ACT) dNormalize3(V);
    else o3(V);
}
static void norm3_zero(int ph) { normalize3(ph, 0); }
static void norm3_5e309(int ph) { normalize3(ph, 5e-309); }
static void norm3_6e309(int ph) { normalize3(ph, 6e-309); }
static void normalize4(int ph, dReal x)
{
    if (ph == SETUP) { fresh(0, 0); V[0] = 0; V[1] = 0; V[2] = 0; V[3] = x; }
    else if (ph == ACT) dNormalize4(V);
    else o4(V);
}
static void norm4_1e200(int ph) { normalize4(ph, 1e-200); }
static void norm4_1e160(int ph) { normalize4(ph, 1e-160); }
static void norm4_big(int ph) { normalize4(ph, 1e200); }
static void zaxis(int ph, dReal x)
{
    if (ph == SETUP) { fresh(0, 0); memset(M, 0, sizeof M); }
    else if (ph == ACT) dRFromZAxis(M, x, 0, 0);
    else { o4(M); o4(M + 4); o4(M + 8); }
}
static void zaxis_zero(int ph) { zaxis(ph, 0); }
static void zaxis_5e309(int ph) { zaxis(ph, 5e-309); }
static void zaxis_6e309(int ph) { zaxis(ph, 6e-309); }

/* ---- geoms --------------------------------------------------------------------------------- */

static void sphere(int ph, dReal r)
{
    if (ph == SETUP) { fresh(0, 0); G = dCreateSphere(0, 1); }
    else if (ph == ACT) dGeomSphereSetRadius(G, r);
    else o1(dGeomSphereGetRadius(G));
}
static void sphere_minus0(int ph) { sphere(ph, -0.0); }
static void sphere_minus_tiny(int ph) { sphere(ph, -1e-300); }
static void box_zero(int ph)
{
    if (ph == SETUP) { fresh(0, 0); G = dCreateBox(0, 1, 1, 1); }
    else if (ph == ACT) dGeomBoxSetLengths(G, 0, 0, 0);
    else { dVector3 v; dGeomBoxGetLengths(G, v); o3(v); }
}
static void box_minus_tiny(int ph)
{
    if (ph == ACT) dGeomBoxSetLengths(G, 1, -1e-300, 1);
    else box_zero(ph);
}
static void capsule_minus_tiny(int ph)
{
    if (ph == SETUP) { fresh(0, 0); G = dCreateCapsule(0, 1, 1); }
    else if (ph == ACT) dGeomCapsuleSetParams(G, 1, -1e-300);
    else { dReal r, l; dGeomCapsuleGetParams(G, &r, &l); o1(r); o1(l); }
}
static void ray(int ph, dReal x)
{
    if (ph == SETUP) { fresh(0, 0); G = dCreateRay(0, 5); }
    else if (ph == ACT) dGeomRaySet(G, 1, 2, 3, x, 0, 0);
    else { dVector3 p, d; dGeomRayGet(G, p, d); o3(p); o3(d); }
}
static void ray_zero(int ph) { ray(ph, 0); }
static void ray_5e309(int ph) { ray(ph, 5e-309); }
static void ray_6e309(int ph) { ray(ph, 6e-309); }

static dReal hf_heights[4] = {0, 1, 2, 3};
static void heightfield(int ph, dReal width, int samples)
{
    if (ph == SETUP) { fresh(0, 0); H = dGeomHeightfieldDataCreate(); }
    else if (ph == ACT) dGeomHeightfieldDataBuildDouble(H, hf_heights, 0, width, 1, samples, 2, 1, 0, 1, 0);
    else o1(0);
}
static void hf_width_zero(int ph) { heightfield(ph, 0, 2); }
static void hf_width_tiny(int ph) { heightfield(ph, 1e-300, 2); }
static void hf_one_sample(int ph) { heightfield(ph, 1, 1); }

static const float tm_verts[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
static const dTriIndex tm_strip[] = {0, 1, 2, 3};
/* (the triangles read back are compared in diff_checks_boundaries_geoms.c;
 * strides from 1 to 11 bytes are refused by us but not asserted on by ODE,
 * whose OPCODE part then keeps its previous strides while ODE's own part
 * uses the given ones, see collision_trimesh.rs: in neither list) */
static void trimesh(int ph, int vstride, int tstride, int ntri)
{
    if (ph == SETUP) { fresh(0, 0); T = dGeomTriMeshDataCreate(); }
    else if (ph == ACT) dGeomTriMeshDataBuildSingle(T, tm_verts, vstride, 4, tm_strip, 3 * ntri, tstride);
}
static void tm_vstride_zero(int ph) { trimesh(ph, 0, 12, 1); }
static void tm_tstride_zero(int ph) { trimesh(ph, 12, 0, 2); }
static void tm_one_tstride_zero(int ph) { trimesh(ph, 12, 0, 1); }
static const double tm_dverts[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
static void tm_dstride12(int ph)
{
    if (ph == ACT) dGeomTriMeshDataBuildDouble(T, tm_dverts, 12, 4, tm_strip, 6, 12);
    else trimesh(ph, 0, 0, 0);
}

/* Face normals handed to the data, read by Preprocess (ODE asserts that
 * each one it reads is of unit length: its squared length within
 * 0.25 * (1e-6f)^2 of 1): a quad of two triangles sharing edge 1-2, whose
 * first side (triangle 0) is the one read, and a lone triangle. */
static const double tm_nverts[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 5, 0, 0, 6, 0, 0, 5, 1, 0};
static const int tm_ntris[] = {0, 1, 2, 1, 3, 2, 4, 5, 6};
static dReal tm_normals[9];
static void tm_normal(int ph, int tri, double x, double y, double z)
{
    if (ph == SETUP) {
        fresh(0, 0);
        for (int t = 0; t < 3; t++) { tm_normals[3 * t] = 0; tm_normals[3 * t + 1] = 0; tm_normals[3 * t + 2] = 1; }
        tm_normals[3 * tri] = x; tm_normals[3 * tri + 1] = y; tm_normals[3 * tri + 2] = z;
        T = dGeomTriMeshDataCreate();
        dGeomTriMeshDataBuildDouble1(T, tm_nverts, 3 * sizeof(double), 7, tm_ntris, 9, 3 * sizeof(int), tm_normals);
    } else if (ph == ACT) {
        dGeomTriMeshDataPreprocess2(T, (1U << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES) | (1U << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES), NULL);
    } else {
        const unsigned char *f = dGeomTriMeshDataGet2(T, dTRIMESHDATA_USE_FLAGS, NULL);
        o1(f != NULL);
        for (int t = 0; f && t < 3; t++) o1(f[t]);
    }
}
static void tm_normal_unit(int ph) { tm_normal(ph, 0, 0.6, 0, 0.8); }
static void tm_normal_len2_24e14(int ph) { tm_normal(ph, 0, 0, 0, 1 + 1.2e-13); }
static void tm_normal_len2_26e14(int ph) { tm_normal(ph, 0, 0, 0, 1 + 1.3e-13); }
static void tm_normal_zero(int ph) { tm_normal(ph, 0, 0, 0, 0); }
static void tm_normal_nan(int ph) { tm_normal(ph, 0, 0, NAN, 1); }
static void tm_normal_huge(int ph) { tm_normal(ph, 0, 0, 0, 1e200); }
static void tm_normal_unread_second(int ph) { tm_normal(ph, 1, NAN, 0, 0); }
static void tm_normal_unread_lone(int ph) { tm_normal(ph, 2, 0, 0, 0); }

static void boxbox(int ph, dReal side, int skip)
{
    if (ph == SETUP) { fresh(0, 0); dRSetIdentity(M); }
    else if (ph == ACT) {
        dVector3 p1 = {0, 0, 0}, p2 = {0.5, 0, 0}, s1 = {1, side, 1}, s2 = {1, 1, 1}, n;
        dReal depth;
        int code;
        V[0] = dBoxBox(p1, M, s1, p2, M, s2, n, &depth, &code, 4, C, skip);
        V[1] = dBoxTouchesBox(p1, M, s1, p2, M, s2);
    } else { o1(V[0]); o1(V[1]); o4(C[0].pos); o1(C[0].depth); }
}
static void boxbox_negative_side(int ph) { boxbox(ph, -0.5, sizeof(dContactGeom)); }
static void boxbox_skip0(int ph) { boxbox(ph, 1, 0); }

static void collide_no_contacts(int ph)
{
    static dGeomID G2;
    if (ph == SETUP) { fresh(0, 0); G = dCreateSphere(0, 1); G2 = dCreateSphere(0, 1); }
    else if (ph == ACT) V[0] = dCollide(G, G2, 0, C, sizeof(dContactGeom));
    else o1(V[0]);
}

static void control(int ph, int on_trimesh, int cls, int code, int value)
{
    static const float v[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    static const dTriIndex ix[] = {0, 1, 2};
    if (ph == SETUP) {
        fresh(0, 0);
        if (on_trimesh) {
            T = dGeomTriMeshDataCreate();
            dGeomTriMeshDataBuildSingle(T, v, 12, 3, ix, 3, 12);
            G = dCreateTriMesh(0, T, 0, 0, 0);
        } else G = dCreateSphere(0, 1);
    } else if (ph == ACT) {
        int data = value, size = sizeof(int);
        V[0] = dGeomLowLevelControl(G, cls, code, &data, &size);
    } else o1(V[0]);
}
static void control_sphere(int ph) { control(ph, 0, dGeomColliderControlClass, dGeomCommonAnyControlCode, 0); }
static void control_common_class(int ph) { control(ph, 1, dGeomCommonControlClass, dGeomCommonAnyControlCode, 0); }
static void control_bad_code(int ph) { control(ph, 1, dGeomColliderControlClass, 7, 0); }
static void control_bad_merge(int ph) { control(ph, 1, dGeomColliderControlClass, dGeomColliderSetMergeSphereContactsControlCode, 7); }
static void control_merge_none(int ph) { control(ph, 1, dGeomColliderControlClass, dGeomColliderSetMergeSphereContactsControlCode, dGeomColliderMergeContactsValue_None); }
static void control_merge_full(int ph) { control(ph, 1, dGeomColliderControlClass, dGeomColliderSetMergeSphereContactsControlCode, dGeomColliderMergeContactsValue_Full); }

static void quadtree(int ph, dReal ex)
{
    static dSpaceID q;
    if (ph == SETUP) { fresh(0, 0); q = 0; }
    else if (ph == ACT) { dVector3 c = {1, 2, 3}, e = {ex, 1, 1}; q = dQuadTreeSpaceCreate(0, c, e, 2); }
    else o1(q != 0);
}
static void quadtree_negative(int ph) { quadtree(ph, -1e-10); }
static void quadtree_tiny_negative(int ph) { quadtree(ph, -1e-17); }
static void hash_levels(int ph, int lo, int hi)
{
    static dSpaceID h;
    if (ph == SETUP) { fresh(0, 0); h = dHashSpaceCreate(0); }
    else if (ph == ACT) dHashSpaceSetLevels(h, lo, hi);
    else { int a, b; dHashSpaceGetLevels(h, &a, &b); o1(a); o1(b); }
}
static void hash_levels_crossed(int ph) { hash_levels(ph, 3, 2); }
static void hash_levels_wide(int ph) { hash_levels(ph, -40, 40); }
static void transmission_ratio(int ph, dReal r)
{
    if (ph == SETUP) { fresh(0, 0); J = dJointCreateTransmission(W, 0); }
    else if (ph == ACT) dJointSetTransmissionRatio(J, r);
    else o1(dJointGetTransmissionRatio(J));
}
static void ratio_zero(int ph) { transmission_ratio(ph, 0); }
static void ratio_tiny(int ph) { transmission_ratio(ph, 1e-300); }

/* ---- the table ------------------------------------------------------------------------------ */

typedef struct { const char *name; int expect; void (*fn)(int); } Case;
static const Case cases[] = {
    {"hinge2 axis1 exactly parallel to axis2", ASSERT, hinge2_parallel},
    {"hinge2 axis1 (1e-17, 1, 0) vs axis2 (0, 1, 0)", ACCEPT, hinge2_tilt_1e17},
    {"hinge2 axis1 (6e-309, 1, 0) vs axis2 (0, 1, 0)", ACCEPT, hinge2_tilt_6e309},
    {"hinge2 axis1 (1e-310, 1, 0) vs axis2 (0, 1, 0)", NAN_, hinge2_tilt_1e310},
    {"hinge2 axis1 zero", ASSERT, hinge2_zero},
    {"hinge2 axes both NULL", ASSERT, hinge2_axes_null},
    {"hinge2 axis1 z, body 2 turned pi/2 about x", ACCEPT, hinge2_residue},
    {"hinge2 attach, default axes made exactly parallel", ASSERT, hinge2_attach_exact},
    {"hinge2 attach, default axes parallel but for residue", ACCEPT, hinge2_attach_residue},
    {"hinge2 anchor, axes exactly parallel", ASSERT, hinge2_anchor_exact},
    {"hinge2 anchor, axes parallel but for residue", ACCEPT, hinge2_anchor_residue},
    {"hinge axis zero", ASSERT, hinge_zero},
    {"hinge axis zero, unattached", ACCEPT, hinge_zero_unattached},
    {"hinge axis (5e-309, 0, 0)", NAN_, hinge_5e309},
    {"hinge axis (6e-309, 0, 0)", ACCEPT, hinge_6e309},
    {"hinge axis (-5e-309, 5.5e-309, 1e-320)", NAN_, hinge_mixed_tiny},
    {"slider axis (0, 5e-309, 0)", NAN_, slider_5e309},
    {"universal axis2 (0, 0, 5e-309)", NAN_, universal_5e309},
    {"piston axis (5e-309, 0, 0)", NAN_, piston_5e309},
    {"amotor global axis (6e-309, 0, 0)", ACCEPT, amotor_global},
    {"amotor axis (6e-309, 0, 0) in turned body 1", NAN_, amotor_body1},
    {"lmotor global axis (6e-309, 0, 0)", ACCEPT, lmotor_global},
    {"lmotor axis (6e-309, 0, 0) in turned body 1", NAN_, lmotor_body1},
    {"dhinge axis (6e-309, 0, 0)", ACCEPT, dhinge_plain},
    {"dhinge axis (6e-309, 0, 0), body 1 turned", NAN_, dhinge_rotated},
    {"dhinge axis unattached", ASSERT, dhinge_unattached},
    {"transmission axis1 (6e-309, 0, 0)", ACCEPT, transmission_plain},
    {"transmission axis1 (6e-309, 0, 0), body 1 turned", NAN_, transmission_rotated},
    {"dball distance -0", ACCEPT, dball_minus0},
    {"dball distance -1e-300", ASSERT, dball_minus_tiny},
    {"attach a body to itself", ASSERT, attach_same},
    {"attach (0, 0)", ACCEPT, attach_none},
    {"attach hinge2 to one body", ASSERT, attach_hinge2_one},
    {"quaternion (1e-200, 0, 0, 0)", ASSERT, quat_1e200},
    {"quaternion (1e-160, 0, 0, 0)", ACCEPT, quat_1e160},
    {"quaternion (1e200, 0, 0, 0)", ACCEPT, quat_big},
    {"quaternion zero", ASSERT, quat_zero},
    {"rotation rows 1e-10 from parallel", ACCEPT, rot_rows_1e10},
    {"rotation rows 3e-11 from parallel", ASSERT, rot_rows_3e11},
    {"rotation row 0 zero", ASSERT, rot_row0_zero},
    {"rotation rows scaled 1e-200 and 1e200", ACCEPT, rot_scaled},
    {"mass 1e-300, inertia 1e-300", ACCEPT, mass_tiny},
    {"mass 0", ASSERT, mass_zero},
    {"mass centre at DBL_EPSILON", ACCEPT, mass_c_eps},
    {"mass centre at 2 DBL_EPSILON", ASSERT, mass_c_2eps},
    {"mass inertia zero", ASSERT, mass_i_zero},
    {"finite rotation axis zero (clears it)", ACCEPT, finite_axis_zero},
    {"finite rotation axis (0, 5e-309, 0)", NAN_, finite_axis_5e309},
    {"finite rotation axis (0, 6e-309, 0)", ACCEPT, finite_axis_6e309},
    {"damping, thresholds, idle time and steps, max speed out of range", ACCEPT, damping},
    {"step 0", ASSERT, step_zero},
    {"step -1e-300", ASSERT, step_negative},
    {"step 1e-300", ACCEPT, step_tiny},
    {"step 6e-309", ACCEPT, step_6e309},
    {"step 5e-309 (1/step overflows; the step's normalisation asserts)", ASSERT, step_5e309},
    {"impulse to force with step 0", NAN_, impulse_zero_step},
    {"dNormalize3 zero", ASSERT, norm3_zero},
    {"dNormalize3 (5e-309, 0, 0)", NAN_, norm3_5e309},
    {"dNormalize3 (6e-309, 0, 0)", ACCEPT, norm3_6e309},
    {"dNormalize4 (0, 0, 0, 1e-200)", ASSERT, norm4_1e200},
    {"dNormalize4 (0, 0, 0, 1e-160)", ACCEPT, norm4_1e160},
    {"dNormalize4 (0, 0, 0, 1e200)", ACCEPT, norm4_big},
    {"dRFromZAxis zero", ASSERT, zaxis_zero},
    {"dRFromZAxis (5e-309, 0, 0)", NAN_, zaxis_5e309},
    {"dRFromZAxis (6e-309, 0, 0)", ACCEPT, zaxis_6e309},
    {"sphere radius -0", ACCEPT, sphere_minus0},
    {"sphere radius -1e-300", ASSERT, sphere_minus_tiny},
    {"box sides zero", ACCEPT, box_zero},
    {"box side -1e-300", ASSERT, box_minus_tiny},
    {"capsule length -1e-300", ASSERT, capsule_minus_tiny},
    {"ray direction zero", ASSERT, ray_zero},
    {"ray direction (5e-309, 0, 0)", NAN_, ray_5e309},
    {"ray direction (6e-309, 0, 0)", ACCEPT, ray_6e309},
    {"heightfield width 0", ASSERT, hf_width_zero},
    {"heightfield width 1e-300", ACCEPT, hf_width_tiny},
    {"heightfield one width sample", ASSERT, hf_one_sample},
    {"trimesh vertex stride 0", ASSERT, tm_vstride_zero},
    {"trimesh triangle stride 0", ASSERT, tm_tstride_zero},
    {"trimesh double vertex stride 12 (overlapping vertices)", ACCEPT, tm_dstride12},
    {"trimesh one triangle, triangle stride 0", ASSERT, tm_one_tstride_zero},
    {"trimesh preprocess, unit normal (0.6, 0, 0.8)", ACCEPT, tm_normal_unit},
    {"trimesh preprocess, normal's squared length 1 + 2.4e-13", ACCEPT, tm_normal_len2_24e14},
    {"trimesh preprocess, normal's squared length 1 + 2.6e-13", ASSERT, tm_normal_len2_26e14},
    {"trimesh preprocess, normal zero", ASSERT, tm_normal_zero},
    {"trimesh preprocess, normal NaN", ASSERT, tm_normal_nan},
    {"trimesh preprocess, normal (0, 0, 1e200)", ASSERT, tm_normal_huge},
    {"trimesh preprocess, NaN normal of a shared edge's second side", ACCEPT, tm_normal_unread_second},
    {"trimesh preprocess, zero normal of a triangle sharing no edge", ACCEPT, tm_normal_unread_lone},
    {"dBoxBox and dBoxTouchesBox with a negative side", ACCEPT, boxbox_negative_side},
    {"dBoxBox skip 0", ACCEPT, boxbox_skip0},
    {"dCollide asking for no contacts", ASSERT, collide_no_contacts},
    {"quadtree extent -1e-10", ASSERT, quadtree_negative},
    {"quadtree extent -1e-17 (range not empty after rounding)", ACCEPT, quadtree_tiny_negative},
    {"hash space levels 3, 2", ASSERT, hash_levels_crossed},
    {"hash space levels -40, 40", ACCEPT, hash_levels_wide},
    {"transmission ratio 0", ASSERT, ratio_zero},
    {"transmission ratio 1e-300", ACCEPT, ratio_tiny},
    {"low-level control of a sphere", ASSERT, control_sphere},
    {"trimesh control, common class", ASSERT, control_common_class},
    {"trimesh control, unknown code", ASSERT, control_bad_code},
    {"trimesh control, merge value 7", ASSERT, control_bad_merge},
    {"trimesh control, merge none", ACCEPT, control_merge_none},
    {"trimesh control, merge full", ACCEPT, control_merge_full},
};

int main(void)
{
    unsigned i;
    int k, failures = 0, checks = 0;
    oracle = getenv("CHECKS_ORACLE") != NULL;
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    dSetErrorHandler(on_debug);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Case *c = &cases[i];
        double before[MAXOBS];
        int nbefore, got, has_nan = 0;
        const char *why = 0;
        reports = 0;
        last_msg[0] = 0;
        c->fn(SETUP);
        if (reports) { printf("SETUP REPORTED in '%s': %s\n", c->name, last_msg); failures++; continue; }
        nobs = 0;
        c->fn(OBSERVE);
        memcpy(before, obs, sizeof obs);
        nbefore = nobs;
        if (!setjmp(jb)) {
            c->fn(ACT);
            nobs = 0;
            c->fn(OBSERVE);
            for (k = 0; k < nobs; k++) has_nan |= obs[k] != obs[k];
            if (oracle) got = has_nan ? NAN_ : ACCEPT;
            else got = reports ? c->expect : ACCEPT;
            if (!oracle && reports && c->expect != ACCEPT) {
                if (reports != 1) why = "reported more than once";
                else if (nobs != nbefore || memcmp(before, obs, nobs * sizeof obs[0])) why = "a refused call changed the state";
            }
            if (!oracle && !reports && has_nan) why = "accepted, but gave NaN";
        } else {
            got = ASSERT;
        }
        checks++;
        printf("%-60s %s", c->name, outcome_name[got]);
        if (got != c->expect) { printf("   FAIL: expected %s", outcome_name[c->expect]); failures++; }
        else if (why) { printf("   FAIL: %s", why); failures++; }
        if (!oracle && reports) printf("   [%s]", last_msg);
        printf("\n");
    }
    if (failures) { printf("FAIL %d of %d\n", failures, checks); return 1; }
    printf("PASS %d\n", checks);
    return 0;
}
