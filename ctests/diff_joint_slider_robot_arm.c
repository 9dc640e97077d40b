/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* A slider with force and limits inside an articulated arm, as a robot
 * plugin builds it: a base turning on a vertical hinge (motor with limited
 * FMax, stops at ±1 rad), a horizontal slider carrying a carriage along
 * the arm (stops at -0.2/+0.4 m with bounce 0.3, StopERP 0.6, StopCFM
 * 1e-6, pushed by dJointAddSliderForce with a force that changes sign, so
 * the carriage hits both stops while the base turns), and a ball joint
 * hanging a pendulum from the carriage. A second, free slider (two bodies,
 * no world attachment) is pushed apart by a force pair into its high stop
 * with a motor pulling back (FudgeFactor 0.3). Feedback on every joint.
 * 1 s (100 steps of 10 ms) with dWorldStep, then with dWorldQuickStep (30
 * iterations, dRandSetSeed(3)). Prints every 5th step the slider positions
 * and rates, the hinge angle, body states and feedback.
 * Tolerance: round-off only (same operation order as ODE; bit-identical
 * when checked locally); 1e-12 absolute for values that should be 0. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

static void pr_body(int s, const char *tag, dBodyID b) {
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    printf("%d %s p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n", s, tag,
           p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
}

static void pr_fb(int s, const char *tag, const dJointFeedback *f) {
    printf("%d fb-%s f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g f2 %.17g %.17g %.17g t2 %.17g %.17g %.17g\n", s, tag,
           f->f1[0], f->f1[1], f->f1[2], f->t1[0], f->t1[1], f->t1[2], f->f2[0], f->f2[1], f->f2[2], f->t2[0],
           f->t2[1], f->t2[2]);
}

static dBodyID box(dWorldID w, dReal m, dReal lx, dReal ly, dReal lz, dReal x, dReal y, dReal z) {
    dMass mass;
    dBodyID b = dBodyCreate(w);
    dMassSetBoxTotal(&mass, m, lx, ly, lz);
    dBodySetMass(b, &mass);
    dBodySetPosition(b, x, y, z);
    return b;
}

static void run(int quick) {
    dWorldID w = dWorldCreate();
    dBodyID base, cart, bob, u, v;
    dJointID hb, sl, ba, fs;
    dJointFeedback fb[4];
    int s;

    printf("%s\n", quick ? "dWorldQuickStep" : "dWorldStep");
    memset(fb, 0, sizeof fb);
    dRandSetSeed(3);
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(w, 30);

    base = box(w, 3, 1.2, 0.2, 0.2, 0.4, 0, 1);
    hb = dJointCreateHinge(w, 0);
    dJointAttach(hb, base, 0);
    dJointSetHingeAnchor(hb, 0, 0, 1);
    dJointSetHingeAxis(hb, 0, 0, 1);
    dJointSetHingeParam(hb, dParamLoStop, -1);
    dJointSetHingeParam(hb, dParamHiStop, 1);
    dJointSetHingeParam(hb, dParamVel, 1.5);
    dJointSetHingeParam(hb, dParamFMax, 4);

    cart = box(w, 1, 0.2, 0.25, 0.1, 0.5, 0, 1.15);
    sl = dJointCreateSlider(w, 0);
    dJointAttach(sl, base, cart);
    dJointSetSliderAxis(sl, 1, 0, 0);
    dJointSetSliderParam(sl, dParamLoStop, -0.2);
    dJointSetSliderParam(sl, dParamHiStop, 0.4);
    dJointSetSliderParam(sl, dParamBounce, 0.3);
    dJointSetSliderParam(sl, dParamStopERP, 0.6);
    dJointSetSliderParam(sl, dParamStopCFM, 1e-6);

    bob = box(w, 0.4, 0.1, 0.1, 0.1, 0.5, 0.1, 0.8);
    ba = dJointCreateBall(w, 0);
    dJointAttach(ba, cart, bob);
    dJointSetBallAnchor(ba, 0.5, 0, 1.1);

    u = box(w, 1, 0.3, 0.3, 0.3, 3, 0, 2);
    v = box(w, 2, 0.3, 0.3, 0.3, 3.4, 0.1, 2.1);
    dBodySetAngularVel(u, 0.2, 0, 0.5);
    fs = dJointCreateSlider(w, 0);
    dJointAttach(fs, u, v);
    dJointSetSliderAxis(fs, 1, 0.25, 0.25);
    dJointSetSliderParam(fs, dParamHiStop, 0.15);
    dJointSetSliderParam(fs, dParamVel, -0.2);
    dJointSetSliderParam(fs, dParamFMax, 1);
    dJointSetSliderParam(fs, dParamFudgeFactor, 0.3);

    dJointSetFeedback(hb, &fb[0]);
    dJointSetFeedback(sl, &fb[1]);
    dJointSetFeedback(ba, &fb[2]);
    dJointSetFeedback(fs, &fb[3]);

    for (s = 0; s < 100; s++) {
        dJointAddSliderForce(sl, s < 40 ? 12 : s < 70 ? -15 : 6);
        dJointAddSliderForce(fs, 5);
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        if (s % 5 == 4 || s < 2) {
            printf("%d slider %.17g %.17g free %.17g %.17g hinge %.17g %.17g\n", s, dJointGetSliderPosition(sl),
                   dJointGetSliderPositionRate(sl), dJointGetSliderPosition(fs), dJointGetSliderPositionRate(fs),
                   dJointGetHingeAngle(hb), dJointGetHingeAngleRate(hb));
            pr_body(s, "base", base);
            pr_body(s, "cart", cart);
            pr_body(s, "bob", bob);
            pr_body(s, "u", u);
            pr_body(s, "v", v);
            pr_fb(s, "hinge", &fb[0]);
            pr_fb(s, "slider", &fb[1]);
            pr_fb(s, "ball", &fb[2]);
            pr_fb(s, "free", &fb[3]);
            printf("%d seed %lu\n", s, dRandGetSeed());
        }
    }
    dWorldDestroy(w);
}

int main(void) {
    dInitODE2(0);
    run(0);
    run(1);
    dCloseODE();
    return 0;
}
