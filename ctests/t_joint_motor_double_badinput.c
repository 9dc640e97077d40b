/* Bad input to the angular motor, linear motor, plane-2D, double ball,
 * double hinge and transmission functions: each bad call must be reported
 * through the debug handler naming the function, return the neutral value
 * and change nothing observable. Calls ODE accepts (unknown parameter
 * numbers, clamped LMotor groups, double ball functions on a double hinge)
 * must stay silent. Runs against OUR library only (ODE aborts or crashes on
 * most of these). Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <math.h>

static char last_msg[1024];
static int reports;
static void on_debug(int num, const char *msg, va_list ap)
{
    (void)num;
    vsnprintf(last_msg, sizeof last_msg, msg, ap);
    reports++;
}

static int checks, failures;
static void check(int ok, const char *what)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s (last report: %s)\n", what, last_msg);
    }
}

#define BAD(fn, call)                                                              \
    do {                                                                           \
        int r0 = reports;                                                          \
        last_msg[0] = 0;                                                           \
        call;                                                                      \
        check(reports == r0 + 1, #call " reported once");                          \
        check(strstr(last_msg, fn) != NULL, #call " report names " fn);            \
    } while (0)

#define QUIET(call)                                                                \
    do {                                                                           \
        int r0 = reports;                                                          \
        call;                                                                      \
        check(reports == r0, #call " not reported");                               \
    } while (0)

static dJointID am, am0, lm, lm0, p2, db, dh, dh0, tr;

typedef struct { dReal v[256]; } Snap;
static void snap(Snap *s)
{
    dVector3 a;
    int i = 0, k, p;
    memset(s, 0, sizeof *s);
    s->v[i++] = dJointGetAMotorMode(am);
    s->v[i++] = dJointGetAMotorNumAxes(am);
    s->v[i++] = dJointGetLMotorNumAxes(lm);
    for (k = 0; k < 3; k++) {
        dJointGetAMotorAxis(am, k, a); s->v[i++] = a[0]; s->v[i++] = a[1]; s->v[i++] = a[2];
        s->v[i++] = dJointGetAMotorAxisRel(am, k);
        s->v[i++] = dJointGetAMotorAngle(am, k);
        dJointGetLMotorAxis(lm, k, a); s->v[i++] = a[0]; s->v[i++] = a[1]; s->v[i++] = a[2];
        for (p = 0; p < dParamsInGroup; p++) {
            s->v[i++] = dJointGetAMotorParam(am, k * dParamGroup + p);
            s->v[i++] = dJointGetLMotorParam(lm, k * dParamGroup + p);
        }
    }
    dJointGetDBallAnchor1(db, a); s->v[i++] = a[0]; s->v[i++] = a[1]; s->v[i++] = a[2];
    dJointGetDBallAnchor2(db, a); s->v[i++] = a[0]; s->v[i++] = a[1]; s->v[i++] = a[2];
    s->v[i++] = dJointGetDBallDistance(db);
    s->v[i++] = dJointGetDBallParam(db, dParamERP);
    dJointGetDHingeAxis(dh, a); s->v[i++] = a[0]; s->v[i++] = a[1]; s->v[i++] = a[2];
    s->v[i++] = dJointGetDHingeDistance(dh);
    s->v[i++] = dJointGetTransmissionMode(tr);
    s->v[i++] = dJointGetTransmissionRatio(tr);
    s->v[i++] = dJointGetTransmissionRadius1(tr);
    s->v[i++] = dJointGetTransmissionBacklash(tr);
    s->v[i++] = dJointGetTransmissionParam(tr, dParamCFM);
    dJointGetTransmissionAxis1(tr, a); s->v[i++] = a[0]; s->v[i++] = a[1]; s->v[i++] = a[2];
}

static Snap before, after;
#define UNCHANGED(what) do { snap(&after); check(memcmp(&before, &after, sizeof before) == 0, what " changes nothing"); } while (0)

int main(void)
{
    dWorldID w;
    dBodyID a, b;
    dVector3 v = {7, 7, 7};
    dReal nan = NAN;
    dJointID hinge;
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    w = dWorldCreate();
    a = dBodyCreate(w);
    b = dBodyCreate(w);
    dBodySetPosition(b, 1, 0, 0);
    am = dJointCreateAMotor(w, 0);
    am0 = dJointCreateAMotor(w, 0);
    lm = dJointCreateLMotor(w, 0);
    lm0 = dJointCreateLMotor(w, 0);
    p2 = dJointCreatePlane2D(w, 0);
    db = dJointCreateDBall(w, 0);
    dh = dJointCreateDHinge(w, 0);
    dh0 = dJointCreateDHinge(w, 0);
    tr = dJointCreateTransmission(w, 0);
    hinge = dJointCreateHinge(w, 0);
    check(am && am0 && lm && lm0 && p2 && db && dh && dh0 && tr && hinge, "creation");
    dJointAttach(am, a, b);
    dJointSetAMotorNumAxes(am, 2);
    dJointSetAMotorAxis(am, 0, 1, 0, 0, 1);
    dJointSetAMotorParam(am, dParamFMax2, 3);
    dJointAttach(lm, a, 0);
    dJointSetLMotorNumAxes(lm, 1);
    dJointSetLMotorAxis(lm, 0, 2, 0, 1, 0);
    dJointAttach(db, a, b);
    dJointAttach(dh, a, b);
    dJointSetDHingeAxis(dh, 0, 0, 1);
    dJointAttach(tr, a, b);
    snap(&before);

    /* handles and types */
    BAD("dJointCreateAMotor", check(dJointCreateAMotor(0, 0) == 0, "NULL world gives NULL"));
    BAD("dJointCreateTransmission", check(dJointCreateTransmission((dWorldID)a, 0) == 0, "body as world"));
    BAD("dJointSetAMotorNumAxes", dJointSetAMotorNumAxes(lm, 1));
    BAD("dJointGetAMotorNumAxes", check(dJointGetAMotorNumAxes(0) == 0, "NULL joint reads 0"));
    BAD("dJointSetLMotorAxis", dJointSetLMotorAxis(am, 0, 0, 1, 0, 0));
    BAD("dJointSetPlane2DXParam", dJointSetPlane2DXParam(hinge, dParamVel, 1));
    BAD("dJointSetDBallAnchor1", dJointSetDBallAnchor1(hinge, 0, 0, 0));
    BAD("dJointSetDHingeAxis", dJointSetDHingeAxis(db, 0, 0, 1));
    BAD("dJointGetTransmissionRatio", check(dJointGetTransmissionRatio(db) == 0, "wrong type reads 0"));
    BAD("dJointGetDBallDistance", dJointGetDBallDistance(tr));

    /* AMotor */
    BAD("dJointSetAMotorNumAxes", dJointSetAMotorNumAxes(am, 4));
    BAD("dJointSetAMotorNumAxes", dJointSetAMotorNumAxes(am, -1));
    BAD("dJointSetAMotorAxis", dJointSetAMotorAxis(am, 3, 0, 1, 0, 0));
    BAD("dJointSetAMotorAxis", dJointSetAMotorAxis(am, 0, 3, 1, 0, 0));
    BAD("dJointSetAMotorAxis", dJointSetAMotorAxis(am, 0, 1, 0, 0, 0));
    BAD("dJointSetAMotorAxis", dJointSetAMotorAxis(am, 1, 1, nan, 0, 1));
    BAD("dJointSetAMotorAxis", dJointSetAMotorAxis(am0, 0, 1, 1, 0, 0)); /* no body 1 */
    BAD("dJointSetAMotorAngle", dJointSetAMotorAngle(am, -1, 0.5));
    BAD("dJointSetAMotorAngle", dJointSetAMotorAngle(am, 0, INFINITY));
    BAD("dJointSetAMotorParam", dJointSetAMotorParam(am, dParamVel3 + dParamGroup, 1));
    BAD("dJointSetAMotorParam", dJointSetAMotorParam(am, -5, 1));
    BAD("dJointSetAMotorParam", dJointSetAMotorParam(am, dParamVel, nan));
    BAD("dJointSetAMotorMode", dJointSetAMotorMode(am, 2));
    BAD("dJointAddAMotorTorques", dJointAddAMotorTorques(am, 1, nan, 0));
    BAD("dJointGetAMotorAxis", dJointGetAMotorAxis(am, 3, v));
    BAD("dJointGetAMotorAxis", dJointGetAMotorAxis(am, 0, 0));
    BAD("dJointGetAMotorAxisRel", check(dJointGetAMotorAxisRel(am, 5) == 0, "bad axis rel reads 0"));
    BAD("dJointGetAMotorAngle", check(dJointGetAMotorAngle(am, -2) == 0, "bad axis angle reads 0"));
    BAD("dJointGetAMotorAngleRate", check(dJointGetAMotorAngleRate(am0, 0) == 0, "unattached rate reads 0"));
    BAD("dJointGetAMotorParam", check(dJointGetAMotorParam(am, 0x300) == 0, "group 4 reads 0"));
    dJointSetAMotorNumAxes(am0, 1);
    BAD("dJointAddAMotorTorques", dJointAddAMotorTorques(am0, 1, 0, 0)); /* unattached */
    /* Euler mode restrictions (on a second motor, so `am` stays as it was) */
    {
        dJointID e = dJointCreateAMotor(w, 0);
        dJointAttach(e, a, b);
        dJointSetAMotorMode(e, dAMotorEuler);
        BAD("dJointSetAMotorAxis", dJointSetAMotorAxis(e, 0, 2, 1, 0, 0));
        BAD("dJointSetAMotorAxis", dJointSetAMotorAxis(e, 1, 1, 0, 1, 0));
        BAD("dJointSetAMotorAngle", dJointSetAMotorAngle(e, 0, 0.5));
        QUIET(dJointSetAMotorAxis(e, 1, 0, 0, 1, 0));
        QUIET(dJointSetAMotorNumAxes(e, 1));
        check(dJointGetAMotorNumAxes(e) == 3, "Euler mode keeps three axes");
        dJointDestroy(e);
    }

    /* LMotor */
    BAD("dJointSetLMotorNumAxes", dJointSetLMotorNumAxes(lm, 5));
    BAD("dJointSetLMotorAxis", dJointSetLMotorAxis(lm, -1, 0, 1, 0, 0));
    BAD("dJointSetLMotorAxis", dJointSetLMotorAxis(lm, 0, -1, 1, 0, 0));
    BAD("dJointSetLMotorAxis", dJointSetLMotorAxis(lm, 0, 0, 0, 0, 0));
    BAD("dJointSetLMotorAxis", dJointSetLMotorAxis(lm0, 0, 2, 0, 0, 1)); /* body 2 -> body 1, absent */
    BAD("dJointSetLMotorParam", dJointSetLMotorParam(lm, dParamFMax, nan));
    BAD("dJointGetLMotorAxis", dJointGetLMotorAxis(lm, 3, v));

    /* Plane2D */
    BAD("dJointSetPlane2DYParam", dJointSetPlane2DYParam(p2, dParamVel, nan));
    BAD("dJointSetPlane2DAngleParam", dJointSetPlane2DAngleParam(0, dParamVel, 1));

    /* DBall / DHinge */
    BAD("dJointSetDBallAnchor2", dJointSetDBallAnchor2(db, 0, INFINITY, 0));
    BAD("dJointSetDBallDistance", dJointSetDBallDistance(db, -1));
    BAD("dJointSetDBallDistance", dJointSetDBallDistance(db, nan));
    BAD("dJointSetDBallParam", dJointSetDBallParam(db, dParamERP, nan));
    BAD("dJointGetDBallAnchor1", dJointGetDBallAnchor1(db, 0));
    BAD("dJointSetDHingeAxis", dJointSetDHingeAxis(dh, 0, 0, 0));
    BAD("dJointSetDHingeAxis", dJointSetDHingeAxis(dh0, 0, 0, 1)); /* unattached */
    BAD("dJointGetDHingeAxis", dJointGetDHingeAxis(dh0, v));
    BAD("dJointSetDHingeAnchor1", dJointSetDHingeAnchor1(dh, nan, 0, 0));

    /* Transmission */
    BAD("dJointSetTransmissionMode", dJointSetTransmissionMode(tr, 3));
    BAD("dJointSetTransmissionAxis1", dJointSetTransmissionAxis1(tr, 0, 0, 1)); /* parallel mode */
    BAD("dJointSetTransmissionAxis", dJointSetTransmissionAxis(tr, 0, 0, 0));
    BAD("dJointSetTransmissionRatio", dJointSetTransmissionRatio(tr, 0));
    BAD("dJointSetTransmissionRatio", dJointSetTransmissionRatio(tr, -2));
    BAD("dJointSetTransmissionRadius1", dJointSetTransmissionRadius1(tr, 0.5)); /* not chain mode */
    BAD("dJointSetTransmissionBacklash", dJointSetTransmissionBacklash(tr, nan));
    BAD("dJointSetTransmissionParam", dJointSetTransmissionParam(tr, dParamCFM, nan));
    BAD("dJointGetTransmissionContactPoint1", dJointGetTransmissionContactPoint1(tr, 0));
    BAD("dJointAttach", dJointAttach(tr, a, 0)); /* needs two bodies */
    UNCHANGED("bad calls");
    dJointSetTransmissionMode(tr, dTransmissionIntersectingAxes);
    BAD("dJointSetTransmissionAxis", dJointSetTransmissionAxis(tr, 0, 0, 1));
    BAD("dJointGetTransmissionAxis", dJointGetTransmissionAxis(tr, v));
    BAD("dJointSetTransmissionRatio", dJointSetTransmissionRatio(tr, 2));
    dJointSetTransmissionMode(tr, dTransmissionParallelAxes);
    UNCHANGED("bad calls in intersecting mode");

    /* accepted silently, as ODE accepts them */
    QUIET(dJointSetAMotorParam(am, 0x20, 5));                 /* unknown number in group 1 */
    QUIET(check(dJointGetAMotorParam(am, dParamSuspensionERP) == 0, "non-motor parameter reads 0"));
    QUIET(dJointSetLMotorParam(lm, dParamVel3 + 4 * dParamGroup, 0.25)); /* clamped to group 3 */
    check(dJointGetLMotorParam(lm, dParamVel3) == 0.25, "LMotor group clamped");
    QUIET(dJointSetPlane2DXParam(p2, dParamVel2, 3));         /* not a first-group number: ignored */
    QUIET(dJointSetDBallParam(dh, dParamERP, 0.6));           /* a double hinge is a double ball */
    check(dJointGetDHingeParam(dh, dParamERP) == 0.6, "DBall parameter on a DHinge");
    QUIET(dJointSetDHingeAnchor1(db, 0, 0, 0));               /* and the other way for anchors */
    QUIET(dJointSetTransmissionBacklash(tr, -1));
    QUIET(dJointGetTransmissionAxis2(dJointCreateTransmission(w, 0), v)); /* unattached: untouched */
    check(v[0] == 7 && v[1] == 7 && v[2] == 7, "unattached transmission axis leaves the result");
    QUIET(dJointSetAMotorAxis(am0, 1, 2, 0, 1, 0));           /* body 2 absent: stored as global */
    QUIET(dJointAddAMotorTorques(am, 1, 2, 3));

    dWorldDestroy(w);
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
