/* Bad input to the joint-type functions (ball, hinge, slider, fixed,
 * contact, null): each bad call must be reported through the debug handler
 * naming the function, return the neutral value and change nothing that
 * can be observed on unattached joints (anchor 2 and parameters). Numbers
 * that are not a parameter of the joint are ignored silently, as in ODE.
 * Runs against OUR library only (ODE aborts on most of these). Prints
 * "PASS <n>" on success. */
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

/* The call must be reported once, naming `fn`. */
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

static dJointID ball, hinge, slider, fixed;

typedef struct { dReal v[64]; } Snap;
static void snap(Snap *s)
{
    dVector3 a;
    int i = 0, p;
    memset(s, 0, sizeof *s);
    dJointGetBallAnchor2(ball, a); s->v[i++] = a[0]; s->v[i++] = a[1]; s->v[i++] = a[2];
    dJointGetHingeAnchor2(hinge, a); s->v[i++] = a[0]; s->v[i++] = a[1]; s->v[i++] = a[2];
    s->v[i++] = dJointGetBallParam(ball, dParamERP);
    s->v[i++] = dJointGetBallParam(ball, dParamCFM);
    s->v[i++] = dJointGetFixedParam(fixed, dParamERP);
    s->v[i++] = dJointGetFixedParam(fixed, dParamCFM);
    for (p = 0; p < dParamsInGroup; p++) {
        s->v[i++] = dJointGetHingeParam(hinge, p);
        s->v[i++] = dJointGetSliderParam(slider, p);
    }
}

static Snap before, after;
#define UNCHANGED(what) do { snap(&after); check(memcmp(&before, &after, sizeof before) == 0, what " changes nothing"); } while (0)

int main(void)
{
    dWorldID w;
    dBodyID b;
    dContact c;
    dVector3 v;
    dReal nan = NAN;
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    w = dWorldCreate();
    b = dBodyCreate(w);
    ball = dJointCreateBall(w, 0);
    hinge = dJointCreateHinge(w, 0);
    slider = dJointCreateSlider(w, 0);
    fixed = dJointCreateFixed(w, 0);
    check(ball && hinge && slider && fixed && dJointCreateNull(w, 0), "creation");
    dJointSetBallAnchor2(ball, 1, 2, 3);
    dJointSetHingeParam(hinge, dParamLoStop, -1);
    snap(&before);

    /* handles */
    BAD("dJointCreateBall", check(dJointCreateBall(0, 0) == 0, "NULL world gives NULL"));
    BAD("dJointCreateHinge", check(dJointCreateHinge((dWorldID)b, 0) == 0, "body as world gives NULL"));
    BAD("dJointCreateSlider", check(dJointCreateSlider(w, (dJointGroupID)b) == 0, "body as group gives NULL"));
    BAD("dJointSetBallAnchor", dJointSetBallAnchor(0, 1, 2, 3));
    BAD("dJointSetBallAnchor2", dJointSetBallAnchor2((dJointID)b, 1, 2, 3));
    /* wrong joint type */
    BAD("dJointSetHingeAnchor", dJointSetHingeAnchor(ball, 4, 5, 6));
    BAD("dJointSetBallAnchor2", dJointSetBallAnchor2(hinge, 4, 5, 6));
    BAD("dJointSetSliderParam", dJointSetSliderParam(hinge, dParamLoStop, 5));
    BAD("dJointGetHingeParam", check(dJointGetHingeParam(slider, dParamLoStop) == 0, "wrong type reads 0"));
    BAD("dJointSetFixed", dJointSetFixed(slider));
    BAD("dJointSetFixedParam", dJointSetFixedParam(ball, dParamERP, 0.5));
    BAD("dJointGetBallParam", dJointGetBallParam(fixed, dParamERP));
    BAD("dJointAddHingeTorque", dJointAddHingeTorque(slider, 1));
    BAD("dJointAddSliderForce", dJointAddSliderForce(hinge, 1));
    BAD("dJointGetHingeAngle", dJointGetHingeAngle(ball));
    BAD("dJointGetSliderAxis", dJointGetSliderAxis(fixed, v));
    /* values */
    BAD("dJointSetBallAnchor2", dJointSetBallAnchor2(ball, nan, 0, 0));
    BAD("dJointSetHingeAnchorDelta", dJointSetHingeAnchorDelta(hinge, 0, 0, 0, 0, INFINITY, 0));
    BAD("dJointSetHingeAxisOffset", dJointSetHingeAxisOffset(hinge, 0, 0, 1, nan));
    BAD("dJointSetHingeParam", dJointSetHingeParam(hinge, dParamLoStop, nan));
    BAD("dJointSetSliderParam", dJointSetSliderParam(slider, dParamVel, nan));
    BAD("dJointSetBallParam", dJointSetBallParam(ball, dParamERP, nan));
    BAD("dJointAddHingeTorque", dJointAddHingeTorque(hinge, INFINITY));
    BAD("dJointGetBallAnchor", dJointGetBallAnchor(ball, 0));
    BAD("dJointGetHingeAxis", dJointGetHingeAxis(hinge, 0));
    /* ODE would dereference the missing body */
    BAD("dJointGetSliderPosition", check(dJointGetSliderPosition(slider) == 0, "unattached position reads 0"));
    BAD("dJointGetSliderPositionRate", dJointGetSliderPositionRate(slider));
    UNCHANGED("bad calls");

    /* contacts */
    memset(&c, 0, sizeof c);
    c.geom.normal[2] = 1;
    c.surface.mu = dInfinity;
    BAD("dJointCreateContact", check(dJointCreateContact(w, 0, 0) == 0, "NULL contact gives NULL"));
    c.surface.mode = dContactBounce;
    c.surface.bounce = nan;
    BAD("dJointCreateContact", check(dJointCreateContact(w, 0, &c) == 0, "NaN bounce gives NULL"));
    c.surface.bounce = 0;
    c.surface.mode = 0;
    c.geom.depth = INFINITY;
    BAD("dJointCreateContact", check(dJointCreateContact(w, 0, &c) == 0, "infinite depth gives NULL"));
    c.geom.depth = 0.01;
    c.surface.mode = dContactFDir1;
    c.fdir1[0] = nan;
    BAD("dJointCreateContact", check(dJointCreateContact(w, 0, &c) == 0, "NaN fdir1 gives NULL"));
    c.surface.mode = 0;
    QUIET(check(dJointCreateContact(w, 0, &c) != 0, "NaN fdir1 unused without dContactFDir1"));

    /* accepted as ODE accepts them */
    QUIET(dJointSetHingeParam(hinge, dParamLoStop2, 7));
    QUIET(dJointSetHingeParam(hinge, 1000, 7));
    QUIET(check(dJointGetHingeParam(hinge, dParamLoStop2) == 0, "group 2 of a hinge reads 0"));
    QUIET(dJointSetHingeParam(hinge, dParamFMax, -1));
    QUIET(dJointSetHingeParam(hinge, dParamHiStop, dInfinity));
    QUIET(dJointSetHingeAxis(hinge, 0, 0, 0)); /* unattached: ignored, as in ODE */
    QUIET(dJointGetHingeAnchor(hinge, v));
    check(dJointGetHingeParam(hinge, dParamFMax) == 0, "negative FMax ignored");
    check(dJointGetHingeAngle(hinge) == 0 && dJointGetHingeAngleRate(hinge) == 0, "unattached angle and rate are 0");

    dWorldDestroy(w);
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
