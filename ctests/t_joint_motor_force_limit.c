/* Closed form: joint motors with a limited force. A hinge motor with
 * dParamVel = ω_t and dParamFMax = τ on a body whose centre lies on the
 * hinge axis (a principal axis, moment of inertia I) must accelerate it at
 * exactly α = τ / I until it reaches ω_t, then hold ω_t; with an opposing
 * torque L < τ added by dJointAddHingeTorque every step, α = (τ − L) / I.
 * A slider motor with dParamFMax = F does the same along its axis with
 * a = F / m. Gravity loads the joints across their free direction.
 * Checked with dWorldStep and dWorldQuickStep: the rate follows
 * min(α t, ω_t) within 1e-6 of ω_t at every step (Debian's ODE: 5e-10),
 * and the acceleration measured between two instants is within 0.1 %.
 * Prints "PASS <n>". */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>

static const dReal H = 0.001;
static int failures = 0, checks = 0;

static void check(const char *what, int ok) {
    checks++;
    if (!ok) { printf("  FAIL: %s\n", what); failures++; }
}

/* kind 0: hinge, 1: hinge against a load torque, 2: slider */
static void run(int kind, int quick) {
    const char *tag = quick ? "quick" : "step";
    const dReal target = kind == 2 ? -0.8 : 3.0, fmax = kind == 2 ? 4.0 : 0.5, load = kind == 1 ? 0.2 : 0;
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w);
    dJointID j;
    dMass m;
    dReal inertia, alpha, rate_a = 0, rate_b = 0, worst = 0, reach;
    const dReal ta = 0.05, tb = 0.15;
    int s, steps = 600;

    dWorldSetGravity(w, 0, 0, -9.81);
    if (quick) dWorldSetQuickStepNumIterations(w, 30);
    dMassSetBoxTotal(&m, 2.0, 0.4, 0.2, 0.1);
    dBodySetMass(b, &m);
    dBodySetPosition(b, 1, 2, 3);
    if (kind < 2) {
        /* axis: the box's y axis, horizontal, through its centre */
        j = dJointCreateHinge(w, 0);
        dJointAttach(j, b, 0);
        dJointSetHingeAnchor(j, 1, 2, 3);
        dJointSetHingeAxis(j, 0, 1, 0);
        dJointSetHingeParam(j, dParamVel, target);
        dJointSetHingeParam(j, dParamFMax, fmax);
        inertia = m.I[5]; /* I_yy */
    } else {
        j = dJointCreateSlider(w, 0);
        dJointAttach(j, b, 0);
        dJointSetSliderAxis(j, 1, 0, 0);
        dJointSetSliderParam(j, dParamVel, target);
        dJointSetSliderParam(j, dParamFMax, fmax);
        inertia = m.mass;
    }
    alpha = (fmax - load) / inertia * (target > 0 ? 1 : -1);
    reach = target / alpha;
    for (s = 1; s <= steps; s++) {
        dReal t = s * H, rate, expect, body;
        if (load != 0) dJointAddHingeTorque(j, -load);
        if (quick) dWorldQuickStep(w, H); else dWorldStep(w, H);
        if (kind < 2) {
            rate = dJointGetHingeAngleRate(j);
            body = dBodyGetAngularVel(b)[1];
        } else {
            rate = dJointGetSliderPositionRate(j);
            body = dBodyGetLinearVel(b)[0];
        }
        expect = t < reach ? alpha * t : target;
        if (fabs(rate - expect) > worst) worst = fabs(rate - expect);
        if (fabs(rate - body) > 1e-12) { printf("  rate %.17g, body velocity %.17g\n", rate, body); check("joint rate", 0); }
        if (fabs(t - ta) < H / 2) rate_a = rate;
        if (fabs(t - tb) < H / 2) rate_b = rate;
    }
    {
        dReal measured = (rate_b - rate_a) / (tb - ta);
        printf("%s %s: accel %.9g expected %.9g (rel %.1e); max |rate - min(at, target)| %.2e, final %.9g\n", tag,
               kind == 2 ? "slider" : kind ? "hinge+load" : "hinge", measured, alpha, (measured - alpha) / alpha,
               worst, kind < 2 ? dJointGetHingeAngleRate(j) : dJointGetSliderPositionRate(j));
        check("acceleration", fabs(measured - alpha) <= 1e-3 * fabs(alpha));
        check("rate follows min(alpha t, target)", worst <= 1e-6 * fabs(target));
    }
    dWorldDestroy(w);
}

int main(void) {
    int quick, kind;
    dInitODE2(0);
    for (quick = 0; quick < 2; quick++)
        for (kind = 0; kind < 3; kind++) run(kind, quick);
    dCloseODE();
    if (failures) { printf("FAILED %d\n", failures); return 1; }
    printf("PASS %d\n", checks);
    return 0;
}
