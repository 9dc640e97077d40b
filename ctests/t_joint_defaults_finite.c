/* Every joint type stepped before any anchor, axis or parameter is set,
 * with both steppers and every attachment (two bodies, body 2 = the
 * environment, body 1 = the environment): the bodies must stay finite and
 * nothing may be reported, except dJointAttach refusing to attach a hinge2
 * or a transmission to one body, as ODE does.
 *
 * The double hinge is the case Debian's ODE cannot run: its axis starts at
 * zero and the rows built from it turn the bodies NaN (Debian aborts on the
 * quaternion normalisation; our QuickStep used to leave NaN positions).
 * Until its axis is set it keeps only its double-ball row, so it must move
 * the bodies exactly as a double ball does, bit for bit. The other types
 * are compared with Debian by diff_joint_defaults_unset.c. Prints "PASS <n>". */
#include <ode/ode.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <math.h>

static int debug_reports, messages;
static char last[512];
static void on_debug(int num, const char *msg, va_list ap)
{
    (void)num;
    vsnprintf(last, sizeof last, msg, ap);
    debug_reports++;
}
static void on_message(int num, const char *msg, va_list ap)
{
    (void)num;
    vsnprintf(last, sizeof last, msg, ap);
    messages++;
}

static int checks, failures;
static void check(int ok, const char *what, int type, int quick, int attach)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s (type %d, %s, attach %d; last report: %s)\n", what, type, quick ? "quick" : "step", attach,
               last);
    }
}

static dJointID create(dWorldID w, int type)
{
    switch (type) {
    case dJointTypeBall: return dJointCreateBall(w, 0);
    case dJointTypeHinge: return dJointCreateHinge(w, 0);
    case dJointTypeSlider: return dJointCreateSlider(w, 0);
    case dJointTypeUniversal: return dJointCreateUniversal(w, 0);
    case dJointTypeHinge2: return dJointCreateHinge2(w, 0);
    case dJointTypeFixed: return dJointCreateFixed(w, 0);
    case dJointTypeNull: return dJointCreateNull(w, 0);
    case dJointTypeAMotor: return dJointCreateAMotor(w, 0);
    case dJointTypeLMotor: return dJointCreateLMotor(w, 0);
    case dJointTypePlane2D: return dJointCreatePlane2D(w, 0);
    case dJointTypePR: return dJointCreatePR(w, 0);
    case dJointTypePU: return dJointCreatePU(w, 0);
    case dJointTypePiston: return dJointCreatePiston(w, 0);
    case dJointTypeDBall: return dJointCreateDBall(w, 0);
    case dJointTypeDHinge: return dJointCreateDHinge(w, 0);
    case dJointTypeTransmission: return dJointCreateTransmission(w, 0);
    }
    return 0;
}

/* Final state of both bodies: position, quaternion, velocities. */
typedef struct { dReal v[26]; } State;

static void run(int type, int quick, int attach, State *out)
{
    dWorldID w = dWorldCreate();
    dBodyID a, b, bodies[2];
    dMass m;
    dQuaternion q;
    dJointID j;
    int i, k, n = 0, expect_debug;
    dWorldSetGravity(w, 0, 0, -9.81);
    a = dBodyCreate(w);
    b = dBodyCreate(w);
    dMassSetBox(&m, 1, 1, 0.5, 0.3);
    dBodySetMass(a, &m);
    dMassSetBox(&m, 2, 0.4, 0.5, 0.6);
    dBodySetMass(b, &m);
    dBodySetPosition(a, 0.1, 0.2, 1);
    dBodySetPosition(b, 1.1, -0.3, 1.4);
    dQFromAxisAndAngle(q, 0.3, 1, -0.4, 0.7);
    dBodySetQuaternion(a, q);
    dQFromAxisAndAngle(q, -1, 0.2, 0.5, 1.1);
    dBodySetQuaternion(b, q);
    dBodySetLinearVel(a, 0.3, 0, 0.1);
    dBodySetAngularVel(a, -0.1, 0.4, 0.2);
    dBodySetLinearVel(b, -0.2, 0.1, 0.3);
    dBodySetAngularVel(b, 0.2, -0.5, 0.3);
    j = create(w, type);
    debug_reports = messages = 0;
    if (attach == 0)
        dJointAttach(j, a, b);
    else if (attach == 1)
        dJointAttach(j, a, 0);
    else
        dJointAttach(j, 0, b);
    expect_debug = attach != 0 && (type == dJointTypeHinge2 || type == dJointTypeTransmission);
    check(debug_reports == expect_debug, "dJointAttach reported only for a one-body hinge2/transmission", type, quick,
          attach);
    for (i = 0; i < 200; i++) {
        if (quick)
            dWorldQuickStep(w, 0.01);
        else
            dWorldStep(w, 0.01);
    }
    check(debug_reports == expect_debug && messages == 0, "the steps report nothing", type, quick, attach);
    bodies[0] = a;
    bodies[1] = b;
    for (k = 0; k < 2; k++) {
        const dReal *p = dBodyGetPosition(bodies[k]), *r = dBodyGetQuaternion(bodies[k]);
        const dReal *v = dBodyGetLinearVel(bodies[k]), *av = dBodyGetAngularVel(bodies[k]);
        for (i = 0; i < 3; i++) out->v[n++] = p[i];
        for (i = 0; i < 4; i++) out->v[n++] = r[i];
        for (i = 0; i < 3; i++) out->v[n++] = v[i];
        for (i = 0; i < 3; i++) out->v[n++] = av[i];
        check(dBodyIsEnabled(bodies[k]), "bodies stay enabled", type, quick, attach);
    }
    for (i = 0; i < n; i++)
        check(isfinite(out->v[i]), "state finite", type, quick, attach);
    dWorldDestroy(w);
}

int main(void)
{
    int type, quick, attach;
    State s, ball;
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    dSetMessageHandler(on_message);
    for (type = dJointTypeBall; type <= dJointTypeTransmission; type++) {
        if (type == dJointTypeContact)
            continue;
        for (quick = 0; quick < 2; quick++)
            for (attach = 0; attach < 3; attach++) {
                dRandSetSeed(1);
                run(type, quick, attach, &s);
                if (type == dJointTypeDHinge) {
                    dRandSetSeed(1);
                    run(dJointTypeDBall, quick, attach, &ball);
                    check(memcmp(&s, &ball, sizeof s) == 0, "an axis-less double hinge moves as a double ball",
                          type, quick, attach);
                }
            }
    }
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d checks\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
