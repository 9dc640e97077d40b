/* Huge finite values (README, "Huge finite values"; issue 10, fuzzer's
 * former EXCL_HUGE_GEOMETRY and EXCL_NAN_AFTER_STEP). ODE accepts any
 * finite number and so do we; beyond 1e100 ODE's arithmetic on it (squared
 * lengths, products with other such values, sums of two far points)
 * overflows to inf or NaN in geom placements, AABBs and joint getters.
 * The policy checked here:
 * - a setter given a value beyond 1e100 (positions, anchors, velocities,
 *   forces, offsets, sizes, quaternions and rotation entries, transmission
 *   ratio) carries it out as ODE does and warns once on the message channel
 *   (number 2); 1e100 itself and below are silent;
 * - a step that carries a body beyond 1e100 warns once for that body
 *   (number 2) and keeps the state as ODE does; a step whose result would
 *   be non-finite (velocity 1e300 with a step of 1e10) is taken over by the
 *   step's guard (number 1), the body stays finite;
 * - dGeomSetPosition/Rotation/Quaternion on an offset geom whose body would
 *   land at a non-finite position (ODE stores inf there) are refused on the
 *   debug channel (number 2) and leave the body as it was;
 * - a double hinge with no axis stays finite under QuickStep (issue 10 §2).
 * Runs against our library. Prints "PASS <n>". */
#include <ode/ode.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int refusals, warnings, guards;
static char last[512];
static void on_debug(int num, const char *msg, va_list ap)
{
    vsnprintf(last, sizeof last, msg, ap);
    if (num == 2)
        refusals++;
}
static void on_message(int num, const char *msg, va_list ap)
{
    vsnprintf(last, sizeof last, msg, ap);
    if (num == 2)
        warnings++;
    else if (num == 1)
        guards++;
}

static int checks, failures;
static void check(int ok, const char *what)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s (last report: %s)\n", what, last);
    }
}
static void reset(void)
{
    refusals = warnings = guards = 0;
    last[0] = 0;
}
static int finite3(const dReal *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }
static int body_finite(dBodyID b)
{
    const dReal *q = dBodyGetQuaternion(b);
    return finite3(dBodyGetPosition(b)) && finite3(dBodyGetLinearVel(b)) && finite3(dBodyGetAngularVel(b)) &&
           isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]) && isfinite(q[3]);
}

/* Setters: accepted (the value is stored as given), one warning beyond 1e100. */
static void setters(void)
{
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w);
    const double above = nextafter(1e100, INFINITY);

    reset();
    dBodySetLinearVel(b, 1e100, -1e100, 0);
    check(warnings == 0 && refusals == 0, "a velocity of 1e100 is silent");
    dBodySetLinearVel(b, 0, above, 0);
    check(warnings == 1 && refusals == 0, "a velocity just above 1e100 warns once");
    check(dBodyGetLinearVel(b)[1] == above, "the velocity is stored as given");
    check(strstr(last, "dBodySetLinearVel") && strstr(last, "'y'"), "the warning names the function and the argument");

    reset();
    dBodySetPosition(b, -1e300, 0, 0);
    check(warnings == 1 && dBodyGetPosition(b)[0] == -1e300, "a position of -1e300 is accepted with a warning");
    reset();
    dBodyAddForce(b, 0, 0, DBL_MAX);
    check(warnings == 1 && dBodyGetForce(b)[2] == DBL_MAX, "a force of DBL_MAX is accepted with a warning");
    dBodySetForce(b, 0, 0, 0);
    dBodySetPosition(b, 0, 0, 0);
    dBodySetLinearVel(b, 0, 0, 0);

    dJointID j = dJointCreateBall(w, 0);
    dJointAttach(j, b, 0);
    reset();
    dJointSetBallAnchor(j, 1e300, 0, 0);
    dVector3 a;
    dJointGetBallAnchor(j, a);
    check(warnings == 1 && refusals == 0 && a[0] == 1e300, "a ball anchor at 1e300 is accepted with a warning");

    dJointID t = dJointCreateTransmission(w, 0);
    reset();
    dJointSetTransmissionRatio(t, DBL_MAX);
    check(warnings == 1 && dJointGetTransmissionRatio(t) == DBL_MAX, "a transmission ratio of DBL_MAX is accepted with a warning");

    dSpaceID s = dSimpleSpaceCreate(0);
    reset();
    dGeomID g = dCreateSphere(s, 1e300);
    check(warnings == 1 && g && dGeomSphereGetRadius(g) == 1e300, "a sphere of radius 1e300 is created with a warning");
    reset();
    dGeomSetPosition(g, 0, 2e297, 0);
    check(warnings == 1 && dGeomGetPosition(g)[1] == 2e297, "a geom position of 2e297 is accepted with a warning");
    reset();
    dQuaternion q = { 1e300, 0, 0, 0 };
    dGeomSetQuaternion(g, q);
    check(warnings == 1 && refusals == 0, "a geom quaternion with a component of 1e300 is accepted with a warning");
    /* dQtoR multiplies two components: 1e60 gives entries of 2e120 (the
     * fuzzer's seed 701371 reached inf through a geom transform's AABB). */
    reset();
    dQuaternion qm = { 0, 1e60, 0, 0 };
    dGeomSetQuaternion(g, qm);
    check(warnings == 1 && refusals == 0, "a geom quaternion with a component of 1e60 (a matrix of 1e120) warns");
    check(dGeomGetRotation(g)[5] == 1 - 2 * 1e60 * 1e60, "and the unnormalised rotation is stored as ODE stores it");
    reset();
    dQuaternion qs = { 0, 1e50, 0, 0 };
    dGeomSetQuaternion(g, qs);
    check(warnings == 0 && refusals == 0, "a geom quaternion with a component of 1e50 (a matrix of 1e100) is silent");
    reset();
    dMatrix3 R = { 1, 0, 0, 0, 0, 1e200, 0, 0, 0, 0, 1, 0 };
    dGeomSetRotation(g, R);
    check(warnings == 1 && dGeomGetRotation(g)[5] == 1e200, "a geom rotation entry of 1e200 is accepted with a warning");
    reset();
    dMatrix3 Rp = { 1, 0, 0, 1e300, 0, 1, 0, 1e300, 0, 0, 1, 1e300 };
    dGeomSetRotation(g, Rp);
    check(warnings == 0 && refusals == 0, "pad entries of a rotation are never read, so never warned about");

    /* A convex's points are the host's array, read by its AABB and colliders
     * (the fuzzer's seed 700781: points at DBL_MAX gave a NaN AABB). */
    static const dReal planes[] = { 1, 0, 0, 1e300, -1, 0, 0, 1e300, 0, 1, 0, 1e300, 0, -1, 0, 1e300, 0, 0, 1, 1e300, 0, 0, -1, 1e300 };
    static dReal points[24];
    static const unsigned polys[] = { 4, 0, 3, 7, 4, 4, 1, 5, 6, 2, 4, 0, 4, 5, 1, 4, 3, 2, 6, 7, 4, 0, 1, 2, 3, 4, 4, 7, 6, 5 };
    static const dReal unit[] = { 1, 1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1, 1, 1, -1, -1, 1, -1, -1, -1, -1, 1, -1, -1 };
    static const dReal unit_planes[] = { 1, 0, 0, 1, -1, 0, 0, 1, 0, 1, 0, 1, 0, -1, 0, 1, 0, 0, 1, 1, 0, 0, -1, 1 };
    for (int i = 0; i < 24; i++) points[i] = unit[i] * 1e300;
    reset();
    dGeomID cv = dCreateConvex(s, planes, 6, points, 8, polys);
    check(cv && warnings == 1 && refusals == 0, "a convex with points at 1e300 is created with a warning");
    reset();
    dGeomSetConvex(cv, unit_planes, 6, unit, 8, polys);
    check(warnings == 0 && refusals == 0, "a unit cube convex is silent");
    reset();
    dGeomSetConvex(cv, planes, 6, points, 8, polys);
    check(warnings == 1 && refusals == 0, "dGeomSetConvex with points at 1e300 warns");
    dSpaceDestroy(s);
    dWorldDestroy(w);
}

/* Steps. */
static void steps(int quick)
{
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w);
    dMass m;
    dMassSetSphereTotal(&m, 1, 0.5);
    dBodySetMass(b, &m);

    /* Issue 10: velocity 1e300 with a step of 1e10 (finite input, inf
     * result): reported by the guard, the body stays finite. */
    reset();
    dBodySetLinearVel(b, 1e300, 0, 0);
    check(warnings == 1, "velocity 1e300 warns at the setter");
    reset();
    if (quick)
        dWorldQuickStep(w, 1e10);
    else
        dWorldStep(w, 1e10);
    check(guards == 1, "velocity 1e300 over a step of 1e10 is reported by the guard");
    check(body_finite(b) && dBodyGetPosition(b)[0] == 0, "the body keeps its last finite state");

    /* A step that carries a body beyond 1e100 without overflowing: one
     * warning for the body, the state as ODE computes it. */
    dBodyEnable(b);
    dBodySetPosition(b, 0, 0, 0);
    dBodySetLinearVel(b, 1e99, 0, 0);
    reset();
    if (quick)
        dWorldQuickStep(w, 1e10);
    else
        dWorldStep(w, 1e10);
    check(warnings == 1 && guards == 0, "a step that carries a body to 1e109 warns once");
    check(strstr(last, "step") != NULL, "the warning is the step's");
    check(dBodyGetPosition(b)[0] == 1e99 * 1e10, "the body is where ODE puts it (position += h * v)");
    reset();
    if (quick)
        dWorldQuickStep(w, 1);
    else
        dWorldStep(w, 1);
    check(warnings == 0 && guards == 0 && body_finite(b), "the next step does not repeat the warning");

    /* An ordinary step is silent. */
    dBodyID c = dBodyCreate(w);
    dBodySetMass(c, &m);
    dBodySetLinearVel(c, 3, 0, 0);
    dBodyDisable(b);
    reset();
    for (int i = 0; i < 10; i++) {
        if (quick)
            dWorldQuickStep(w, 0.01);
        else
            dWorldStep(w, 0.01);
    }
    check(warnings == 0 && guards == 0 && refusals == 0, "ordinary steps are silent");
    dWorldDestroy(w);
}

/* Offset geoms whose body would land at a non-finite position. */
static void offset_geoms(void)
{
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w);
    dGeomID g = dCreateSphere(0, 1);
    dGeomSetBody(g, b);
    reset();
    dGeomSetOffsetPosition(g, DBL_MAX, 0, 0);
    check(warnings == 1 && refusals == 0, "an offset of DBL_MAX is accepted with a warning");
    check(dGeomGetPosition(g)[0] == DBL_MAX, "the geom sits at DBL_MAX");

    /* The body would go to -DBL_MAX - DBL_MAX = -inf (ODE stores that). */
    reset();
    dGeomSetPosition(g, -DBL_MAX, 0, 0);
    check(refusals == 1, "dGeomSetPosition that would put the body at -inf is refused");
    check(body_finite(b) && dBodyGetPosition(b)[0] == 0, "the body stays where it was");
    /* A finite outcome is carried out as ODE does. */
    reset();
    dGeomSetPosition(g, DBL_MAX, 5, 0);
    check(refusals == 0 && dBodyGetPosition(b)[0] == 0 && dBodyGetPosition(b)[1] == 5, "a finite outcome is accepted");

    /* Turning the geom half round about z would put the body at
     * DBL_MAX + DBL_MAX. */
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, M_PI);
    reset();
    dGeomSetRotation(g, R);
    check(refusals == 1, "dGeomSetRotation that would put the body at inf is refused");
    check(body_finite(b) && dBodyGetPosition(b)[0] == 0 && dBodyGetRotation(b)[0] == 1, "the body keeps its place and rotation");
    dQuaternion q;
    dQFromAxisAndAngle(q, 0, 0, 1, M_PI);
    reset();
    dGeomSetQuaternion(g, q);
    check(refusals == 1, "dGeomSetQuaternion that would put the body at inf is refused");
    check(body_finite(b) && dBodyGetPosition(b)[0] == 0 && dBodyGetQuaternion(b)[0] == 1, "the body keeps its place and orientation");
    dGeomDestroy(g);
    dWorldDestroy(w);
}

/* A heightfield built with a huge scale (fuzz seed 730142: -DBL_MAX, then
 * bounds of -5..-4) gets an AABB of inf and NaN, in ODE as in ours. The
 * build is accepted as ODE accepts it, with a warning like every other
 * huge input; so are huge width, depth, offset and thickness. */
static dReal hf_height(void *data, int x, int z) { (void)data; return 0.5 * x - 0.25 * z; }
static void heightfield_build_params(void)
{
    static const unsigned char bytes[6] = { 1, 2, 3, 4, 5, 6 };
    dHeightfieldDataID h = dGeomHeightfieldDataCreate();
    reset();
    dGeomHeightfieldDataBuildCallback(h, 0, hf_height, 3.85, 1.05, 2, 3, -DBL_MAX, 0, 1, 0);
    check(warnings == 1 && refusals == 0, "a heightfield scale of -DBL_MAX is accepted with a warning");
    reset();
    dGeomHeightfieldDataBuildByte(h, bytes, 0, 1e200, 1.0, 2, 3, 1, 0, 1, 0);
    check(warnings == 1 && refusals == 0, "a heightfield width of 1e200 is accepted with a warning");
    reset();
    dGeomHeightfieldDataBuildByte(h, bytes, 0, 1.0, 1.0, 2, 3, 1, -1e150, 1, 0);
    check(warnings == 1 && refusals == 0, "a heightfield offset of -1e150 is accepted with a warning");
    reset();
    dGeomHeightfieldDataBuildByte(h, bytes, 0, 1.0, 1.0, 2, 3, 1, 0, 1e120, 0);
    check(warnings == 1 && refusals == 0, "a heightfield thickness of 1e120 is accepted with a warning");
    reset();
    dGeomHeightfieldDataBuildByte(h, bytes, 0, 1.0, 1.0, 2, 3, 1e100, -1e100, 1e100, 0);
    check(warnings == 0 && refusals == 0, "values of exactly 1e100 pass without a word");
    dGeomHeightfieldDataDestroy(h);
}

/* Anchors are stored in the body's frame, Rᵀ(p − body position): with the
 * body at DBL_MAX that is -inf, which ODE keeps and which becomes NaN once
 * the joint is attached to other bodies (the fuzzer's seed 700138, a
 * transmission). Refused, nothing changed; a finite but huge stored
 * anchor warns. */
/* A body at (DBL_MAX, DBL_MAX, 0) turned by 45 degrees about z, where a
 * point's form in its frame overflows, and two ordinary bodies. */
static void far_scene(dWorldID w, dBodyID *far, dBodyID *near, dBodyID *other)
{
    *far = dBodyCreate(w);
    *near = dBodyCreate(w);
    *other = dBodyCreate(w);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, M_PI / 4);
    dBodySetRotation(*far, R);
    dBodySetPosition(*far, DBL_MAX, DBL_MAX, 0);
    dBodySetPosition(*near, 1, 0, 0);
    dBodySetPosition(*other, 0, 0, 1);
}

static void far_body_anchors(void)
{
    dWorldID w = dWorldCreate();
    dBodyID far, near, other;
    far_scene(w, &far, &near, &other);

    dJointID t = dJointCreateTransmission(w, 0);
    dJointAttach(t, near, far);
    dJointSetTransmissionAnchor2(t, 1, 2, 3);
    reset();
    dJointSetTransmissionAnchor2(t, -2, -2, 1);
    check(refusals == 1, "a transmission anchor 2 that is -inf in the far body's frame is refused");
    dJointAttach(t, near, other);
    dVector3 a;
    dJointGetTransmissionAnchor2(t, a);
    check(finite3(a), "after attaching other bodies, anchor 2 is finite");

    static const char *names[] = { "ball", "hinge", "hinge2", "universal", "PR", "PU", "piston" };
    dJointID js[7] = { dJointCreateBall(w, 0), dJointCreateHinge(w, 0), dJointCreateHinge2(w, 0), dJointCreateUniversal(w, 0),
                       dJointCreatePR(w, 0), dJointCreatePU(w, 0), dJointCreatePiston(w, 0) };
    for (int k = 0; k < 7; k++) {
        char what[160];
        dJointAttach(js[k], near, far);
        reset();
        switch (k) {
        case 0: dJointSetBallAnchor(js[k], -2, -2, 1); break;
        case 1: dJointSetHingeAnchor(js[k], -2, -2, 1); break;
        case 2: dJointSetHinge2Anchor(js[k], -2, -2, 1); break;
        case 3: dJointSetUniversalAnchor(js[k], -2, -2, 1); break;
        case 4: dJointSetPRAnchor(js[k], -2, -2, 1); break;
        case 5: dJointSetPUAnchor(js[k], -2, -2, 1); break;
        case 6: dJointSetPistonAnchor(js[k], -2, -2, 1); break;
        }
        snprintf(what, sizeof what, "a %s anchor that is -inf in the far body's frame is refused", names[k]);
        check(refusals == 1, what);
    }

    /* 1e300 away: the stored anchor is about -1e300, finite: accepted, warned. */
    dBodySetPosition(far, 0, 1e300, 0);
    dJointID b = dJointCreateBall(w, 0);
    dJointAttach(b, near, far);
    reset();
    dJointSetBallAnchor(b, 1, 0, 0);
    check(refusals == 0 && warnings == 1, "a ball anchor 1e300 away from its body is accepted with a warning");
    dJointGetBallAnchor(b, a);
    check(a[0] == 1 && a[1] == 0 && a[2] == 0, "and reads back where it was set");
    reset();
    dJointID h = dJointCreateHinge(w, 0);
    dJointAttach(h, near, other);
    dJointSetHingeAnchor(h, 1, 2, 3);
    check(refusals == 0 && warnings == 0, "an ordinary anchor is silent");
    dWorldDestroy(w);
}

/* Fuzz seed 12567: a joint attached with its first body near DBL_MAX takes
 * its anchor in that body's frame, which overflows (ODE keeps the inf);
 * attached later to ordinary bodies, its anchor getters gave NaN without a
 * word. dJointAttach attaches as ODE does and warns (message channel,
 * number 2) whenever the values it keeps in the bodies' frames come out
 * non-finite: at the attach that overflows, and at the later one that
 * carries the overflow on. An ordinary re-attach is silent. */
static void far_body_attach(void)
{
    dWorldID w = dWorldCreate();
    dBodyID far, near, other;
    far_scene(w, &far, &near, &other);
    static const char *names[] = { "ball", "hinge", "universal", "PU", "piston" };
    dJointID js[5] = { dJointCreateBall(w, 0), dJointCreateHinge(w, 0), dJointCreateUniversal(w, 0), dJointCreatePU(w, 0),
                       dJointCreatePiston(w, 0) };
    for (int k = 0; k < 5; k++) {
        char what[200];
        /* Stored as (far, none): the anchor, a world point at the origin
         * so far, is taken in far's frame: -DBL_MAX * sqrt(2) = -inf. */
        reset();
        dJointAttach(js[k], 0, far);
        snprintf(what, sizeof what, "a %s attached to a body at DBL_MAX is attached and warned about", names[k]);
        check(dJointGetBody(js[k], 1) == far && refusals == 0 && warnings == 1, what);
        reset();
        dJointAttach(js[k], near, other);
        dVector3 a1 = { 0, 0, 0 }, a2 = { 0, 0, 0 };
        switch (k) {
        case 0: dJointGetBallAnchor(js[k], a1); dJointGetBallAnchor2(js[k], a2); break;
        case 1: dJointGetHingeAnchor(js[k], a1); dJointGetHingeAnchor2(js[k], a2); break;
        case 2: dJointGetUniversalAnchor(js[k], a1); dJointGetUniversalAnchor2(js[k], a2); break;
        case 3: dJointGetPUAnchor(js[k], a1); break;
        case 4: dJointGetPistonAnchor(js[k], a1); dJointGetPistonAnchor2(js[k], a2); break;
        }
        /* The PU takes its anchor from body 1's position there (as ODE
         * does), which drops the overflow; the others carry it on. */
        int carried = !finite3(a1) || !finite3(a2);
        snprintf(what, sizeof what, "the same %s re-attached to ordinary bodies is attached, %s", names[k],
                 k == 3 ? "with finite anchors, silently" : "with the overflow carried on (NaN anchors, as ODE), and warned about");
        check(dJointGetBody(js[k], 0) == near && refusals == 0 && carried == (k != 3) && warnings == carried, what);
    }
    dJointID h = dJointCreateHinge(w, 0);
    dJointAttach(h, near, other);
    dJointSetHingeAnchor(h, 1, 2, 3);
    reset();
    dJointAttach(h, other, near);
    check(refusals == 0 && warnings == 0, "an ordinary re-attach is silent");

    /* Fuzz seed 41814: a transmission keeps its wheel centres in its
     * bodies' frames across dJointAttach (as ODE does); one set near
     * -DBL_MAX on both axes overflows once a new body turns it, and the
     * getter gave -inf without a word. Attached as ODE does, and warned. */
    dJointID t = dJointCreateTransmission(w, 0);
    dJointAttach(t, near, other);
    reset();
    dJointSetTransmissionAnchor2(t, -DBL_MAX, -DBL_MAX, 0);
    check(refusals == 0 && warnings == 1, "a transmission anchor near -DBL_MAX is kept as ODE keeps it, and warned about");
    dQuaternion q = { 0.9238795325112867, 0, 0, 0.3826834323650898 }; /* 45 degrees about z */
    dBodySetQuaternion(near, q);
    reset();
    dJointAttach(t, other, near);
    check(dJointGetBody(t, 0) == other && refusals == 0 && warnings == 1,
          "re-attached with that anchor in the new body's frame: attached as ODE does, and warned about");
    reset();
    dJointSetTransmissionAnchor2(t, 1, 2, 3);
    dJointAttach(t, near, other);
    check(refusals == 0 && warnings == 0, "a transmission with ordinary anchors re-attaches silently");
    dWorldDestroy(w);
}

/* Fuzz seed 18529: ODE keeps row 1 of a set rotation as given when it
 * needed the Gram-Schmidt correction, so a body can hold a rotation entry
 * of -1e300. dBodySetRotation now warns about it (as dGeomSetRotation
 * did). A slider axis set then is stored in that frame as about -8e299;
 * re-attached to an ordinary body it gave NaN rates without a word. The
 * attach now warns whenever the joint carries an anchor, offset or axis
 * beyond 1e100 in its bodies' frames. */
static void huge_rotation_entry(void)
{
    dWorldID w = dWorldCreate();
    dBodyID odd = dBodyCreate(w), plain = dBodyCreate(w);
    dMatrix3 R = { 1, 0, 0, 0, -1e300, 1, 0, 0, 0, 0, 1, 0 };
    reset();
    dBodySetRotation(odd, R);
    check(refusals == 0 && warnings == 1 && dBodyGetRotation(odd)[4] == -1e300,
          "dBodySetRotation keeps a huge row-1 entry as ODE does, and warns");
    dJointID s = dJointCreateSlider(w, 0);
    dJointAttach(s, odd, 0);
    dJointSetSliderAxis(s, 0.6, 0.8, 0);
    reset();
    dJointAttach(s, plain, 0);
    check(refusals == 0 && warnings == 1 && dJointGetBody(s, 0) == plain,
          "a slider whose axis was taken in that body's frame is re-attached and warned about");
    dJointID h = dJointCreateHinge(w, 0);
    dJointAttach(h, plain, 0);
    dJointSetHingeAxis(h, 0, 0, 1);
    reset();
    dJointAttach(h, plain, 0);
    check(refusals == 0 && warnings == 0, "an ordinary hinge re-attached is silent");

    /* Fuzz seed 22359: a geom offset given in world terms is stored in the
     * body's frame, Rᵀ(p − body position): about -2e300 here, and the
     * geom's position -inf, in ODE as in ours. Carried out and warned. */
    dGeomID g = dCreateSphere(0, 0.5), q = dCreateSphere(0, 0.5);
    dGeomSetBody(g, odd);
    dGeomSetBody(q, plain);
    reset();
    dGeomSetOffsetWorldPosition(g, 1, 2, 3);
    check(refusals == 0 && warnings == 1, "a world offset stored as a huge body-frame offset is carried out and warned about");
    reset();
    dGeomSetOffsetWorldPosition(q, 1, 2, 3);
    check(refusals == 0 && warnings == 0, "an ordinary world offset is silent");
    dGeomDestroy(g);
    dGeomDestroy(q);
    dWorldDestroy(w);
}

/* Issue 10 §2: a double hinge whose axis was never set stays finite. */
static void dhinge_unset(int quick)
{
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    dBodyID a = dBodyCreate(w), b = dBodyCreate(w);
    dMass m;
    dMassSetBoxTotal(&m, 1, 0.2, 0.2, 0.2);
    dBodySetMass(a, &m);
    dBodySetMass(b, &m);
    dBodySetPosition(a, 0, 0, 1);
    dBodySetPosition(b, 1, 0, 1);
    dJointID j = dJointCreateDHinge(w, 0);
    dJointAttach(j, a, b);
    reset();
    for (int i = 0; i < 200; i++) {
        if (quick)
            dWorldQuickStep(w, 0.01);
        else
            dWorldStep(w, 0.01);
    }
    check(body_finite(a) && body_finite(b), "a double hinge with no axis stays finite");
    check(guards == 0, "and needs no guard");
    dWorldDestroy(w);
}

int main(void)
{
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    dSetMessageHandler(on_message);
    setters();
    steps(0);
    steps(1);
    offset_geoms();
    far_body_anchors();
    far_body_attach();
    huge_rotation_entry();
    heightfield_build_params();
    dhinge_unset(0);
    dhinge_unset(1);
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
