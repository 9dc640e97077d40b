/* Bad input to the universal, hinge2, PR, PU and piston functions: each
 * bad call must be reported through the debug handler naming the
 * function, return the neutral value and change nothing observable
 * (parameters, anchors, axes, angles, body positions). Numbers that are
 * not a parameter of the joint are ignored silently, as in ODE. Also
 * checks dJointAddPUTorque (declared by ODE's header, not defined by ODE
 * 0.16.2) against its documented meaning: a torque about the rotoide axis
 * (axis 1) on body 1 and the opposite on body 2. Runs against OUR library
 * only (ODE aborts or crashes on most of these). Prints "PASS <n>". */
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

static dJointID uni, h2, prj, puj, pis, h2free, unifree, pufree, pisfree, prfree;
static dBodyID a, b;

typedef struct { dReal v[256]; } Snap;
static void snap(Snap *s)
{
    dVector3 v;
    dReal x, y;
    int i = 0, g, p;
    memset(s, 0, sizeof *s);
#define V3(call) do { call; s->v[i++] = v[0]; s->v[i++] = v[1]; s->v[i++] = v[2]; } while (0)
    V3(dJointGetUniversalAnchor(uni, v)); V3(dJointGetUniversalAnchor2(uni, v));
    V3(dJointGetUniversalAxis1(uni, v)); V3(dJointGetUniversalAxis2(uni, v));
    dJointGetUniversalAngles(uni, &x, &y); s->v[i++] = x; s->v[i++] = y;
    V3(dJointGetHinge2Anchor(h2, v)); V3(dJointGetHinge2Axis1(h2, v)); V3(dJointGetHinge2Axis2(h2, v));
    s->v[i++] = dJointGetHinge2Angle1(h2); s->v[i++] = dJointGetHinge2Angle2(h2);
    V3(dJointGetPRAnchor(prj, v)); V3(dJointGetPRAxis1(prj, v)); V3(dJointGetPRAxis2(prj, v));
    s->v[i++] = dJointGetPRPosition(prj); s->v[i++] = dJointGetPRAngle(prj);
    V3(dJointGetPUAnchor(puj, v)); V3(dJointGetPUAxis1(puj, v)); V3(dJointGetPUAxis2(puj, v));
    V3(dJointGetPUAxis3(puj, v)); s->v[i++] = dJointGetPUPosition(puj);
    V3(dJointGetPistonAnchor(pis, v)); V3(dJointGetPistonAnchor2(pis, v)); V3(dJointGetPistonAxis(pis, v));
    s->v[i++] = dJointGetPistonPosition(pis); s->v[i++] = dJointGetPistonAngle(pis);
    V3(memcpy(v, dBodyGetPosition(a), sizeof v)); V3(memcpy(v, dBodyGetPosition(b), sizeof v));
    V3(memcpy(v, dBodyGetTorque(a), sizeof v)); V3(memcpy(v, dBodyGetForce(a), sizeof v));
    for (g = 0; g < 3; g++)
        for (p = 0; p < dParamsInGroup; p++) {
            s->v[i++] = dJointGetUniversalParam(uni, g * 0x100 + p);
            s->v[i++] = dJointGetPUParam(puj, g * 0x100 + p);
            if (g < 2) {
                s->v[i++] = dJointGetHinge2Param(h2, g * 0x100 + p);
                s->v[i++] = dJointGetPRParam(prj, g * 0x100 + p);
                s->v[i++] = dJointGetPistonParam(pis, g * 0x100 + p);
            }
        }
#undef V3
    if (i > 256) printf("snapshot overflow\n");
}

static Snap before, after;
#define UNCHANGED(what) do { snap(&after); check(memcmp(&before, &after, sizeof before) == 0, what " changes nothing"); } while (0)

int main(void)
{
    dWorldID w;
    dVector3 v, t, ax;
    dReal nan = NAN, x, y, zero3[3] = {0, 0, 0}, ok3[3] = {0, 0, 1}, nan3[3] = {0, NAN, 1};
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    w = dWorldCreate();
    a = dBodyCreate(w);
    b = dBodyCreate(w);
    dBodySetPosition(b, 0.2, 0.3, 0.9);
    uni = dJointCreateUniversal(w, 0);
    h2 = dJointCreateHinge2(w, 0);
    prj = dJointCreatePR(w, 0);
    puj = dJointCreatePU(w, 0);
    pis = dJointCreatePiston(w, 0);
    unifree = dJointCreateUniversal(w, 0);
    h2free = dJointCreateHinge2(w, 0);
    pufree = dJointCreatePU(w, 0);
    pisfree = dJointCreatePiston(w, 0);
    prfree = dJointCreatePR(w, 0);
    check(uni && h2 && prj && puj && pis && unifree && h2free && pufree && pisfree && prfree, "creation");
    dJointAttach(uni, a, b);
    dJointAttach(h2, a, b);
    dJointAttach(prj, a, b);
    dJointAttach(puj, a, b);
    dJointAttach(pis, a, b);
    dJointSetHinge2Anchor(h2, 0.2, 0.3, 0.9);
    dJointSetHinge2Axes(h2, ok3, 0);
    dJointSetUniversalParam(uni, dParamLoStop2, -1);
    dJointSetPUParam(puj, dParamHiStop3, 0.5);
    snap(&before);

    /* handles and joint types */
    BAD("dJointCreateUniversal", check(dJointCreateUniversal(0, 0) == 0, "NULL world gives NULL"));
    BAD("dJointCreateHinge2", check(dJointCreateHinge2((dWorldID)a, 0) == 0, "body as world gives NULL"));
    BAD("dJointCreatePR", check(dJointCreatePR(w, (dJointGroupID)a) == 0, "body as group gives NULL"));
    BAD("dJointCreatePU", check(dJointCreatePU(0, 0) == 0, "NULL world gives NULL"));
    BAD("dJointCreatePiston", check(dJointCreatePiston(0, 0) == 0, "NULL world gives NULL"));
    BAD("dJointSetUniversalAnchor", dJointSetUniversalAnchor(0, 1, 2, 3));
    BAD("dJointSetUniversalAnchor", dJointSetUniversalAnchor(h2, 1, 2, 3));
    BAD("dJointSetHinge2Anchor", dJointSetHinge2Anchor(uni, 1, 2, 3));
    BAD("dJointSetPRAxis1", dJointSetPRAxis1(puj, 1, 0, 0));
    BAD("dJointSetPUAxis1", dJointSetPUAxis1(prj, 1, 0, 0));
    BAD("dJointSetPistonAxis", dJointSetPistonAxis((dJointID)a, 1, 0, 0));
    BAD("dJointGetPUAngles", dJointGetPUAngles(uni, &x, &y));
    BAD("dJointGetUniversalAngles", dJointGetUniversalAngles(puj, &x, &y));
    BAD("dJointGetPistonPosition", check(dJointGetPistonPosition(prj) == 0, "wrong type reads 0"));
    BAD("dJointAddHinge2Torques", dJointAddHinge2Torques(uni, 1, 1));
    BAD("dJointAddPRTorque", dJointAddPRTorque(pis, 1));
    BAD("dJointAddPistonForce", dJointAddPistonForce(prj, 1));
    BAD("dJointAddUniversalTorques", dJointAddUniversalTorques(h2, 1, 1));
    BAD("dJointAddPUTorque", dJointAddPUTorque(uni, 1));
    BAD("dJointSetPUParam", dJointSetPUParam(pis, dParamVel, 1));
    BAD("dJointGetHinge2Param", check(dJointGetHinge2Param(prj, dParamLoStop) == 0, "wrong type reads 0"));

    /* values */
    BAD("dJointSetUniversalAnchor", dJointSetUniversalAnchor(uni, nan, 0, 0));
    BAD("dJointSetUniversalAxis1", dJointSetUniversalAxis1(uni, 0, 0, 0));
    BAD("dJointSetUniversalAxis2", dJointSetUniversalAxis2(uni, INFINITY, 0, 0));
    BAD("dJointSetUniversalAxis1Offset", dJointSetUniversalAxis1Offset(uni, 0, 0, 1, nan, 0));
    BAD("dJointSetUniversalAxis2Offset", dJointSetUniversalAxis2Offset(uni, 0, 1, 0, 0, INFINITY));
    BAD("dJointSetUniversalParam", dJointSetUniversalParam(uni, dParamVel2, nan));
    BAD("dJointGetUniversalAngles", dJointGetUniversalAngles(uni, 0, &y));
    BAD("dJointGetUniversalAnchor", dJointGetUniversalAnchor(uni, 0));
    BAD("dJointAddUniversalTorques", dJointAddUniversalTorques(uni, 1, nan));
    BAD("dJointSetHinge2Axes", dJointSetHinge2Axes(h2, 0, 0));
    BAD("dJointSetHinge2Axes", dJointSetHinge2Axes(h2, zero3, 0));
    BAD("dJointSetHinge2Axes", dJointSetHinge2Axes(h2, nan3, 0));
    BAD("dJointSetHinge2Axes", dJointSetHinge2Axes(h2, 0, ok3));
    /* Exactly parallel axes: (0, 0, 1) twice. (Two copies of (0.2, 0.3, 0.9)
     * are not refused: normalised, their dot product is not exactly 1, so
     * ODE finds a residue and goes on; see t_checks_boundaries_refused.c.) */
    BAD("dJointSetHinge2Axes", dJointSetHinge2Axes(h2, ok3, ok3));
    BAD("dJointSetHinge2Axis1", dJointSetHinge2Axis1(h2, 0, 0, 0));
    BAD("dJointSetHinge2Axis2", dJointSetHinge2Axis2(h2, 0, 0, nan));
    BAD("dJointSetHinge2Param", dJointSetHinge2Param(h2, dParamSuspensionERP, nan));
    BAD("dJointAddHinge2Torques", dJointAddHinge2Torques(h2, INFINITY, 0));
    BAD("dJointSetPRAnchor", dJointSetPRAnchor(prj, 0, nan, 0));
    BAD("dJointSetPRAxis2", dJointSetPRAxis2(prj, 0, 0, 0));
    BAD("dJointSetPRParam", dJointSetPRParam(prj, dParamHiStop2, nan));
    BAD("dJointGetPRAxis1", dJointGetPRAxis1(prj, 0));
    BAD("dJointAddPRTorque", dJointAddPRTorque(prj, nan));
    BAD("dJointSetPUAnchorOffset", dJointSetPUAnchorOffset(puj, 0, 0, 0, 0, nan, 0));
    BAD("dJointSetPUAnchorDelta", dJointSetPUAnchorDelta(puj, INFINITY, 0, 0, 0, 0, 0));
    BAD("dJointSetPUAxis3", dJointSetPUAxis3(puj, 0, 0, 0));
    BAD("dJointSetPUAxisP", dJointSetPUAxisP(puj, nan, 1, 0));
    BAD("dJointSetPUParam", dJointSetPUParam(puj, dParamFMax3, nan));
    BAD("dJointGetPUAngles", dJointGetPUAngles(puj, &x, 0));
    BAD("dJointAddPUTorque", dJointAddPUTorque(puj, INFINITY));
    BAD("dJointSetPistonAnchorOffset", dJointSetPistonAnchorOffset(pis, 0, 0, 0, INFINITY, 0, 0));
    BAD("dJointSetPistonAxisDelta", dJointSetPistonAxisDelta(pis, 0, 0, 0, 0, 0, 0));
    BAD("dJointSetPistonParam", dJointSetPistonParam(pis, dParamLoStop, nan));
    BAD("dJointAddPistonForce", dJointAddPistonForce(pis, nan));
    BAD("dJointGetPistonAxis", dJointGetPistonAxis(pis, 0));

    /* unattached joints: calls ODE would crash or assert on */
    BAD("dJointSetUniversalAxis1Offset", dJointSetUniversalAxis1Offset(unifree, 0, 0, 1, 0.1, 0.2));
    BAD("dJointSetUniversalAxis2Offset", dJointSetUniversalAxis2Offset(unifree, 0, 1, 0, 0.1, 0.2));
    BAD("dJointSetHinge2Axes", dJointSetHinge2Axes(h2free, ok3, 0));
    BAD("dJointSetHinge2Axis2", dJointSetHinge2Axis2(h2free, 0, 1, 0));
    BAD("dJointGetHinge2Axis1", dJointGetHinge2Axis1(h2free, v));
    BAD("dJointGetHinge2Axis2", dJointGetHinge2Axis2(h2free, v));
    BAD("dJointGetPRPosition", check(dJointGetPRPosition(prfree) == 0, "unattached position reads 0"));
    BAD("dJointGetPRPositionRate", dJointGetPRPositionRate(prfree));
    BAD("dJointGetPUPosition", check(dJointGetPUPosition(pufree) == 0, "unattached position reads 0"));
    BAD("dJointGetPistonPositionRate", dJointGetPistonPositionRate(pisfree));
    BAD("dJointSetPistonAxisDelta", dJointSetPistonAxisDelta(pisfree, 0, 0, 1, 0, 0, 0));
    /* a hinge2 takes two bodies or none */
    BAD("dJointAttach", dJointAttach(h2free, a, 0));
    BAD("dJointAttach", dJointAttach(h2free, 0, b));
    UNCHANGED("bad calls");

    /* what is quietly accepted, as in ODE */
    QUIET(dJointSetUniversalParam(uni, 0x20e, 5));
    QUIET(dJointSetUniversalParam(uni, dParamLoStop3, 5));
    QUIET(dJointSetHinge2Param(h2, dParamSuspensionERP2, 5));
    QUIET(dJointSetPUParam(puj, 0x300, 5));
    QUIET(dJointSetPUParam(puj, -1, 5));
    QUIET(dJointSetPRParam(prj, dParamERP, 5));
    QUIET(dJointSetPistonParam(pis, dParamLoStop3, 5));
    QUIET(check(dJointGetPUParam(puj, 0x300) == 0, "PU group 4 reads 0"));
    QUIET(check(dJointGetPistonPosition(pisfree) == 0, "unattached piston position reads 0"));
    QUIET(check(dJointGetPUPositionRate(pufree) == 0, "unattached PU position rate reads 0"));
    QUIET(check(dJointGetUniversalAngle1(unifree) == 0, "unattached universal angle reads 0"));
    QUIET(dJointGetUniversalAxis1(unifree, v));
    QUIET(dJointAddPistonForce(pisfree, 1));
    QUIET(dJointSetPUAnchor(pufree, 1, 2, 3));
    QUIET(dJointSetPistonAxis(pisfree, 0, 0, 0)); /* unattached: axis ignored, as ODE */
    UNCHANGED("ignored parameters");

    /* dJointAddPUTorque: torque about axis 1, opposite on body 2; attached
     * as (0, body) the user's body 2 gets the torque about axis 1 */
    dJointSetPUAxis1(puj, 0.6, 0, 0.8);
    dJointGetPUAxis1(puj, ax);
    dBodySetTorque(a, 0, 0, 0);
    dBodySetTorque(b, 0, 0, 0);
    QUIET(dJointAddPUTorque(puj, 2.5));
    memcpy(t, dBodyGetTorque(a), sizeof t);
    check(fabs(t[0] - 2.5 * ax[0]) < 1e-12 && fabs(t[1] - 2.5 * ax[1]) < 1e-12 && fabs(t[2] - 2.5 * ax[2]) < 1e-12,
          "PU torque on body 1 about axis 1");
    memcpy(t, dBodyGetTorque(b), sizeof t);
    check(fabs(t[0] + 2.5 * ax[0]) < 1e-12 && fabs(t[1] + 2.5 * ax[1]) < 1e-12 && fabs(t[2] + 2.5 * ax[2]) < 1e-12,
          "PU torque on body 2 opposite");
    dJointAttach(puj, 0, b);
    dJointGetPUAxis1(puj, ax);
    dBodySetTorque(b, 0, 0, 0);
    QUIET(dJointAddPUTorque(puj, 2.5));
    memcpy(t, dBodyGetTorque(b), sizeof t);
    check(fabs(t[0] + 2.5 * ax[0]) < 1e-12 && fabs(t[1] + 2.5 * ax[1]) < 1e-12 && fabs(t[2] + 2.5 * ax[2]) < 1e-12,
          "PU (0, b): the user's body 2 gets the opposite torque");

    dWorldDestroy(w);
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
