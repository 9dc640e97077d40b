/* Bad input to every dBody* function: each bad call must be reported
 * through the installed handlers with the function's name in the message,
 * must return the neutral value, and must leave every observable property
 * of the world's bodies bit-identical. Runs against OUR library only (ODE
 * itself aborts on most of these). Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <math.h>

static char last_msg[1024];
static int reports, errors, messages;
static void on_debug(int num, const char *msg, va_list ap) {
    (void)num; vsnprintf(last_msg, sizeof last_msg, msg, ap); reports++;
}
static void on_error(int num, const char *msg, va_list ap) {
    (void)num; vsnprintf(last_msg, sizeof last_msg, msg, ap); errors++;
}
static void on_message(int num, const char *msg, va_list ap) {
    (void)num; vsnprintf(last_msg, sizeof last_msg, msg, ap); messages++;
}

/* Every observable property of a body, as raw bytes. */
typedef struct { unsigned char bytes[4096]; size_t n; } Snap;
static void put(Snap *s, const void *p, size_t n) { memcpy(s->bytes + s->n, p, n); s->n += n; }
static void putr(Snap *s, dReal v) { put(s, &v, sizeof v); }
static void puti(Snap *s, int v) { put(s, &v, sizeof v); }
static void snap_body(Snap *s, dBodyID b) {
    put(s, dBodyGetPosition(b), 4 * sizeof(dReal));
    put(s, dBodyGetRotation(b), 12 * sizeof(dReal));
    put(s, dBodyGetQuaternion(b), 4 * sizeof(dReal));
    put(s, dBodyGetLinearVel(b), 4 * sizeof(dReal));
    put(s, dBodyGetAngularVel(b), 4 * sizeof(dReal));
    put(s, dBodyGetForce(b), 4 * sizeof(dReal));
    put(s, dBodyGetTorque(b), 4 * sizeof(dReal));
    dMass m; memset(&m, 0, sizeof m); dBodyGetMass(b, &m); put(s, &m, sizeof m);
    dVector3 a = {0, 0, 0, 0}; dBodyGetFiniteRotationAxis(b, a); put(s, a, sizeof a);
    puti(s, dBodyIsKinematic(b)); puti(s, dBodyIsEnabled(b)); puti(s, dBodyGetGravityMode(b));
    puti(s, dBodyGetGyroscopicMode(b)); puti(s, dBodyGetFiniteRotationMode(b));
    puti(s, dBodyGetAutoDisableFlag(b)); puti(s, dBodyGetAutoDisableSteps(b));
    puti(s, dBodyGetAutoDisableAverageSamplesCount(b));
    putr(s, dBodyGetAutoDisableTime(b)); putr(s, dBodyGetAutoDisableLinearThreshold(b));
    putr(s, dBodyGetAutoDisableAngularThreshold(b));
    putr(s, dBodyGetLinearDamping(b)); putr(s, dBodyGetAngularDamping(b));
    putr(s, dBodyGetLinearDampingThreshold(b)); putr(s, dBodyGetAngularDampingThreshold(b));
    putr(s, dBodyGetMaxAngularSpeed(b));
    puti(s, dBodyGetNumJoints(b));
    void *p = dBodyGetData(b); put(s, &p, sizeof p);
    p = dBodyGetWorld(b); put(s, &p, sizeof p);
    p = dBodyGetFirstGeom(b); put(s, &p, sizeof p);
}

static dWorldID w;
static dBodyID b1, b2;
static void snap_all(Snap *s) { s->n = 0; snap_body(s, b1); snap_body(s, b2); }

static int checks, failures;
static Snap before, after;
static int r0;
static void pre(void) { snap_all(&before); r0 = reports; last_msg[0] = 0; }
static void post(const char *fn, const char *what, int line) {
    checks++;
    int r1 = reports;
    snap_all(&after);
    const char *why = 0;
    if (r1 != r0 + 1) why = "not reported exactly once";
    else if (!strstr(last_msg, fn)) why = "message does not name the function";
    else if (before.n != after.n || memcmp(before.bytes, after.bytes, before.n)) why = "state changed";
    if (why) { failures++; printf("FAIL line %d: %s(%s): %s [%d reports] msg='%s'\n", line, fn, what, why, r1 - r0, last_msg); }
}
/* BAD(fn, description, statement) */
#define BAD(fn, what, ...) do { pre(); __VA_ARGS__; post(#fn, what, __LINE__); } while (0)
/* Same, and the message must also name the argument. */
#define BADARG(fn, arg, ...) do { pre(); __VA_ARGS__; post(#fn, arg, __LINE__); \
    if (!strstr(last_msg, "'" arg "'")) { failures++; printf("FAIL line %d: %s: message does not name '%s': %s\n", __LINE__, #fn, arg, last_msg); } } while (0)
#define EXPECT(cond) do { checks++; if (!(cond)) { failures++; printf("FAIL line %d: %s\n", __LINE__, #cond); } } while (0)

static void moved(dBodyID b) { (void)b; }

/* Every function with a body handle `b` that is NULL, destroyed, or not a body. */
static void all_with_body(dBodyID b, const char *what) {
    dVector3 v; dMatrix3 R; dQuaternion q = {1, 0, 0, 0}; dMass m;
    memset(&m, 0, sizeof m); m.mass = 1; m.I[0] = m.I[5] = m.I[10] = 1;
    dMatrix3 I3 = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    BAD(dBodyDestroy, what, dBodyDestroy(b));
    BAD(dBodyGetWorld, what, EXPECT(dBodyGetWorld(b) == 0));
    BAD(dBodySetData, what, dBodySetData(b, &v));
    BAD(dBodyGetData, what, EXPECT(dBodyGetData(b) == 0));
    BAD(dBodySetPosition, what, dBodySetPosition(b, 1, 2, 3));
    BAD(dBodySetRotation, what, dBodySetRotation(b, I3));
    BAD(dBodySetQuaternion, what, dBodySetQuaternion(b, q));
    BAD(dBodySetLinearVel, what, dBodySetLinearVel(b, 1, 2, 3));
    BAD(dBodySetAngularVel, what, dBodySetAngularVel(b, 1, 2, 3));
    BAD(dBodyGetPosition, what, EXPECT(dBodyGetPosition(b) == 0));
    BAD(dBodyCopyPosition, what, dBodyCopyPosition(b, v));
    BAD(dBodyGetRotation, what, EXPECT(dBodyGetRotation(b) == 0));
    BAD(dBodyCopyRotation, what, dBodyCopyRotation(b, R));
    BAD(dBodyGetQuaternion, what, EXPECT(dBodyGetQuaternion(b) == 0));
    BAD(dBodyCopyQuaternion, what, dBodyCopyQuaternion(b, q));
    BAD(dBodyGetLinearVel, what, EXPECT(dBodyGetLinearVel(b) == 0));
    BAD(dBodyGetAngularVel, what, EXPECT(dBodyGetAngularVel(b) == 0));
    BAD(dBodySetMass, what, dBodySetMass(b, &m));
    BAD(dBodyGetMass, what, dBodyGetMass(b, &m));
    BAD(dBodyAddForce, what, dBodyAddForce(b, 1, 2, 3));
    BAD(dBodyAddTorque, what, dBodyAddTorque(b, 1, 2, 3));
    BAD(dBodyAddRelForce, what, dBodyAddRelForce(b, 1, 2, 3));
    BAD(dBodyAddRelTorque, what, dBodyAddRelTorque(b, 1, 2, 3));
    BAD(dBodyAddForceAtPos, what, dBodyAddForceAtPos(b, 1, 2, 3, 4, 5, 6));
    BAD(dBodyAddForceAtRelPos, what, dBodyAddForceAtRelPos(b, 1, 2, 3, 4, 5, 6));
    BAD(dBodyAddRelForceAtPos, what, dBodyAddRelForceAtPos(b, 1, 2, 3, 4, 5, 6));
    BAD(dBodyAddRelForceAtRelPos, what, dBodyAddRelForceAtRelPos(b, 1, 2, 3, 4, 5, 6));
    BAD(dBodyGetForce, what, EXPECT(dBodyGetForce(b) == 0));
    BAD(dBodyGetTorque, what, EXPECT(dBodyGetTorque(b) == 0));
    BAD(dBodySetForce, what, dBodySetForce(b, 1, 2, 3));
    BAD(dBodySetTorque, what, dBodySetTorque(b, 1, 2, 3));
    BAD(dBodyGetRelPointPos, what, dBodyGetRelPointPos(b, 1, 2, 3, v));
    BAD(dBodyGetRelPointVel, what, dBodyGetRelPointVel(b, 1, 2, 3, v));
    BAD(dBodyGetPointVel, what, dBodyGetPointVel(b, 1, 2, 3, v));
    BAD(dBodyGetPosRelPoint, what, dBodyGetPosRelPoint(b, 1, 2, 3, v));
    BAD(dBodyVectorToWorld, what, dBodyVectorToWorld(b, 1, 2, 3, v));
    BAD(dBodyVectorFromWorld, what, dBodyVectorFromWorld(b, 1, 2, 3, v));
    BAD(dBodySetFiniteRotationMode, what, dBodySetFiniteRotationMode(b, 1));
    BAD(dBodySetFiniteRotationAxis, what, dBodySetFiniteRotationAxis(b, 1, 0, 0));
    BAD(dBodyGetFiniteRotationMode, what, EXPECT(dBodyGetFiniteRotationMode(b) == 0));
    BAD(dBodyGetFiniteRotationAxis, what, dBodyGetFiniteRotationAxis(b, v));
    BAD(dBodyGetNumJoints, what, EXPECT(dBodyGetNumJoints(b) == 0));
    BAD(dBodyGetJoint, what, EXPECT(dBodyGetJoint(b, 0) == 0));
    BAD(dBodySetDynamic, what, dBodySetDynamic(b));
    BAD(dBodySetKinematic, what, dBodySetKinematic(b));
    BAD(dBodyIsKinematic, what, EXPECT(dBodyIsKinematic(b) == 0));
    BAD(dBodyEnable, what, dBodyEnable(b));
    BAD(dBodyDisable, what, dBodyDisable(b));
    BAD(dBodyIsEnabled, what, EXPECT(dBodyIsEnabled(b) == 0));
    BAD(dBodySetGravityMode, what, dBodySetGravityMode(b, 0));
    BAD(dBodyGetGravityMode, what, EXPECT(dBodyGetGravityMode(b) == 0));
    BAD(dBodySetMovedCallback, what, dBodySetMovedCallback(b, moved));
    BAD(dBodyGetFirstGeom, what, EXPECT(dBodyGetFirstGeom(b) == 0));
    BAD(dBodySetDampingDefaults, what, dBodySetDampingDefaults(b));
    BAD(dBodyGetLinearDamping, what, EXPECT(dBodyGetLinearDamping(b) == 0));
    BAD(dBodySetLinearDamping, what, dBodySetLinearDamping(b, 0.5));
    BAD(dBodyGetAngularDamping, what, EXPECT(dBodyGetAngularDamping(b) == 0));
    BAD(dBodySetAngularDamping, what, dBodySetAngularDamping(b, 0.5));
    BAD(dBodySetDamping, what, dBodySetDamping(b, 0.5, 0.5));
    BAD(dBodyGetLinearDampingThreshold, what, EXPECT(dBodyGetLinearDampingThreshold(b) == 0));
    BAD(dBodySetLinearDampingThreshold, what, dBodySetLinearDampingThreshold(b, 1));
    BAD(dBodyGetAngularDampingThreshold, what, EXPECT(dBodyGetAngularDampingThreshold(b) == 0));
    BAD(dBodySetAngularDampingThreshold, what, dBodySetAngularDampingThreshold(b, 1));
    BAD(dBodyGetMaxAngularSpeed, what, EXPECT(dBodyGetMaxAngularSpeed(b) == 0));
    BAD(dBodySetMaxAngularSpeed, what, dBodySetMaxAngularSpeed(b, 1));
    BAD(dBodyGetGyroscopicMode, what, EXPECT(dBodyGetGyroscopicMode(b) == 0));
    BAD(dBodySetGyroscopicMode, what, dBodySetGyroscopicMode(b, 0));
    BAD(dBodyGetAutoDisableLinearThreshold, what, EXPECT(dBodyGetAutoDisableLinearThreshold(b) == 0));
    BAD(dBodySetAutoDisableLinearThreshold, what, dBodySetAutoDisableLinearThreshold(b, 1));
    BAD(dBodyGetAutoDisableAngularThreshold, what, EXPECT(dBodyGetAutoDisableAngularThreshold(b) == 0));
    BAD(dBodySetAutoDisableAngularThreshold, what, dBodySetAutoDisableAngularThreshold(b, 1));
    BAD(dBodyGetAutoDisableAverageSamplesCount, what, EXPECT(dBodyGetAutoDisableAverageSamplesCount(b) == 0));
    BAD(dBodySetAutoDisableAverageSamplesCount, what, dBodySetAutoDisableAverageSamplesCount(b, 3));
    BAD(dBodyGetAutoDisableSteps, what, EXPECT(dBodyGetAutoDisableSteps(b) == 0));
    BAD(dBodySetAutoDisableSteps, what, dBodySetAutoDisableSteps(b, 3));
    BAD(dBodyGetAutoDisableTime, what, EXPECT(dBodyGetAutoDisableTime(b) == 0));
    BAD(dBodySetAutoDisableTime, what, dBodySetAutoDisableTime(b, 3));
    BAD(dBodyGetAutoDisableFlag, what, EXPECT(dBodyGetAutoDisableFlag(b) == 0));
    BAD(dBodySetAutoDisableFlag, what, dBodySetAutoDisableFlag(b, 1));
    BAD(dBodySetAutoDisableDefaults, what, dBodySetAutoDisableDefaults(b));
}

int main(void) {
    dSetDebugHandler(on_debug);
    dSetErrorHandler(on_error);
    dSetMessageHandler(on_message);
    const dReal nan = NAN, inf = INFINITY;

    w = dWorldCreate();
    b1 = dBodyCreate(w);
    b2 = dBodyCreate(w);
    /* give b1 a non-default state so that any stray write shows */
    dBodySetPosition(b1, 1, -2, 3);
    dQuaternion q0 = {0.9, 0.1, -0.3, 0.2};
    dBodySetQuaternion(b1, q0);
    dBodySetLinearVel(b1, 0.5, 0.25, -1);
    dBodySetAngularVel(b1, -0.5, 2, 0.125);
    dBodyAddForce(b1, 3, 4, 5);
    dBodyAddTorque(b1, -3, 4, -5);
    dMass m0; memset(&m0, 0, sizeof m0);
    m0.mass = 2.5; m0.I[0] = 1; m0.I[5] = 2; m0.I[10] = 3; m0.I[1] = m0.I[4] = 0.1;
    dBodySetMass(b1, &m0);
    dBodySetFiniteRotationAxis(b1, 0, 0, 2);
    dBodySetFiniteRotationMode(b1, 1);
    dBodySetAutoDisableFlag(b1, 1);
    dBodySetAutoDisableSteps(b1, 7);
    dBodySetAutoDisableTime(b1, 0.5);
    dBodySetAutoDisableAverageSamplesCount(b1, 4);
    dBodySetDamping(b1, 0.1, 0.2);
    dBodySetLinearDampingThreshold(b1, 0.3);
    dBodySetMaxAngularSpeed(b1, 40);
    dBodySetData(b1, &checks);
    dBodySetKinematic(b2);
    EXPECT(reports == 0 && errors == 0 && messages == 0);

    /* Bad handles: NULL, a world passed as a body, a destroyed body. */
    all_with_body(0, "NULL");
    all_with_body((dBodyID)w, "world as body");
    dBodyID dead = dBodyCreate(w);
    dBodyDestroy(dead);
    all_with_body(dead, "destroyed");
    EXPECT(strstr(last_msg, "destroyed") != 0);

    /* Bodies of a destroyed world. */
    dWorldID w2 = dWorldCreate();
    dBodyID orphan = dBodyCreate(w2);
    dWorldDestroy(w2);
    all_with_body(orphan, "body of destroyed world");
    BADARG(dBodyCreate, "w", EXPECT(dBodyCreate(w2) == 0));
    BADARG(dBodyCreate, "w", EXPECT(dBodyCreate(0) == 0));
    BADARG(dBodyCreate, "w", EXPECT(dBodyCreate((dWorldID)b1) == 0));

    /* Non-finite reals. */
    BADARG(dBodySetPosition, "x", dBodySetPosition(b1, nan, 0, 0));
    BADARG(dBodySetPosition, "y", dBodySetPosition(b1, 0, inf, 0));
    BADARG(dBodySetPosition, "z", dBodySetPosition(b1, 0, 0, -inf));
    BADARG(dBodySetLinearVel, "x", dBodySetLinearVel(b1, nan, 0, 0));
    BADARG(dBodySetAngularVel, "z", dBodySetAngularVel(b1, 0, 0, inf));
    BADARG(dBodyAddForce, "fy", dBodyAddForce(b1, 0, nan, 0));
    BADARG(dBodyAddTorque, "fx", dBodyAddTorque(b1, inf, 0, 0));
    BADARG(dBodyAddRelForce, "fz", dBodyAddRelForce(b1, 0, 0, nan));
    BADARG(dBodyAddRelTorque, "fy", dBodyAddRelTorque(b1, 0, -inf, 0));
    BADARG(dBodyAddForceAtPos, "px", dBodyAddForceAtPos(b1, 1, 1, 1, nan, 0, 0));
    BADARG(dBodyAddForceAtPos, "fx", dBodyAddForceAtPos(b1, nan, 1, 1, 0, 0, 0));
    BADARG(dBodyAddForceAtRelPos, "pz", dBodyAddForceAtRelPos(b1, 1, 1, 1, 0, 0, inf));
    BADARG(dBodyAddRelForceAtPos, "py", dBodyAddRelForceAtPos(b1, 1, 1, 1, 0, nan, 0));
    BADARG(dBodyAddRelForceAtRelPos, "fz", dBodyAddRelForceAtRelPos(b1, 1, 1, inf, 0, 0, 0));
    BADARG(dBodySetForce, "x", dBodySetForce(b1, nan, 0, 0));
    BADARG(dBodySetTorque, "y", dBodySetTorque(b1, 0, nan, 0));
    BADARG(dBodySetFiniteRotationAxis, "x", dBodySetFiniteRotationAxis(b1, nan, 0, 0));
    {
        dVector3 r;
        BADARG(dBodyGetRelPointPos, "px", dBodyGetRelPointPos(b1, nan, 0, 0, r));
        BADARG(dBodyGetRelPointVel, "py", dBodyGetRelPointVel(b1, 0, inf, 0, r));
        BADARG(dBodyGetPointVel, "pz", dBodyGetPointVel(b1, 0, 0, nan, r));
        BADARG(dBodyGetPosRelPoint, "px", dBodyGetPosRelPoint(b1, -inf, 0, 0, r));
        BADARG(dBodyVectorToWorld, "py", dBodyVectorToWorld(b1, 0, nan, 0, r));
        BADARG(dBodyVectorFromWorld, "pz", dBodyVectorFromWorld(b1, 0, 0, inf, r));
    }

    /* NULL pointers. */
    BADARG(dBodySetRotation, "R", dBodySetRotation(b1, 0));
    BADARG(dBodySetQuaternion, "q", dBodySetQuaternion(b1, 0));
    BADARG(dBodyCopyPosition, "pos", dBodyCopyPosition(b1, 0));
    BADARG(dBodyCopyRotation, "R", dBodyCopyRotation(b1, 0));
    BADARG(dBodyCopyQuaternion, "quat", dBodyCopyQuaternion(b1, 0));
    BADARG(dBodySetMass, "mass", dBodySetMass(b1, 0));
    BADARG(dBodyGetMass, "mass", dBodyGetMass(b1, 0));
    BADARG(dBodyGetRelPointPos, "result", dBodyGetRelPointPos(b1, 1, 2, 3, 0));
    BADARG(dBodyGetRelPointVel, "result", dBodyGetRelPointVel(b1, 1, 2, 3, 0));
    BADARG(dBodyGetPointVel, "result", dBodyGetPointVel(b1, 1, 2, 3, 0));
    BADARG(dBodyGetPosRelPoint, "result", dBodyGetPosRelPoint(b1, 1, 2, 3, 0));
    BADARG(dBodyVectorToWorld, "result", dBodyVectorToWorld(b1, 1, 2, 3, 0));
    BADARG(dBodyVectorFromWorld, "result", dBodyVectorFromWorld(b1, 1, 2, 3, 0));
    BADARG(dBodyGetFiniteRotationAxis, "result", dBodyGetFiniteRotationAxis(b1, 0));

    /* Rotations that are not rotations. */
    {
        dMatrix3 Z = {0};
        dMatrix3 P = {1, 2, 3, 0, 2, 4, 6, 0, 0, 0, 1, 0};     /* parallel rows */
        dMatrix3 Z1 = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};    /* zero row 1 */
        dMatrix3 N = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, nan, 0};   /* NaN */
        dMatrix3 I = {1, 0, 0, 0, 0, inf, 0, 0, 0, 0, 1, 0};   /* infinity */
        dMatrix3 NP = {1, 0.3, 0, 0, 1, 0.3 + 1e-11, 2e-12, 0, 0, 0, 1, 0}; /* ODE asserts on these */
        BADARG(dBodySetRotation, "R", dBodySetRotation(b1, NP));
        BADARG(dBodySetRotation, "R", dBodySetRotation(b1, Z));
        BADARG(dBodySetRotation, "R", dBodySetRotation(b1, P));
        BADARG(dBodySetRotation, "R", dBodySetRotation(b1, Z1));
        BADARG(dBodySetRotation, "R", dBodySetRotation(b1, N));
        BADARG(dBodySetRotation, "R", dBodySetRotation(b1, I));
        /* (1e200, 1, 0, 0) is not refused: ODE scales it by 1/sqrt(inf) and
         * stores the zero quaternion (see diff_checks_boundaries_body.c). */
        dQuaternion q1 = {0, 0, 0, 0}, q2 = {1e-200, 0, 0, 0}, q4 = {1, nan, 0, 0},
                    q5 = {inf, 0, 0, 0};
        BADARG(dBodySetQuaternion, "q", dBodySetQuaternion(b1, q1));
        BADARG(dBodySetQuaternion, "q", dBodySetQuaternion(b1, q2));
        BADARG(dBodySetQuaternion, "q", dBodySetQuaternion(b1, q4));
        BADARG(dBodySetQuaternion, "q", dBodySetQuaternion(b1, q5));
    }

    /* Masses ODE refuses (and non-finite ones). */
    {
        dMass m;
#define MASS(field_assignments) do { m = m0; field_assignments; BADARG(dBodySetMass, "mass", dBodySetMass(b2, &m)); } while (0)
        MASS(m.mass = 0);
        MASS(m.mass = -1);
        MASS(m.mass = nan);
        MASS(m.mass = inf);
        MASS(m.I[0] = -1);
        MASS(m.I[5] = 0);
        MASS(m.I[4] = 5);                       /* lower triangle makes it indefinite */
        MASS(m.I[10] = nan);
        MASS(m.I[1] = inf);
        MASS(m.c[0] = 0.01);                    /* centre of mass off the origin */
        MASS(m.c[2] = -1e-15);
        MASS(m.c[1] = nan);
        EXPECT(dBodyIsKinematic(b2) == 1);      /* a refused mass does not make it dynamic */
    }

    /* Out-of-range values. */
    BADARG(dBodyGetJoint, "index", EXPECT(dBodyGetJoint(b1, -1) == 0));
    BADARG(dBodyGetJoint, "index", EXPECT(dBodyGetJoint(b1, 0) == 0));
    BADARG(dBodySetAutoDisableLinearThreshold, "linear_average_threshold", dBodySetAutoDisableLinearThreshold(b1, nan));
    BADARG(dBodySetAutoDisableTime, "time", dBodySetAutoDisableTime(b1, nan));
    BADARG(dBodySetAutoDisableAverageSamplesCount, "average_samples_count",
           dBodySetAutoDisableAverageSamplesCount(b1, (unsigned)-1));
    BADARG(dBodySetAngularDamping, "scale", dBodySetAngularDamping(b1, nan));
    BADARG(dBodySetAngularDampingThreshold, "threshold", dBodySetAngularDampingThreshold(b1, nan));
    BADARG(dBodySetMaxAngularSpeed, "max_speed", dBodySetMaxAngularSpeed(b1, nan));
    BADARG(dBodySetLinearDamping, "scale", dBodySetLinearDamping(b1, inf));
    BADARG(dBodySetDamping, "linear_scale", dBodySetDamping(b1, nan, 0.5));

    /* Values outside their documented range that ODE stores and steps with
     * (it asserts on none of them): accepted silently, stored as ODE does
     * (thresholds squared, so their sign is lost). diff_checks_boundaries_body.c
     * compares the results with Debian's. */
    pre();
    dBodySetLinearDamping(b1, 1.5);
    EXPECT(dBodyGetLinearDamping(b1) == 1.5);
    dBodySetDamping(b1, -0.01, 2);
    EXPECT(dBodyGetLinearDamping(b1) == -0.01 && dBodyGetAngularDamping(b1) == 2);
    dBodySetLinearDampingThreshold(b1, -1);
    EXPECT(dBodyGetLinearDampingThreshold(b1) == 1);
    dBodySetAutoDisableLinearThreshold(b1, -0.5);
    EXPECT(dBodyGetAutoDisableLinearThreshold(b1) == 0.5);
    dBodySetAutoDisableSteps(b1, -1);
    EXPECT(dBodyGetAutoDisableSteps(b1) == -1);
    dBodySetAutoDisableTime(b1, -1);
    EXPECT(dBodyGetAutoDisableTime(b1) == -1);
    dBodySetMaxAngularSpeed(b1, -1);
    EXPECT(dBodyGetMaxAngularSpeed(b1) == -1);
    {
        dQuaternion big = {1e200, 1, 0, 0};
        dBodySetQuaternion(b1, big);
        const dReal *q = dBodyGetQuaternion(b1), *R = dBodyGetRotation(b1);
        EXPECT(q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0);
        EXPECT(R[0] == 1 && R[5] == 1 && R[10] == 1 && R[1] == 0 && R[4] == 0);
    }
    EXPECT(reports == r0);

    /* Good calls are still accepted silently afterwards. */
    pre();
    dBodySetPosition(b1, 4, 5, 6);
    dBodySetMaxAngularSpeed(b1, dInfinity);
    dBodySetAutoDisableAverageSamplesCount(b1, 0);
    EXPECT(reports == r0);
    EXPECT(dBodyGetPosition(b1)[2] == 6);

    EXPECT(errors == 0 && messages == 0);
    dWorldDestroy(w);
    /* after dWorldDestroy its bodies are gone too */
    r0 = reports;
    dBodySetPosition(b1, 1, 1, 1);
    EXPECT(reports == r0 + 1 && strstr(last_msg, "dBodySetPosition") && strstr(last_msg, "destroyed"));
    EXPECT(dBodyGetWorld(b2) == 0 && reports == r0 + 2);
    if (failures) { printf("FAILED %d of %d checks\n", failures, checks); return 1; }
    printf("PASS %d\n", checks);
    return 0;
}
