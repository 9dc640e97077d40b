/* The step's guard against non-finite results. Finite but extreme inputs
 * (a velocity of 1e300 with a step of 1e10, an angular velocity of 1e300,
 * a force of 1e308 over a step of 1e10, a damping scale that makes
 * velocities grow each step) used to drive bodies to inf/NaN
 * without a word; Debian's ODE goes the same way or aborts. Now, when a
 * body would leave a step non-finite, one message (message channel,
 * number 1) names it and a joint attached to it; the body keeps its
 * position and orientation from before the step (bit for bit; its moved
 * callback is not called) and is put at rest, its force accumulators are
 * cleared, every body of its island is disabled
 * (the others finite), so the message is not repeated each step, and the
 * island's joint feedback reads zero. Other islands step as if nothing
 * happened. Runs against our library. Prints "PASS <n>". */
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
/* Counts the guard's messages (number 1); others, such as the LCP's
 * number 3 on a singular matrix, may come with them. */
static void on_message(int num, const char *msg, va_list ap)
{
    if (num != 1)
        return;
    vsnprintf(last, sizeof last, msg, ap);
    messages++;
}

static int checks, failures;
static const char *scene;
static void check(int ok, const char *what)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s: %s (last report: %s)\n", scene, what, last);
    }
}

typedef struct { dReal v[29]; } State;
static void state(dBodyID b, State *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s->v, dBodyGetPosition(b), 3 * sizeof(dReal));
    memcpy(s->v + 3, dBodyGetQuaternion(b), 4 * sizeof(dReal));
    memcpy(s->v + 7, dBodyGetRotation(b), 12 * sizeof(dReal));
    memcpy(s->v + 19, dBodyGetLinearVel(b), 3 * sizeof(dReal));
    memcpy(s->v + 22, dBodyGetAngularVel(b), 3 * sizeof(dReal));
}

static int all_finite(dBodyID b)
{
    State s;
    int i;
    state(b, &s);
    for (i = 0; i < 25; i++)
        if (!isfinite(s.v[i]))
            return 0;
    return 1;
}

static void step(dWorldID w, int quick, dReal h)
{
    if (quick)
        dWorldQuickStep(w, h);
    else
        dWorldStep(w, h);
}

/* Moved-callback calls for bodies a and b of the current scene. */
static int moved_calls[2];
static dBodyID scene_a, scene_b;
static void on_moved(dBodyID b)
{
    if (b == scene_a)
        moved_calls[0]++;
    if (b == scene_b)
        moved_calls[1]++;
}

static dBodyID body(dWorldID w, dReal x, dReal y, dReal z)
{
    dBodyID b = dBodyCreate(w);
    dMass m;
    dQuaternion q;
    dMassSetBox(&m, 1, 1, 0.5, 0.3);
    dBodySetMass(b, &m);
    dBodySetPosition(b, x, y, z);
    dQFromAxisAndAngle(q, 0.3, 1, -0.4, 0.7);
    dBodySetQuaternion(b, q);
    dBodySetLinearVel(b, 0.3, 0, 0.1);
    dBodySetAngularVel(b, -0.1, 0.4, 0.2);
    return b;
}

/* A control body in a world of its own, stepped the same way. */
static void control_twin(int quick, dReal h, int steps, State *out)
{
    dWorldID w = dWorldCreate();
    dBodyID c;
    int i;
    dWorldSetGravity(w, 0, 0, -9.81);
    c = body(w, 5, 5, 5);
    for (i = 0; i < steps; i++)
        step(w, quick, h);
    state(c, out);
    dWorldDestroy(w);
}

/* kind: 0 free body with v = 1e300 and h = 1e10; 1 free body spinning at
 * 1e300; 2 overflowing force accumulator; 3 ball joint with v = 1e300 and
 * h = 1e10; 4 hinge joint with a body spinning at 1e300; 5 a spin of 1e308
 * without the gyroscopic term, where only the quaternion overflows (ODE
 * turns it into a zero quaternion, then aborts on the next step). */
static void apply(int kind, dBodyID a, dBodyID b, dReal *h)
{
    switch (kind) {
    case 0: dBodySetLinearVel(a, 1e300, 0, 0); *h = 1e10; break;
    case 1: dBodySetAngularVel(a, 1e300, 1e300, 0); break;
    /* (An addition that overflows the accumulator itself is refused at
     * dBodyAddForce: t_error_silent_cases.c.) */
    case 2: dBodyAddForce(a, 1e308, 0, 0); *h = 1e10; break;
    case 3: dBodySetLinearVel(a, 0, 1e300, 0); *h = 1e10; break;
    case 4: dBodySetAngularVel(b, 1e300, 0, 1e300); break;
    case 5: dBodySetGyroscopicMode(a, 0); dBodySetAngularVel(a, 1e308, 1e308, 1e308); break;
    }
}

static void run(int kind, int quick)
{
    static char name[64];
    dWorldID w = dWorldCreate();
    dBodyID a, b = 0, c;
    dJointID j = 0;
    dJointFeedback fb;
    State a0, b0, s, twin;
    char want[64];
    dReal h = 0.01;
    int i;
    snprintf(name, sizeof name, "kind %d %s", kind, quick ? "quick" : "step");
    scene = name;
    dWorldSetGravity(w, 0, 0, -9.81);
    a = body(w, 0, 0, 1);
    c = body(w, 5, 5, 5); /* an island of its own */
    if (kind == 3 || kind == 4) {
        b = body(w, 1, 0, 1);
        if (kind == 3) {
            j = dJointCreateBall(w, 0);
            dJointAttach(j, a, b);
            dJointSetBallAnchor(j, 0.5, 0, 1);
        } else {
            j = dJointCreateHinge(w, 0);
            dJointAttach(j, a, b);
            dJointSetHingeAnchor(j, 0.5, 0, 1);
            dJointSetHingeAxis(j, 0, 1, 0);
        }
        memset(&fb, 0x55, sizeof fb);
        dJointSetFeedback(j, &fb);
    }
    apply(kind, a, b, &h);
    state(a, &a0);
    if (b)
        state(b, &b0);
    scene_a = a;
    scene_b = b;
    moved_calls[0] = moved_calls[1] = 0;
    dBodySetMovedCallback(a, on_moved);
    if (b)
        dBodySetMovedCallback(b, on_moved);

    messages = debug_reports = 0;
    step(w, quick, h);
    check(messages == 1, "one message");
    check(debug_reports == 0, "nothing on the debug channel");
    check(strstr(last, quick ? "dWorldQuickStep" : "dWorldStep") != NULL, "message names the stepper");
    {
        /* The body the message names keeps its state from before the step;
         * the other body of the island, if any, is finite and disabled. */
        char wa[64], wb[64];
        dBodyID named = 0, other = b;
        State *named0 = &a0;
        snprintf(wa, sizeof wa, "%p", (void *)a);
        snprintf(wb, sizeof wb, "%p", (void *)b);
        if (strstr(last, wa)) {
            named = a;
        } else if (b && strstr(last, wb)) {
            named = b;
            other = a;
            named0 = &b0;
        }
        check(named != 0, "message names a body of the island");
        if (b) {
            snprintf(want, sizeof want, "%p", (void *)j);
            check(strstr(last, want) != NULL, "message names the joint");
        }
        if (named) {
            const dReal *f = dBodyGetForce(named), *t = dBodyGetTorque(named);
            const dReal *v = dBodyGetLinearVel(named), *av = dBodyGetAngularVel(named);
            state(named, &s);
            check(memcmp(&s, named0, 19 * sizeof(dReal)) == 0,
                  "the body keeps its position and orientation from before the step");
            check(v[0] == 0 && v[1] == 0 && v[2] == 0 && av[0] == 0 && av[1] == 0 && av[2] == 0,
                  "the body is at rest");
            check(!dBodyIsEnabled(named), "the body is disabled");
            check(f[0] == 0 && f[1] == 0 && f[2] == 0 && t[0] == 0 && t[1] == 0 && t[2] == 0,
                  "its accumulators are cleared");
            check(moved_calls[named == a ? 0 : 1] == 0, "the host is not told it moved");
        }
        if (b) {
            check(all_finite(other), "the other body of the island is finite");
            check(!dBodyIsEnabled(other), "the other body of the island is disabled");
            check(fb.f1[0] == 0 && fb.f1[1] == 0 && fb.f1[2] == 0 && fb.t1[0] == 0 && fb.t2[2] == 0 && fb.f2[1] == 0,
                  "feedback zero");
        }
    }
    check(dBodyIsEnabled(c) && all_finite(c), "another island goes on");

    /* Later steps: the island stays disabled and silent. */
    for (i = 0; i < 4; i++)
        step(w, quick, h);
    check(messages == 1, "reported once, not every step");
    check(!dBodyIsEnabled(a) && (!b || !dBodyIsEnabled(b)), "the island stays disabled");
    state(c, &s);
    control_twin(quick, h, 5, &twin);
    if (h < 1)
        check(memcmp(&s, &twin, sizeof s) == 0, "the other island moves exactly as it would alone");

    /* Enabled again by the host, the island steps normally (the failing
     * body was put at rest); given the same input again, it fails and is
     * reported again. */
    dBodyEnable(a);
    step(w, quick, 0.01);
    check(messages == 1, "re-enabled: steps without a message");
    check(dBodyIsEnabled(a) && (!b || dBodyIsEnabled(b)), "re-enabled: the island stays enabled");
    apply(kind, a, b, &h);
    step(w, quick, h);
    check(messages == 2, "the same input again: reported again");
    check(!dBodyIsEnabled(a) && (!b || !dBodyIsEnabled(b)), "the island disabled again");
    check(all_finite(a) && (!b || all_finite(b)), "still finite");
    dWorldDestroy(w);
}

/* A linear damping scale of 5 multiplies the velocity by -4 each step
 * (ODE accepts any scale) until it overflows: the guard takes the body
 * over once, after the move; it stays finite and at rest. */
static void damping_overflow(int quick)
{
    dWorldID w = dWorldCreate();
    dBodyID a = body(w, 0, 0, 1);
    int i, m0 = messages, nonfinite_steps = 0;
    scene = quick ? "damping quick" : "damping step";
    dBodySetLinearDamping(a, 5);
    dBodySetLinearVel(a, 1, 0, 0);
    for (i = 0; i < 600; i++) {
        step(w, quick, 0.01);
        nonfinite_steps += !all_finite(a);
    }
    check(nonfinite_steps == 0, "finite after every step");
    check(messages == m0 + 1, "one message when the velocity overflows");
    check(all_finite(a), "the body stays finite");
    check(!dBodyIsEnabled(a), "the body is disabled");
    check(dBodyGetLinearVel(a)[0] == 0, "and at rest");
    dWorldDestroy(w);
}

int main(void)
{
    int kind, quick;
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    dSetMessageHandler(on_message);
    for (kind = 0; kind < 6; kind++)
        for (quick = 0; quick < 2; quick++)
            run(kind, quick);
    damping_overflow(0);
    damping_overflow(1);
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d checks\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
