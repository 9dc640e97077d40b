/* The fast solver mode (issue 13) through the C API, against OUR library
 * only (ode_ext.h). Checks, each against a closed form or an invariant:
 *  - selection: a new world's mode follows ODE_SOLVER (argument "fast" or
 *    "exact" says which value the runner set); odexWorldSetSolverMode /
 *    GetSolverMode round-trip; a bad mode is reported on the debug channel
 *    and changes nothing;
 *  - fast QuickSteps of a contact scene never change dRandGetSeed (exact
 *    QuickSteps do draw, which shows the check can fail);
 *  - a hinge pendulum stepped by dWorldQuickStep in fast mode has the
 *    physical pendulum's period 2*pi*sqrt(I_p / (m g d)) within 0.5 %;
 *  - a box resting on a plane does not sink (depth below 1 mm, at rest);
 *  - a box on a ramp with Coulomb friction mu (dContactApprox1) sticks for
 *    tan(angle) < mu and slides with a = g (sin - mu cos) (2 %) above;
 *  - a stack of 5 boxes stays standing for 10 s.
 * Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <ode/ode_ext.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <math.h>

static int reports;
static void on_debug(int num, const char *msg, va_list ap) {
    (void)num; (void)msg; (void)ap; reports++;
}

static int failures, checks;
static void check(int ok, const char *what, double value) {
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s (%g)\n", what, value);
    } else {
        printf("ok %s (%g)\n", what, value);
    }
}

/* ---- contact scenes ------------------------------------------------------ */
static dWorldID world;
static dJointGroupID contacts;
static dReal mu_scene;
static int approx1;

static void near_cb(void *data, dGeomID g1, dGeomID g2) {
    dContact c[8];
    int i, n;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    (void)data;
    if (b1 && b2 && dAreConnected(b1, b2)) return;
    n = dCollide(g1, g2, 8, &c[0].geom, sizeof(dContact));
    for (i = 0; i < n; i++) {
        dJointID j;
        memset(&c[i].surface, 0, sizeof c[i].surface);
        c[i].surface.mode = approx1 ? dContactApprox1 : 0;
        c[i].surface.mu = mu_scene;
        j = dJointCreateContact(world, contacts, &c[i]);
        dJointAttach(j, b1, b2);
    }
}

static void step(dSpaceID space, dReal h) {
    dSpaceCollide(space, 0, near_cb);
    dWorldQuickStep(world, h);
    dJointGroupEmpty(contacts);
}

static dBodyID make_box(dSpaceID space, dReal x, dReal y, dReal z, dReal side) {
    dBodyID b = dBodyCreate(world);
    dMass m;
    dGeomID g = dCreateBox(space, side, side, side);
    dMassSetBoxTotal(&m, 1.0, side, side, side);
    dBodySetMass(b, &m);
    dBodySetPosition(b, x, y, z);
    dGeomSetBody(g, b);
    return b;
}

static void new_world(int mode) {
    world = dWorldCreate();
    odexWorldSetSolverMode(world, mode);
    dWorldSetGravity(world, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(world, 20);
    contacts = dJointGroupCreate(0);
}

static void end_world(dSpaceID space) {
    dJointGroupDestroy(contacts);
    dSpaceDestroy(space);
    dWorldDestroy(world);
}

/* A stack of `n` unit boxes on a plane for `steps` fast QuickSteps;
 * returns the largest horizontal drift of any box, and the top's height. */
static dReal stack(int mode, int n, int steps, int friction_approx1, dReal *top_z) {
    dSpaceID space = dHashSpaceCreate(0);
    dBodyID boxes[16];
    dReal drift = 0;
    int i, k;
    new_world(mode);
    mu_scene = 0.8;
    approx1 = friction_approx1;
    dCreatePlane(space, 0, 0, 1, 0);
    for (i = 0; i < n; i++) boxes[i] = make_box(space, 0, 0, 0.5 + i * 1.0, 1.0);
    for (k = 0; k < steps; k++) step(space, 0.01);
    for (i = 0; i < n; i++) {
        const dReal *p = dBodyGetPosition(boxes[i]);
        dReal d = sqrt(p[0] * p[0] + p[1] * p[1]);
        if (d > drift) drift = d;
    }
    *top_z = dBodyGetPosition(boxes[n - 1])[2];
    end_world(space);
    return drift;
}

/* A unit box on a plane tilted by `angle` about y; returns the distance
 * slid down the slope after `t` seconds. */
static dReal ramp(dReal angle, dReal mu, dReal t) {
    dSpaceID space = dHashSpaceCreate(0);
    dReal h = 0.001, s = sin(angle), c = cos(angle), slid;
    dBodyID b;
    dMatrix3 R;
    const dReal *p;
    int k, n = (int)(t / h + 0.5);
    new_world(ODEX_SOLVER_FAST);
    mu_scene = mu;
    approx1 = 1;
    /* plane through the origin with normal (s, 0, c): the slope descends
     * towards +x... the downhill direction is (c, 0, -s). */
    dCreatePlane(space, s, 0, c, 0);
    b = make_box(space, 0.5 * s, 0, 0.5 * c, 1.0);
    dRFromAxisAndAngle(R, 0, 1, 0, angle);
    dBodySetRotation(b, R);
    /* settle the contact without gravity along the slope first: none */
    for (k = 0; k < n; k++) step(space, h);
    p = dBodyGetPosition(b);
    /* displacement along the downhill direction (-c, 0, s) or (c,0,-s) */
    slid = fabs((p[0] - 0.5 * s) * c - (p[2] - 0.5 * c) * s);
    end_world(space);
    return slid;
}

int main(int argc, char **argv) {
    const char *expect = argc > 1 ? argv[1] : "exact";
    dWorldID w;
    int mode;

    dInitODE2(0);
    dSetDebugHandler(on_debug);

    /* ---- selection -------------------------------------------------- */
    w = dWorldCreate();
    mode = odexWorldGetSolverMode(w);
    check(mode == (strcmp(expect, "fast") == 0 ? ODEX_SOLVER_FAST : ODEX_SOLVER_EXACT), "mode follows ODE_SOLVER",
          mode);
    odexWorldSetSolverMode(w, ODEX_SOLVER_FAST);
    check(odexWorldGetSolverMode(w) == ODEX_SOLVER_FAST, "set fast, get fast", odexWorldGetSolverMode(w));
    odexWorldSetSolverMode(w, ODEX_SOLVER_EXACT);
    check(odexWorldGetSolverMode(w) == ODEX_SOLVER_EXACT, "set exact, get exact", odexWorldGetSolverMode(w));
    odexWorldSetSolverMode(w, ODEX_SOLVER_FAST);
    reports = 0;
    odexWorldSetSolverMode(w, 7);
    check(reports == 1, "bad mode reported", reports);
    check(odexWorldGetSolverMode(w) == ODEX_SOLVER_FAST, "bad mode changes nothing", odexWorldGetSolverMode(w));
    reports = 0;
    odexWorldSetSolverMode(w, -1);
    check(reports == 1 && odexWorldGetSolverMode(w) == ODEX_SOLVER_FAST, "negative mode refused", reports);
    dWorldDestroy(w);

    /* ---- dRand untouched ---------------------------------------------- */
    {
        dReal z;
        dRandSetSeed(12345);
        stack(ODEX_SOLVER_FAST, 3, 200, 0, &z);
        check(dRandGetSeed() == 12345, "fast QuickSteps leave dRand alone", (double)dRandGetSeed());
        dRandSetSeed(12345);
        stack(ODEX_SOLVER_EXACT, 3, 200, 0, &z);
        check(dRandGetSeed() != 12345, "exact QuickSteps draw from dRand (sanity)", (double)dRandGetSeed());
    }

    /* ---- pendulum period --------------------------------------------- */
    {
        const dReal g = 9.81, d = 0.8, r = 0.05, mass = 1.3, h = 0.0005, amp = 0.05;
        dBodyID b;
        dJointID j;
        dMass m;
        dMatrix3 R;
        dReal prev, t = 0, first = -1, last = -1, ip, expected, period;
        int crossings = 0;
        new_world(ODEX_SOLVER_FAST);
        dWorldSetGravity(world, 0, 0, -g);
        b = dBodyCreate(world);
        dMassSetSphereTotal(&m, mass, r);
        dBodySetMass(b, &m);
        dBodySetPosition(b, 0, d * sin(amp), 10 - d * cos(amp));
        dRFromAxisAndAngle(R, 1, 0, 0, amp);
        dBodySetRotation(b, R);
        j = dJointCreateHinge(world, 0);
        dJointAttach(j, b, 0);
        dJointSetHingeAnchor(j, 0, 0, 10);
        dJointSetHingeAxis(j, 1, 0, 0);
        prev = dJointGetHingeAngle(j);
        while (t < 20 && crossings < 9) {
            dReal a;
            dWorldQuickStep(world, h);
            t += h;
            a = dJointGetHingeAngle(j);
            if (prev < 0 && a >= 0) {
                dReal tc = t - h * a / (a - prev);
                if (first < 0) first = tc;
                last = tc;
                crossings++;
            }
            prev = a;
        }
        ip = 0.4 * mass * r * r + mass * d * d;
        expected = 2 * M_PI * sqrt(ip / (mass * g * d));
        period = crossings > 1 ? (last - first) / (crossings - 1) : 0;
        check(fabs(period / expected - 1) < 0.005, "pendulum period / closed form - 1", period / expected - 1);
        dJointGroupDestroy(contacts);
        dWorldDestroy(world);
    }

    /* ---- resting box does not sink ----------------------------------- */
    {
        dSpaceID space = dHashSpaceCreate(0);
        dBodyID b;
        const dReal *p, *v;
        int k;
        new_world(ODEX_SOLVER_FAST);
        mu_scene = 0.5;
        approx1 = 0;
        dCreatePlane(space, 0, 0, 1, 0);
        b = make_box(space, 0, 0, 0.5, 1.0);
        for (k = 0; k < 1000; k++) step(space, 0.01);
        p = dBodyGetPosition(b);
        v = dBodyGetLinearVel(b);
        check(0.5 - p[2] < 1e-3, "resting box depth", 0.5 - p[2]);
        check(fabs(v[2]) < 1e-3, "resting box vertical speed", v[2]);
        end_world(space);
    }

    /* ---- friction ramp: stick below atan(mu), slide above ------------- */
    {
        const dReal mu = 0.5, t = 1.0, g = 9.81;
        dReal below = atan(mu) - 0.05, above = atan(mu) + 0.1;
        dReal stuck = ramp(below, mu, t);
        dReal slid = ramp(above, mu, t);
        dReal expected = 0.5 * g * (sin(above) - mu * cos(above)) * t * t;
        check(stuck < 1e-3, "ramp below the friction angle: slid", stuck);
        check(fabs(slid / expected - 1) < 0.02, "ramp above the friction angle: slid / closed form - 1",
              slid / expected - 1);
    }

    /* ---- box stack stays standing ------------------------------------ */
    {
        dReal z, drift = stack(ODEX_SOLVER_FAST, 5, 1000, 0, &z);
        check(drift < 0.01, "5-box stack horizontal drift", drift);
        check(fabs(z - 4.5) < 0.01, "5-box stack top height error", z - 4.5);
    }
    /* The same with friction scaled by the normal force (dContactApprox1,
     * findex), which fast mode sweeps contact by contact, friction rows
     * before the normal row (Debian's QuickStep: 0.74 cm; normal row first
     * drifted 1.4 cm). */
    {
        dReal z, drift = stack(ODEX_SOLVER_FAST, 5, 1000, 1, &z);
        check(drift < 0.01, "5-box stack (friction approx1) horizontal drift", drift);
        check(fabs(z - 4.5) < 0.01, "5-box stack (friction approx1) top height error", z - 4.5);
    }

    dCloseODE();
    if (failures) {
        printf("FAIL %d of %d\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
