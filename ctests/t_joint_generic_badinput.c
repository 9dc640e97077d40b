/* Bad input to every joint-generic function (and dJointCreateNull): each
 * bad call must be reported through the debug handler with the function's
 * name in the message, return the neutral value, and leave every
 * observable property of the joints, bodies and groups unchanged. Runs
 * against OUR library only (ODE itself aborts on most of these). Prints
 * "PASS <n>" on success. */
#include <ode/ode.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

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

typedef struct { unsigned char bytes[4096]; size_t n; } Snap;
static void put(Snap *s, const void *p, size_t n) { memcpy(s->bytes + s->n, p, n); s->n += n; }
static void putp(Snap *s, const void *p) { put(s, &p, sizeof p); }
static void puti(Snap *s, int v) { put(s, &v, sizeof v); }

static dWorldID w, w2;
static dBodyID b[3], other, gone_b;
static dJointID j[3], gone_j;
static dJointGroupID g, gone_g;
static dJointFeedback fb;
static int data;

static void snap_all(Snap *s) {
    int i, k;
    s->n = 0;
    for (i = 0; i < 3; i++) {
        puti(s, dBodyGetNumJoints(b[i]));
        for (k = 0; k < dBodyGetNumJoints(b[i]); k++) putp(s, dBodyGetJoint(b[i], k));
    }
    for (i = 0; i < 3; i++) {
        puti(s, dJointGetNumBodies(j[i]));
        putp(s, dJointGetBody(j[i], 0));
        putp(s, dJointGetBody(j[i], 1));
        puti(s, dJointIsEnabled(j[i]));
        putp(s, dJointGetData(j[i]));
        putp(s, dJointGetFeedback(j[i]));
        puti(s, (int)dJointGetType(j[i]));
    }
    puti(s, dBodyGetNumJoints(other));
}

static int checks, failures;
static Snap before, after;
static int r0;
static void pre(void) { snap_all(&before); r0 = reports; last_msg[0] = 0; }
static void post(const char *fn, const char *what, int line) {
    const char *why = 0;
    int r1 = reports;
    checks++;
    snap_all(&after);
    if (r1 != r0 + 1) why = "not reported exactly once";
    else if (!strstr(last_msg, fn)) why = "message does not name the function";
    else if (before.n != after.n || memcmp(before.bytes, after.bytes, before.n)) why = "state changed";
    if (why) { failures++; printf("FAIL line %d: %s(%s): %s [%d reports] msg='%s'\n", line, fn, what, why, r1 - r0, last_msg); }
}
#define BAD(fn, what, ...) do { pre(); __VA_ARGS__; post(#fn, what, __LINE__); } while (0)
#define BADARG(fn, arg, ...) do { pre(); __VA_ARGS__; post(#fn, arg, __LINE__); \
    if (!strstr(last_msg, "'" arg "'")) { failures++; printf("FAIL line %d: %s: message does not name '%s': %s\n", __LINE__, #fn, arg, last_msg); } } while (0)
#define EXPECT(cond) do { checks++; if (!(cond)) { failures++; printf("FAIL line %d: %s\n", __LINE__, #cond); } } while (0)

/* Every function taking a joint, with a bad joint handle. */
static void all_with_joint(dJointID x, const char *what) {
    BAD(dJointDestroy, what, dJointDestroy(x));
    BAD(dJointGetNumBodies, what, EXPECT(dJointGetNumBodies(x) == 0));
    BAD(dJointAttach, what, dJointAttach(x, b[0], b[1]));
    BAD(dJointEnable, what, dJointEnable(x));
    BAD(dJointDisable, what, dJointDisable(x));
    BAD(dJointIsEnabled, what, EXPECT(dJointIsEnabled(x) == 0));
    BAD(dJointSetData, what, dJointSetData(x, &data));
    BAD(dJointGetData, what, EXPECT(dJointGetData(x) == 0));
    BAD(dJointGetType, what, EXPECT(dJointGetType(x) == dJointTypeNone));
    BAD(dJointGetBody, what, EXPECT(dJointGetBody(x, 0) == 0));
    BAD(dJointSetFeedback, what, dJointSetFeedback(x, &fb));
    BAD(dJointGetFeedback, what, EXPECT(dJointGetFeedback(x) == 0));
}

/* Every function taking a group, with a bad group handle. */
static void all_with_group(dJointGroupID x, const char *what) {
    BAD(dJointGroupEmpty, what, dJointGroupEmpty(x));
    BAD(dJointGroupDestroy, what, dJointGroupDestroy(x));
    if (x) BAD(dJointCreateNull, what, EXPECT(dJointCreateNull(w, x) == 0)); /* NULL: no group */
}

/* Connectivity queries with a bad body handle in either place. */
static void all_with_body(dBodyID x, const char *what) {
    dJointID out[4];
    BAD(dConnectingJoint, what, EXPECT(dConnectingJoint(x, b[0]) == 0));
    BAD(dConnectingJoint, what, EXPECT(dConnectingJoint(b[0], x) == 0));
    BAD(dConnectingJointList, what, EXPECT(dConnectingJointList(x, b[0], out) == 0));
    BAD(dConnectingJointList, what, EXPECT(dConnectingJointList(b[0], x, out) == 0));
    BAD(dAreConnected, what, EXPECT(dAreConnected(x, b[0]) == 0));
    BAD(dAreConnected, what, EXPECT(dAreConnected(b[0], x) == 0));
    BAD(dAreConnectedExcluding, what, EXPECT(dAreConnectedExcluding(x, b[0], dJointTypeBall) == 0));
    BAD(dAreConnectedExcluding, what, EXPECT(dAreConnectedExcluding(b[0], x, dJointTypeBall) == 0));
    BAD(dJointAttach, what, dJointAttach(j[0], x, b[1]));
    BAD(dJointAttach, what, dJointAttach(j[0], b[1], x));
}

int main(void) {
    int i;
    dJointID out[4];
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    dSetErrorHandler(on_error);
    dSetMessageHandler(on_message);
    w = dWorldCreate();
    w2 = dWorldCreate();
    g = dJointGroupCreate(0);
    for (i = 0; i < 3; i++) b[i] = dBodyCreate(w);
    other = dBodyCreate(w2);
    for (i = 0; i < 3; i++) j[i] = dJointCreateNull(w, i == 2 ? g : 0);
    dJointAttach(j[0], b[0], b[1]);
    dJointAttach(j[1], 0, b[1]);
    dJointAttach(j[2], b[2], b[0]);
    dJointSetData(j[0], &data);
    dJointSetFeedback(j[1], &fb);
    dJointDisable(j[2]);
    gone_b = dBodyCreate(w);
    dBodyDestroy(gone_b);
    gone_j = dJointCreateNull(w, 0);
    dJointDestroy(gone_j);
    gone_g = dJointGroupCreate(0);
    dJointGroupDestroy(gone_g);
    EXPECT(reports == 0);

    all_with_joint(0, "NULL");
    all_with_joint(gone_j, "destroyed");
    all_with_joint((dJointID)b[0], "a body");
    all_with_joint((dJointID)g, "a group");
    all_with_group(0, "NULL");
    all_with_group(gone_g, "destroyed");
    all_with_group((dJointGroupID)j[0], "a joint");
    all_with_body(gone_b, "destroyed");
    all_with_body((dBodyID)j[0], "a joint");
    all_with_body((dBodyID)w, "a world");

    BADARG(dJointCreateNull, "w", EXPECT(dJointCreateNull(0, 0) == 0));
    BADARG(dJointCreateNull, "w", EXPECT(dJointCreateNull((dWorldID)b[0], g) == 0));
    BAD(dJointAttach, "same body twice", dJointAttach(j[0], b[2], b[2]));
    BAD(dJointAttach, "body of another world", dJointAttach(j[0], b[2], other));
    BAD(dJointAttach, "body of another world", dJointAttach(j[1], other, 0));
    BADARG(dJointGetBody, "index", EXPECT(dJointGetBody(j[0], 2) == 0));
    BADARG(dJointGetBody, "index", EXPECT(dJointGetBody(j[0], -1) == 0));
    BAD(dConnectingJoint, "both NULL", EXPECT(dConnectingJoint(0, 0) == 0));
    BAD(dConnectingJointList, "both NULL", EXPECT(dConnectingJointList(0, 0, out) == 0));
    BADARG(dConnectingJointList, "out", EXPECT(dConnectingJointList(b[0], b[1], 0) == 0));
    BADARG(dAreConnected, "b1", EXPECT(dAreConnected(0, b[1]) == 0));
    BADARG(dAreConnectedExcluding, "b1", EXPECT(dAreConnectedExcluding(0, 0, dJointTypeNull) == 0));

    /* Valid calls that look odd are accepted silently, as in ODE. */
    pre();
    EXPECT(dConnectingJoint(0, b[1]) == j[1]);
    EXPECT(dAreConnected(b[1], 0) == 1);
    EXPECT(dConnectingJointList(b[1], b[0], out) == 1 && out[0] == j[0]);
    dJointDestroy(j[2]); /* grouped: ignored without a report */
    EXPECT(dJointGetNumBodies(j[2]) == 2);
    EXPECT(reports == r0);

    EXPECT(errors == 0 && messages == 0);
    dWorldDestroy(w);
    EXPECT(messages == 1); /* the grouped joint outlives its world */
    r0 = reports;
    EXPECT(dJointGetType(j[0]) == dJointTypeNone && reports == r0 + 1 && strstr(last_msg, "destroyed"));
    EXPECT(dJointGetType(j[2]) == dJointTypeNull && dJointGetNumBodies(j[2]) == 0);
    dJointGroupDestroy(g);
    EXPECT(dJointGetType(j[2]) == dJointTypeNone && reports == r0 + 2);
    dWorldDestroy(w2);
    dCloseODE();
    if (failures) { printf("FAILED %d of %d checks\n", failures, checks); return 1; }
    printf("PASS %d\n", checks);
    return 0;
}
