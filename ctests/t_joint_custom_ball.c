/* The ball joint re-created as a custom joint (custom_ball.h) must give the
 * built-in ball's trajectory to round-off: two identical worlds, one with
 * dJointCreateBall, one with the custom ball, a two-link pendulum (world
 * anchor attached as (0, body), the second joint in a joint group). Both
 * steppers; every step compares positions, quaternions, velocities and
 * joint feedback.
 * Also checks the generic joint API on the custom joint. */
#include "custom_ball.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); failures++; } } while (0)

typedef struct Scene {
    dWorldID w;
    dJointGroupID g;
    dBodyID a, b;
    dJointID j1, j2;
    dJointFeedback fb1, fb2;
} Scene;

static void make(Scene *s, int custom, int *destroyed)
{
    dMass m;
    dMatrix3 R;
    memset(s, 0, sizeof *s);
    s->w = dWorldCreate();
    dWorldSetGravity(s->w, 0, 0, -9.81);
    dWorldSetERP(s->w, 0.3);
    s->g = dJointGroupCreate(0);
    s->a = dBodyCreate(s->w);
    s->b = dBodyCreate(s->w);
    dBodySetPosition(s->a, 0.5, 0.1, 2.0);
    dBodySetPosition(s->b, 1.1, -0.2, 1.7);
    dRFromAxisAndAngle(R, 0.3, 1, 0.2, 0.7);
    dBodySetRotation(s->b, R);
    dMassSetBoxTotal(&m, 1.5, 0.4, 0.2, 0.3);
    dBodySetMass(s->a, &m);
    dMassSetBoxTotal(&m, 0.8, 0.2, 0.5, 0.1);
    dBodySetMass(s->b, &m);
    dBodySetAngularVel(s->b, 0.5, -1, 2);
    dBodySetLinearVel(s->a, 0, 0.7, 0);
    if (custom) {
        s->j1 = custom_ball_create(s->w, 0, destroyed);
        dJointAttach(s->j1, 0, s->a);
        custom_ball_set_anchor(s->j1, 0, 0, 2.1);
        s->j2 = custom_ball_create(s->w, s->g, destroyed);
        dJointAttach(s->j2, s->a, s->b);
        custom_ball_set_anchor(s->j2, 0.8, 0, 1.9);
    } else {
        s->j1 = dJointCreateBall(s->w, 0);
        dJointAttach(s->j1, 0, s->a);
        dJointSetBallAnchor(s->j1, 0, 0, 2.1);
        s->j2 = dJointCreateBall(s->w, s->g);
        dJointAttach(s->j2, s->a, s->b);
        dJointSetBallAnchor(s->j2, 0.8, 0, 1.9);
    }
    dJointSetFeedback(s->j1, &s->fb1);
    dJointSetFeedback(s->j2, &s->fb2);
}

static double maxdiff(const dReal *x, const dReal *y, int n)
{
    double d = 0;
    int i;
    for (i = 0; i < n; i++) {
        double e = fabs(x[i] - y[i]);
        if (!(e <= d)) d = e; /* NaN propagates */
    }
    return d;
}

static double compare(const Scene *x, const Scene *y)
{
    double d = 0, e;
    const dBodyID bx[2] = {x->a, x->b}, by[2] = {y->a, y->b};
    int i;
    for (i = 0; i < 2; i++) {
        e = maxdiff(dBodyGetPosition(bx[i]), dBodyGetPosition(by[i]), 3); if (!(e <= d)) d = e;
        e = maxdiff(dBodyGetQuaternion(bx[i]), dBodyGetQuaternion(by[i]), 4); if (!(e <= d)) d = e;
        e = maxdiff(dBodyGetLinearVel(bx[i]), dBodyGetLinearVel(by[i]), 3); if (!(e <= d)) d = e;
        e = maxdiff(dBodyGetAngularVel(bx[i]), dBodyGetAngularVel(by[i]), 3); if (!(e <= d)) d = e;
    }
    e = maxdiff(&x->fb1.f1[0], &y->fb1.f1[0], 16); if (!(e <= d)) d = e;
    e = maxdiff(&x->fb2.f1[0], &y->fb2.f1[0], 16); if (!(e <= d)) d = e;
    return d;
}

int main(void)
{
    int quick, step, destroyed = 0;
    dInitODE2(0);
    for (quick = 0; quick < 2; quick++) {
        Scene ref, cus;
        double worst = 0, anchor_err = 0;
        make(&ref, 0, NULL);
        make(&cus, 1, &destroyed);

        CHECK(dJointGetType(cus.j1) == odexJointTypeCustom, "type %d", (int)dJointGetType(cus.j1));
        CHECK(dJointGetNumBodies(cus.j1) == 1 && dJointGetBody(cus.j1, 1) == cus.a && dJointGetBody(cus.j1, 0) == 0,
              "reversed attachment as for built-in joints");
        CHECK(dAreConnected(cus.a, cus.b) && dConnectingJoint(cus.a, cus.b) == cus.j2, "connected");

        for (step = 0; step < 400; step++) {
            if (quick) {
                /* QuickStep shuffles rows with ODE's global random
                 * generator: give both worlds the same draws. */
                unsigned long seed = dRandGetSeed();
                dWorldQuickStep(ref.w, 0.01);
                dRandSetSeed(seed);
                dWorldQuickStep(cus.w, 0.01);
            } else {
                dWorldStep(ref.w, 0.01);
                dWorldStep(cus.w, 0.01);
            }
            double d = compare(&ref, &cus);
            if (!(d <= worst)) worst = d;
        }
        {
            /* The chain held: anchor points still together (sanity of the
             * scene itself, independent of the comparison). */
            dVector3 p, q;
            dJointGetBallAnchor(ref.j2, p);
            dJointGetBallAnchor2(ref.j2, q);
            anchor_err = sqrt((p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1]) + (p[2]-q[2])*(p[2]-q[2]));
        }
        printf("%s: max |custom - built-in| over 400 steps = %.3g (anchor gap %.3g)\n",
               quick ? "dWorldQuickStep" : "dWorldStep", worst, anchor_err);
        CHECK(worst <= 1e-12, "custom ball differs from the built-in one by %g", worst);
        CHECK(anchor_err < 0.05, "the built-in chain came apart (%g)", anchor_err);
        CHECK(fabs(cus.fb1.f1[2]) > 1, "feedback was written (%g)", cus.fb1.f1[2]);

        /* Disabling the joint frees the chain in both worlds alike. */
        dJointDisable(ref.j2);
        dJointDisable(cus.j2);
        CHECK(!dJointIsEnabled(cus.j2), "disabled");
        for (step = 0; step < 20; step++) {
            dWorldStep(ref.w, 0.01);
            dWorldStep(cus.w, 0.01);
        }
        CHECK(compare(&ref, &cus) <= 1e-12, "after disabling: %g", compare(&ref, &cus));

        /* Destruction: a grouped joint goes with its group, the other with
         * dJointDestroy; each runs the destroy callback once. */
        int before = destroyed;
        dJointDestroy(cus.j2); /* in a group: ignored, as in ODE */
        CHECK(destroyed == before, "grouped joint destroyed by dJointDestroy");
        dJointGroupEmpty(cus.g);
        CHECK(destroyed == before + 1, "group empty ran destroy %d", destroyed - before);
        dJointDestroy(cus.j1);
        CHECK(destroyed == before + 2, "dJointDestroy ran destroy %d", destroyed - before);
        dJointGroupDestroy(ref.g);
        dJointGroupDestroy(cus.g);
        dWorldDestroy(ref.w);
        dWorldDestroy(cus.w);
    }
    {
        /* A joint left in the world goes with it. */
        dWorldID w = dWorldCreate();
        int before = destroyed;
        custom_ball_create(w, 0, &destroyed);
        dWorldDestroy(w);
        CHECK(destroyed == before + 1, "dWorldDestroy ran destroy %d", destroyed - before);
    }
    dCloseODE();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
