/* Input that used to be accepted without a word (issue 10, section 3).
 * Each case does one of three things, decided from ODE 0.16.2's source:
 *  - ODE asserts, crashes or produces NaN: the call is refused and
 *    reported once on the debug channel (d_ERR_UASSERT), naming the
 *    function, and changes nothing;
 *  - ODE proceeds with a degenerate or meaningless result: the call does
 *    exactly what ODE does and is reported once on the message channel
 *    (d_ERR_UASSERT), naming the function (a negative QuickStep iteration
 *    count is stored as ODE does, but where ODE's next QuickStep would
 *    hang, ours makes no iteration);
 *  - ODE proceeds with a meaningful result: the call does what ODE does and
 *    stays silent.
 * The results of the cases ODE runs are compared with Debian's by
 * diff_error_silent_cases.c. Runs against our library; prints "PASS <n>". */
#include <ode/ode.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <math.h>

static char last[512];
static int debug_reports, messages, last_msg_num;
static void on_debug(int num, const char *msg, va_list ap)
{
    (void)num;
    vsnprintf(last, sizeof last, msg, ap);
    debug_reports++;
}
static void on_message(int num, const char *msg, va_list ap)
{
    last_msg_num = num;
    vsnprintf(last, sizeof last, msg, ap);
    messages++;
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

/* Refused: one debug report naming fn. */
#define REFUSED(fn, call)                                                                      \
    do {                                                                                       \
        int d0 = debug_reports, m0 = messages;                                                 \
        last[0] = 0;                                                                           \
        call;                                                                                  \
        check(debug_reports == d0 + 1 && messages == m0, #call " refused with one report");    \
        check(strstr(last, fn) != NULL, #call " report names " fn);                            \
    } while (0)

/* Carried out as ODE, with one message naming fn. */
#define WARNED(fn, call)                                                                       \
    do {                                                                                       \
        int d0 = debug_reports, m0 = messages;                                                 \
        last[0] = 0;                                                                           \
        call;                                                                                  \
        check(debug_reports == d0 && messages == m0 + 1, #call " carried out with one message"); \
        check(last_msg_num == d_ERR_UASSERT, #call " message number d_ERR_UASSERT");           \
        check(strstr(last, fn) != NULL, #call " message names " fn);                           \
    } while (0)

#define SILENT(call)                                                                           \
    do {                                                                                       \
        int d0 = debug_reports, m0 = messages;                                                 \
        call;                                                                                  \
        check(debug_reports == d0 && messages == m0, #call " silent");                         \
    } while (0)

static void world_and_misc(void)
{
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w), b2 = dBodyCreate(w);
    dJointID j, env;
    dMass m;
    unsigned long seed;
    int r;

    /* QuickStep iterations: stored as in ODE, whose QuickStep loops over
     * the count as unsigned, so -5 is 4294967291 iterations per island and
     * step (a hang); ours makes none, and says so. */
    dWorldSetQuickStepNumIterations(w, 20);
    WARNED("dWorldSetQuickStepNumIterations", dWorldSetQuickStepNumIterations(w, -5));
    check(dWorldGetQuickStepNumIterations(w) == -5, "negative iteration count stored as ODE");
    SILENT(dWorldSetQuickStepNumIterations(w, 0));
    check(dWorldGetQuickStepNumIterations(w) == 0, "zero iterations accepted");

    /* Auto-disable steps: a negative count acts as 0 in ODE. */
    SILENT(dWorldSetAutoDisableSteps(w, -5));
    check(dWorldGetAutoDisableSteps(w) == -5, "negative auto-disable steps stored");

    /* dRandInt without a range: ODE draws anyway and returns 0 (or, for a
     * negative n, a number from the unsigned range). */
    dRandSetSeed(5);
    dRand();
    seed = dRandGetSeed();
    dRandSetSeed(5);
    WARNED("dRandInt", r = dRandInt(0));
    check(r == 0, "dRandInt(0) returns 0");
    check(dRandGetSeed() == seed, "dRandInt(0) draws once");
    WARNED("dRandInt", dRandInt(-5));
    SILENT(r = dRandInt(5));
    check(r >= 0 && r < 5, "dRandInt(5) in range");

    /* A zero-length joint search from the environment side: ODE swaps. */
    env = dJointCreateBall(w, 0);
    dJointAttach(env, b, 0);
    j = dJointCreateHinge(w, 0);
    dJointAttach(j, b, b2);
    SILENT(check(dConnectingJoint(0, b) == env, "dConnectingJoint(NULL, b) finds b's joint to the environment"));
    REFUSED("dConnectingJoint", check(dConnectingJoint(0, 0) == 0, "both NULL reads NULL"));

    /* Unknown joint types exclude nothing, any nonzero mode is "on". */
    SILENT(check(dAreConnectedExcluding(b, b2, 99) == 1, "unknown type excludes nothing"));
    SILENT(check(dAreConnectedExcluding(b, b2, -1) == 1, "negative type excludes nothing"));
    SILENT(check(dAreConnectedExcluding(b, b2, dJointTypeHinge) == 0, "the hinge is excluded"));
    SILENT(dBodySetFiniteRotationMode(b, 7));
    check(dBodyGetFiniteRotationMode(b) == 1, "mode 7 is on");

    /* Negative densities give negative masses, as in ODE (used to hollow a
     * mass out with dMassAdd); ODE's dMassCheck message is the report. */
    WARNED("dMassCheck", dMassSetSphere(&m, -1, 1));
    check(m.mass < 0, "negative density gives a negative mass");
    WARNED("dMassCheck", dMassSetBox(&m, -2, 1, 1, 1));
    SILENT(dMassSetSphere(&m, 1, 1));

    /* Finite forces whose sum or moment overflows: ODE stores inf in the
     * accumulators and the next step makes the body NaN. Refused. */
    {
        const dReal *f;
        dBodySetPosition(b, 0, 0, 0);
        /* A force beyond 1e100 is added as ODE adds it, with a warning
         * (README, "Huge finite values"). */
        WARNED("dBodyAddForce", dBodyAddForce(b, 1e308, 0, 0));
        REFUSED("dBodyAddForce", dBodyAddForce(b, 1e308, 0, 0));
        REFUSED("dBodyAddForceAtPos", dBodyAddForceAtPos(b, 0, 1e300, 0, 1e300, 0, 0));
        WARNED("dBodyAddRelTorque", dBodyAddRelTorque(b, 1e308, 0, 0));
        REFUSED("dBodyAddRelTorque", dBodyAddRelTorque(b, 1e308, 0, 0));
        f = dBodyGetForce(b);
        check(f[0] == 1e308 && f[1] == 0 && f[2] == 0, "refused additions leave the force as it was");
        f = dBodyGetTorque(b);
        check(f[0] == 1e308 && f[1] == 0 && f[2] == 0, "refused additions leave the torque as it was");
        dBodySetForce(b, 0, 0, 0);
        dBodySetTorque(b, 0, 0, 0);
    }

    /* The same through a joint's own force and torque calls (found by the
     * fuzzer, seed 32936: a piston force times the lever arm of its anchor
     * made a torque infinite without a report). Refused as a whole: the
     * forces and torques of both bodies stay as they were. */
    {
        dJointID pj = dJointCreatePiston(w, 0), hj = dJointCreateHinge(w, 0);
        const dReal *f;
        dBodySetPosition(b, 0, 0, 0);
        dBodySetPosition(b2, 1, 0, 0);
        dJointAttach(pj, b, b2);
        dJointSetPistonAnchor(pj, 1e6, 1e6, 0);
        dJointSetPistonAxis(pj, 0, 0, 1);
        /* 1e303 along z at (1e6, 1e6, 0) from body 1: a moment of 1e309. */
        REFUSED("dJointAddPistonForce", dJointAddPistonForce(pj, 1e303));
        f = dBodyGetForce(b);
        check(f[0] == 0 && f[1] == 0 && f[2] == 0, "refused piston force leaves body 1's force as it was");
        f = dBodyGetTorque(b);
        check(f[0] == 0 && f[1] == 0 && f[2] == 0, "and its torque");
        f = dBodyGetForce(b2);
        check(f[0] == 0 && f[1] == 0 && f[2] == 0, "and body 2's force");
        SILENT(dJointAddPistonForce(pj, 1e300));
        f = dBodyGetForce(b);
        check(f[2] == 1e300, "a piston force whose moment stays finite is added");
        dBodySetForce(b, 0, 0, 0);
        dBodySetForce(b2, 0, 0, 0);
        dBodySetTorque(b, 0, 0, 0);
        dBodySetTorque(b2, 0, 0, 0);
        dJointDestroy(pj);
        dJointAttach(hj, b, b2);
        dJointSetHingeAxis(hj, 0, 0, 1);
        SILENT(dJointAddHingeTorque(hj, 1e308));
        REFUSED("dJointAddHingeTorque", dJointAddHingeTorque(hj, 1e308));
        f = dBodyGetTorque(b);
        check(f[2] == 1e308, "a refused hinge torque leaves body 1's torque as it was");
        f = dBodyGetTorque(b2);
        check(f[2] == -1e308, "and body 2's");
        dBodySetTorque(b, 0, 0, 0);
        dBodySetTorque(b2, 0, 0, 0);
        dJointDestroy(hj);
    }

    /* Double ball anchors whose distance overflows: stored as inf by ODE. */
    {
        dJointID db = dJointCreateDBall(w, 0);
        dVector3 a;
        dJointAttach(db, b, b2);
        SILENT(dJointSetDBallAnchor1(db, 1, 0, 0));
        SILENT(dJointSetDBallAnchor2(db, -1, 0, 0));
        REFUSED("dJointSetDBallAnchor2", dJointSetDBallAnchor2(db, -1e300, 1e300, 0));
        dJointGetDBallAnchor2(db, a);
        check(a[0] == -1 && a[1] == 0 && a[2] == 0, "refused anchor leaves the anchor as it was");
        check(dJointGetDBallDistance(db) == 2, "and the distance");
        dJointDestroy(db);
        /* Bodies 2e300 apart: the distance overflows on attach. */
        db = dJointCreateDHinge(w, 0);
        dBodySetPosition(b, 1e300, 0, 0);
        dBodySetPosition(b2, -1e300, 0, 0);
        REFUSED("dJointAttach", dJointAttach(db, b, b2));
        check(dJointGetBody(db, 0) == 0 && dJointGetBody(db, 1) == 0, "refused attach leaves the joint detached");
        dBodySetPosition(b, 1e100, 0, 0);
        SILENT(dJointAttach(db, b, 0));
        check(dJointGetDHingeDistance(db) == 1e100, "a far body within range: its distance");
        dBodySetPosition(b, 0, 0, 0);
        dBodySetPosition(b2, 0, 0, 0);
        dJointDestroy(db);
    }
    dWorldDestroy(w);
}

static void geoms(void)
{
    dVector3 c = {0, 0, 0}, e = {10, 10, 10}, out;
    dVector4 p;
    dSpaceID s;
    dGeomID ray, plane;
    dHeightfieldDataID hd;
    static dReal heights[16];

    SILENT(s = dQuadTreeSpaceCreate(0, c, e, 0));
    check(s != 0, "depth 0 gives a quadtree of one block, as ODE");
    if (s)
        dSpaceDestroy(s);
    REFUSED("dQuadTreeSpaceCreate", s = dQuadTreeSpaceCreate(0, c, e, -1));
    check(s == 0, "negative depth refused (ODE overruns its block array)");

    ray = dCreateRay(0, 1);
    WARNED("dGeomRaySetLength", dGeomRaySetLength(ray, -1));
    check(dGeomRayGetLength(ray) == -1, "negative length stored as ODE");
    SILENT(dGeomRaySetLength(ray, 0));
    SILENT(dGeomRaySetLength(ray, 2));
    /* Infinite: stored as ODE does (hit positions stay right), but its AABB
     * and contact depths are infinite. */
    WARNED("dGeomRaySetLength", dGeomRaySetLength(ray, INFINITY));
    check(isinf(dGeomRayGetLength(ray)), "infinite length stored as ODE");
    dGeomDestroy(ray);
    WARNED("dCreateRay", ray = dCreateRay(0, INFINITY));
    check(ray != 0, "a ray of infinite length is created");
    {
        dReal box[6];
        dGeomSetPosition(ray, 1, 2, 3); /* pointing along +z */
        dGeomGetAABB(ray, box);
        check(box[0] == 1 && box[1] == 1 && box[2] == 2 && box[3] == 2 && box[4] == 3 && isinf(box[5]),
              "its AABB: infinite along its direction only (not NaN)");
    }
    dGeomDestroy(ray);

    hd = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildDouble(hd, heights, 0, 4, 4, 4, 4, 1, 0, 1, 0);
    WARNED("dGeomHeightfieldDataSetBounds", dGeomHeightfieldDataSetBounds(hd, 5, -5));
    SILENT(dGeomHeightfieldDataSetBounds(hd, -5, 5));
    dGeomHeightfieldDataBuildDouble(hd, heights, 0, 4, 4, 4, 4, -1, 0, 1, 0);
    SILENT(dGeomHeightfieldDataSetBounds(hd, 5, -5)); /* a negative scale turns them around */
    /* Infinite bounds (ODE's defaults) are fine on built data; on data not
     * built yet (scale 0) ODE's scaled bounds are inf * 0 = NaN: refused. */
    {
        dHeightfieldDataID fresh = dGeomHeightfieldDataCreate();
        dGeomHeightfieldDataBuildDouble(fresh, heights, 0, 4, 4, 4, 4, 1, 0, 1, 0);
        SILENT(dGeomHeightfieldDataSetBounds(fresh, -INFINITY, INFINITY));
        dGeomHeightfieldDataDestroy(fresh);
        fresh = dGeomHeightfieldDataCreate();
        REFUSED("dGeomHeightfieldDataSetBounds", dGeomHeightfieldDataSetBounds(fresh, INFINITY, -1e-9));
        dGeomHeightfieldDataDestroy(fresh);
    }
    /* A scaled minimum of +inf or maximum of -inf (ODE's AABB handles only
     * -inf and +inf) makes a placeable heightfield's AABB NaN in ODE
     * (0 * inf): refused, and the bounds stay as they were (fuzz seed 9244). */
    {
        dHeightfieldDataID hb = dGeomHeightfieldDataCreate();
        dGeomID placed;
        dSpaceID sp = dSimpleSpaceCreate(0);
        dReal box[6];
        int k;
        dGeomHeightfieldDataBuildDouble(hb, heights, 0, 4, 4, 4, 4, 1, 0, 1, 0);
        SILENT(dGeomHeightfieldDataSetBounds(hb, -5, 5));
        REFUSED("dGeomHeightfieldDataSetBounds", dGeomHeightfieldDataSetBounds(hb, INFINITY, 5));
        REFUSED("dGeomHeightfieldDataSetBounds", dGeomHeightfieldDataSetBounds(hb, -5, -INFINITY));
        placed = dCreateHeightfield(0, hb, 1);
        dSpaceAdd(sp, placed);
        dGeomGetAABB(placed, box);
        for (k = 0; k < 6; k++) check(!isnan(box[k]), "placeable heightfield AABB not NaN after refused bounds");
        check(box[2] == -6 && box[3] == 5, "refused bounds left the old ones (-5 - thickness, 5)");
        /* A finite bound overflowing with the scale. */
        dGeomHeightfieldDataBuildDouble(hb, heights, 0, 4, 4, 4, 4, 4, 0, 1, 0);
        REFUSED("dGeomHeightfieldDataSetBounds", dGeomHeightfieldDataSetBounds(hb, 1e308, 1e308));
        /* A negative scale turns ODE's default infinities around. */
        dGeomHeightfieldDataBuildDouble(hb, heights, 0, 4, 4, 4, 4, -1, 0, 1, 0);
        REFUSED("dGeomHeightfieldDataSetBounds", dGeomHeightfieldDataSetBounds(hb, -INFINITY, INFINITY));
        dGeomDestroy(placed);
        dSpaceDestroy(sp);
        dGeomHeightfieldDataDestroy(hb);
    }
    /* NaN samples: ODE stores them and every contact near them is NaN. */
    {
        dGeomID field = dCreateHeightfield(0, hd, 1), ball = dCreateSphere(0, 0.5);
        dContactGeom cg[4];
        float fl[16] = {0};
        int n0;
        dGeomSetPosition(ball, 0.1, 0.2, 0.1);
        n0 = dCollide(field, ball, 4, cg, sizeof cg[0]);
        heights[5] = NAN;
        REFUSED("dGeomHeightfieldDataBuildDouble", dGeomHeightfieldDataBuildDouble(hd, heights, 1, 4, 4, 4, 4, 1, 0, 1, 0));
        check(dCollide(field, ball, 4, cg, sizeof cg[0]) == n0, "refused build leaves the field as it was");
        fl[3] = INFINITY;
        REFUSED("dGeomHeightfieldDataBuildSingle", dGeomHeightfieldDataBuildSingle(hd, fl, 1, 4, 4, 4, 4, 1, 0, 1, 0));
        heights[5] = 0;
        dGeomDestroy(field);
        dGeomDestroy(ball);
    }
    dGeomHeightfieldDataDestroy(hd);

    /* LMotor parameters name axis groups 0..2; ODE clamps a larger group
     * to 2, so 0x300 sets the third axis's low stop: done, and reported. */
    {
        dWorldID w = dWorldCreate();
        dJointID lm = dJointCreateLMotor(w, 0);
        dJointSetLMotorNumAxes(lm, 3);
        WARNED("dJointSetLMotorParam", dJointSetLMotorParam(lm, 0x300 + dParamLoStop, -0.25));
        check(dJointGetLMotorParam(lm, dParamLoStop3) == -0.25, "group 3 clamped to the third axis, as ODE");
        SILENT(dJointSetLMotorParam(lm, dParamLoStop3, -0.5));
        dWorldDestroy(w);
    }

    /* A sphere whose centre is at a cylinder's centre: ODE's normal is 0/0
     * (NaN, bit-identical in Debian's ODE). The contact is dropped with one
     * message (number 1) instead of handing out NaN. */
    {
        dGeomID cyl = dCreateCylinder(0, 1, 2), ball = dCreateSphere(0, 0.5);
        dContactGeom cg[4];
        int n, i, d0 = debug_reports, m0 = messages;
        /* centre of the sphere at the cylinder's centre */
        n = dCollide(cyl, ball, 4, cg, sizeof cg[0]);
        for (i = 0; i < n; i++)
            check(isfinite(cg[i].normal[0] + cg[i].normal[1] + cg[i].normal[2] + cg[i].depth), "finite contact");
        check(n == 0, "the NaN contact is dropped");
        check(messages == m0 + 1 && debug_reports == d0, "one message");
        check(last_msg_num == d_ERR_IASSERT, "message number 1");
        dGeomSetPosition(ball, 0.2, 0, 0.3);
        n = dCollide(cyl, ball, 4, cg, sizeof cg[0]);
        check(n == 1 && messages == m0 + 1, "off the axis: ODE's contact, no message");
        dGeomDestroy(cyl);
        dGeomDestroy(ball);
    }

    WARNED("dCreatePlane", plane = dCreatePlane(0, 0, 0, 0, 0));
    check(plane != 0, "zero normal: the plane is created");
    dGeomPlaneGetParams(plane, p);
    check(p[0] == 1 && p[1] == 0 && p[2] == 0 && p[3] == 0, "ODE's fallback plane x = 0");
    WARNED("dGeomPlaneSetParams", dGeomPlaneSetParams(plane, 0, 0, 0, 3));
    WARNED("dGeomPlaneSetParams", dGeomPlaneSetParams(plane, 1e200, 0, 0, 3));
    SILENT(dGeomPlaneSetParams(plane, 0, 0, 2, 3));
    dGeomPlaneGetParams(plane, p);
    check(p[2] == 1 && p[3] == 1.5, "a normal that normalises");
    /* Not placeable: the point is returned as given, as ODE does. */
    SILENT(dGeomGetRelPointPos(plane, 1, 2, 3, out));
    check(out[0] == 1 && out[1] == 2 && out[2] == 3, "relative point of a plane");
    dGeomDestroy(plane);
}

static void trimeshes(void)
{
    static double v[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 0}};
    static float vf[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    static dTriIndex idx[6] = {0, 1, 2, 1, 3, 2};
    dTriMeshDataID d = dGeomTriMeshDataCreate(), df = dGeomTriMeshDataCreate();
    dGeomID g;
    dMatrix4 t;
    const dReal *lt;
    dVector3 out;
    int i;

    dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof(double), 4, idx, 3, 3 * sizeof(dTriIndex));
    g = dCreateTriMesh(0, d, 0, 0, 0);
    check(dGeomTriMeshGetTriangleCount(g) == 1, "one triangle built");

    v[1][1] = NAN;
    REFUSED("dGeomTriMeshDataBuildDouble", dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof(double), 4, idx, 6, 3 * sizeof(dTriIndex)));
    check(dGeomTriMeshGetTriangleCount(g) == 1, "refused build keeps the old mesh");
    v[1][1] = 0;
    v[3][2] = INFINITY;
    REFUSED("dGeomTriMeshDataBuildDouble", dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof(double), 4, idx, 6, 3 * sizeof(dTriIndex)));
    v[3][2] = 0;
    v[4][0] = NAN; /* no triangle uses vertex 4: ODE never reads it */
    SILENT(dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof(double), 5, idx, 6, 3 * sizeof(dTriIndex)));
    check(dGeomTriMeshGetTriangleCount(g) == 2, "NaN in an unused vertex: built");

    vf[2][0] = NAN;
    REFUSED("dGeomTriMeshDataBuildSingle", dGeomTriMeshDataBuildSingle(df, vf, 3 * sizeof(float), 4, idx, 6, 3 * sizeof(dTriIndex)));
    vf[2][0] = 0;
    SILENT(dGeomTriMeshDataBuildSingle(df, vf, 3 * sizeof(float), 4, idx, 6, 3 * sizeof(dTriIndex)));

    for (i = 0; i < 16; i++)
        t[i] = i;
    SILENT(dGeomTriMeshSetLastTransform(g, t));
    t[5] = NAN;
    REFUSED("dGeomTriMeshSetLastTransform", dGeomTriMeshSetLastTransform(g, t));
    lt = dGeomTriMeshGetLastTransform(g);
    check(lt[5] == 5, "refused last transform keeps the old one");

    out[0] = out[1] = out[2] = 7;
    REFUSED("dGeomTriMeshGetPoint", dGeomTriMeshGetPoint(g, 0, NAN, 0.5, out));
    REFUSED("dGeomTriMeshGetPoint", dGeomTriMeshGetPoint(g, 0, 0.5, INFINITY, out));
    check(out[0] == 7 && out[1] == 7 && out[2] == 7, "refused point leaves the output alone");
    SILENT(dGeomTriMeshGetPoint(g, 0, 0.25, 0.5, out));
    check(out[0] == 0.25 && out[1] == 0.5 && out[2] == 0, "point of a triangle");

    dGeomDestroy(g);
    dGeomTriMeshDataDestroy(d);
    dGeomTriMeshDataDestroy(df);
}

int main(void)
{
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    dSetMessageHandler(on_message);
    world_and_misc();
    geoms();
    trimeshes();
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d checks\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
