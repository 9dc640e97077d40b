/* DIFF-TOL rel=1e-6 abs=1e-9 */
/* Sliders for 1.5 s with both steppers: a body sliding on a tilted world
 * axis under gravity between stops with bounce, then pushed by
 * dJointAddSliderForce and driven by a motor into and away from a stop; a
 * two-body slider attached as (0, body) then (a, b) with off-axis centres
 * (torque decoupling) and an infinite-FMax motor; a slider whose axis was
 * set with dJointSetSliderAxisDelta. Prints positions, rates, body states. */
#include <ode/ode.h>
#include <stdio.h>

static void body_state(const char *tag, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    printf("%s p %.10g %.10g %.10g q %.10g %.10g %.10g %.10g v %.10g %.10g %.10g w %.10g %.10g %.10g\n", tag,
           p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
}

static dBodyID box(dWorldID w, dReal x, dReal y, dReal z, dReal m, dReal lx, dReal ly, dReal lz)
{
    dMass mass;
    dBodyID b = dBodyCreate(w);
    dMassSetBoxTotal(&mass, m, lx, ly, lz);
    dBodySetMass(b, &mass);
    dBodySetPosition(b, x, y, z);
    return b;
}

static void run(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID p, a, b, c;
    dJointID sp, sa, sab, sc;
    dVector3 v;
    dQuaternion q;
    int s;
    dWorldSetGravity(w, 0, 0, -9.81);
    if (quick) dWorldSetQuickStepNumIterations(w, 50);

    p = box(w, 0, 0, 1, 1.2, 0.3, 0.2, 0.2);
    dQFromAxisAndAngle(q, 1, 1, 0, 0.3);
    dBodySetQuaternion(p, q);
    sp = dJointCreateSlider(w, 0);
    dJointAttach(sp, p, 0);
    dJointSetSliderAxis(sp, 0.3, 0, 1);
    dJointSetSliderParam(sp, dParamLoStop, -0.3);
    dJointSetSliderParam(sp, dParamHiStop, 0.2);
    dJointSetSliderParam(sp, dParamBounce, 0.6);
    dJointSetSliderParam(sp, dParamStopERP, 0.5);
    dJointSetSliderParam(sp, dParamStopCFM, 1e-5);

    a = box(w, 1, 0.2, 2, 2, 0.3, 0.3, 0.3);
    b = box(w, 1.4, 0.1, 1.7, 1, 0.2, 0.2, 0.6);
    sa = dJointCreateSlider(w, 0);
    dJointAttach(sa, 0, a);
    dJointSetSliderAxis(sa, 0, 0, 1);
    dJointSetSliderParam(sa, dParamLoStop, -0.5);
    dJointSetSliderParam(sa, dParamHiStop, 0.25);
    dJointSetSliderParam(sa, dParamBounce, 0.3);
    sab = dJointCreateSlider(w, 0);
    dJointAttach(sab, a, b);
    dJointSetSliderAxis(sab, 1, 0.2, -0.3);
    dJointSetSliderParam(sab, dParamVel, 0.4);
    dJointSetSliderParam(sab, dParamFMax, dInfinity);

    c = box(w, -1, 0, 0.5, 0.7, 0.2, 0.2, 0.2);
    sc = dJointCreateSlider(w, 0);
    dJointAttach(sc, c, 0);
    dJointSetSliderAxisDelta(sc, 0, 0.6, 0.8, 0.1, -0.2, 0.05);
    dJointSetSliderParam(sc, dParamVel, 0.5);
    dJointSetSliderParam(sc, dParamFMax, 3);

    for (s = 0; s < 150; s++) {
        if (s >= 40 && s < 60) dJointAddSliderForce(sp, 30);
        if (s == 70) {
            dJointSetSliderParam(sp, dParamVel, -1);
            dJointSetSliderParam(sp, dParamFMax, 25);
        }
        if (s == 110) {
            dJointSetSliderParam(sp, dParamFudgeFactor, 0.5);
            dJointSetSliderParam(sp, dParamVel, 0.8);
        }
        if (s == 100) dJointSetSliderParam(sab, dParamFMax, 2);
        dJointAddSliderForce(sab, 1.5);
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        if (s % 5 == 4) {
            printf("%s %d sp %.10g %.10g sa %.10g %.10g sab %.10g %.10g sc %.10g %.10g\n", tag, s,
                   dJointGetSliderPosition(sp), dJointGetSliderPositionRate(sp),
                   dJointGetSliderPosition(sa), dJointGetSliderPositionRate(sa),
                   dJointGetSliderPosition(sab), dJointGetSliderPositionRate(sab),
                   dJointGetSliderPosition(sc), dJointGetSliderPositionRate(sc));
            body_state("  p", p);
            body_state("  a", a);
            body_state("  b", b);
            body_state("  c", c);
            dJointGetSliderAxis(sab, v);
            printf("  sab axis %.10g %.10g %.10g\n", v[0], v[1], v[2]);
        }
    }
    dWorldDestroy(w);
}

int main(void)
{
    dInitODE2(0);
    run(0);
    run(1);
    dCloseODE();
    return 0;
}
