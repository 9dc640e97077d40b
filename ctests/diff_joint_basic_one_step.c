/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* One dWorldStep of small systems whose constraint rows are all active and
 * independent, so the constraint forces are the unique solution of
 * (J M⁻¹ Jᵀ + CFM/h) λ = c/h − J (v/h + M⁻¹ f): hinges (to the world, as
 * (0, body), between bodies) with motors, a ball loop, sliders with
 * motors, fixed joints and contacts with mu = dInfinity, all with position
 * and orientation errors so every right-hand side is exercised. Prints the
 * velocities after the step. tests/joint_basic_one_step.rs solves the same
 * system with our rows and a dense solver and requires the same result;
 * after the joint object work lands it is also a plain differential test.
 * Keep both in sync. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

static dWorldID w;
static dBodyID bodies[16];
static int nb;

static dBodyID box(dReal x, dReal y, dReal z, dReal m, dReal lx, dReal ly, dReal lz, dReal angle)
{
    dMass mass;
    dQuaternion q;
    dBodyID b = dBodyCreate(w);
    dMassSetBoxTotal(&mass, m, lx, ly, lz);
    dBodySetMass(b, &mass);
    dBodySetPosition(b, x, y, z);
    dQFromAxisAndAngle(q, 0.3 + nb, 1, -0.4, angle);
    dBodySetQuaternion(b, q);
    dBodySetLinearVel(b, 0.1 * nb, -0.2, 0.05 * nb);
    dBodySetAngularVel(b, 0.3, 0.1 * nb, -0.2);
    bodies[nb++] = b;
    return b;
}

/* Moves a body off its joint: a small translation and rotation. */
static void nudge(dBodyID b, dReal d)
{
    const dReal *p = dBodyGetPosition(b);
    dMatrix3 R, Rn;
    dBodySetPosition(b, p[0] + d, p[1] - 0.5 * d, p[2] + 0.25 * d);
    dRFromAxisAndAngle(R, 1, -1, 0.5, 4 * d);
    dMultiply0_333(Rn, R, dBodyGetRotation(b));
    dBodySetRotation(b, Rn);
}

static void contact(dBodyID b1, dBodyID b2, dReal x, dReal y, dReal z, dReal nx, dReal ny, dReal nz, dReal depth,
                    int mode)
{
    dContact c;
    dJointID j;
    memset(&c, 0, sizeof c);
    c.surface.mode = mode;
    c.surface.mu = dInfinity;
    c.surface.soft_erp = 0.5;
    c.surface.soft_cfm = 1e-6;
    c.geom.pos[0] = x; c.geom.pos[1] = y; c.geom.pos[2] = z;
    c.geom.normal[0] = nx; c.geom.normal[1] = ny; c.geom.normal[2] = nz;
    c.geom.depth = depth;
    j = dJointCreateContact(w, 0, &c);
    dJointAttach(j, b1, b2);
}

static void scene(int k)
{
    dBodyID a, b, c, d, e, f, g, hh;
    dJointID j;
    switch (k) {
    case 0: /* hinge to the world, powered */
        a = box(0.6, 0, 0.1, 1.5, 0.5, 0.1, 0.2, 0.3);
        j = dJointCreateHinge(w, 0);
        dJointAttach(j, a, 0);
        dJointSetHingeAnchor(j, 0, 0, 0.1);
        dJointSetHingeAxis(j, 0.1, 1, 0.2);
        dJointSetHingeParam(j, dParamVel, 1);
        dJointSetHingeParam(j, dParamFMax, 1000);
        nudge(a, 0.01);
        break;
    case 1: /* hinge (0, a) and hinge (a, b), powered */
        a = box(0, 0, 1, 2, 0.3, 0.3, 0.3, 0.5);
        b = box(0.1, 0.2, 0.5, 1, 0.2, 0.2, 0.6, -0.4);
        j = dJointCreateHinge(w, 0);
        dJointAttach(j, 0, a);
        dJointSetHingeAnchor(j, 0, 0, 1.2);
        dJointSetHingeAxis(j, 1, 0, 0.3);
        dJointSetHingeParam(j, dParamVel, -0.5);
        dJointSetHingeParam(j, dParamFMax, 1000);
        j = dJointCreateHinge(w, 0);
        dJointAttach(j, a, b);
        dJointSetHingeAnchor(j, 0.05, 0.1, 0.8);
        dJointSetHingeAxisOffset(j, 0.2, 1, -0.1, 0.3);
        dJointSetHingeParam(j, dParamVel, 2);
        dJointSetHingeParam(j, dParamFMax, 1000);
        nudge(b, -0.02);
        break;
    case 2: /* ball chain (a, 0), (a, b), (b, c), and (0, d) */
        a = box(0, 0, 0, 1, 0.3, 0.1, 0.1, 0.2);
        b = box(0.3, 0.1, 0, 0.5, 0.3, 0.1, 0.1, 0.7);
        c = box(0.6, 0, 0.1, 0.8, 0.3, 0.1, 0.1, -0.3);
        j = dJointCreateBall(w, 0);
        dJointAttach(j, a, 0);
        dJointSetBallAnchor(j, -0.15, 0, 0);
        dJointSetBallParam(j, dParamERP, 0.6);
        j = dJointCreateBall(w, 0);
        dJointAttach(j, a, b);
        dJointSetBallAnchor(j, 0.15, 0.05, 0);
        j = dJointCreateBall(w, 0);
        dJointAttach(j, b, c);
        dJointSetBallAnchor(j, 0.45, 0.05, 0.05);
        dJointSetBallParam(j, dParamCFM, 1e-3);
        d = box(1.5, 0.5, 0.2, 0.6, 0.3, 0.2, 0.1, 0.5);
        j = dJointCreateBall(w, 0);
        dJointAttach(j, 0, d);
        dJointSetBallAnchor(j, 1.6, 0.55, 0.25);
        dJointSetBallParam(j, dParamERP, 0.7);
        nudge(b, 0.015);
        nudge(c, -0.01);
        nudge(d, 0.02);
        break;
    case 3: /* sliders: (a, 0) powered, (a, b), (0, c) powered */
        a = box(0, 0, 1, 1.2, 0.3, 0.2, 0.2, 0.3);
        b = box(0.4, 0.3, 0.8, 0.6, 0.2, 0.2, 0.2, -0.2);
        c = box(-1, 0.5, 0.5, 0.7, 0.2, 0.2, 0.2, 0.9);
        j = dJointCreateSlider(w, 0);
        dJointAttach(j, a, 0);
        dJointSetSliderAxis(j, 0.3, 0, 1);
        dJointSetSliderParam(j, dParamVel, -0.5);
        dJointSetSliderParam(j, dParamFMax, 1000);
        j = dJointCreateSlider(w, 0);
        dJointAttach(j, a, b);
        dJointSetSliderAxis(j, 1, 0.2, -0.3);
        j = dJointCreateSlider(w, 0);
        dJointAttach(j, 0, c);
        dJointSetSliderAxisDelta(j, 0, 0.6, 0.8, 0.1, -0.05, 0.02);
        dJointSetSliderParam(j, dParamVel, 0.7);
        dJointSetSliderParam(j, dParamFMax, 1000);
        nudge(a, 0.01);
        nudge(b, -0.01);
        nudge(c, 0.02);
        break;
    case 4: /* fixed: (a, 0), (a, b), (0, c) */
        a = box(0, 0, 2, 1, 0.3, 0.4, 0.5, 0.4);
        b = box(0.3, -0.2, 2.1, 0.5, 0.2, 0.2, 0.2, -0.6);
        c = box(1, 1, 1, 0.9, 0.2, 0.3, 0.2, 1.1);
        j = dJointCreateFixed(w, 0);
        dJointAttach(j, a, 0);
        dJointSetFixed(j);
        dJointSetFixedParam(j, dParamERP, 0.5);
        j = dJointCreateFixed(w, 0);
        dJointAttach(j, a, b);
        dJointSetFixed(j);
        dJointSetFixedParam(j, dParamCFM, 1e-4);
        j = dJointCreateFixed(w, 0);
        dJointAttach(j, 0, c);
        dJointSetFixed(j);
        nudge(a, 0.01);
        nudge(b, 0.02);
        nudge(c, -0.015);
        break;
    case 5: /* contacts with mu = dInfinity, one point per pair: a on the
               ground, b on a (two bodies), c under the ground as (0, c) */
        a = box(0, 0, 0.1, 1, 0.2, 0.2, 0.2, 0);
        b = box(0.05, 0, 0.3, 0.5, 0.2, 0.2, 0.2, 0);
        c = box(2, 0, 0.1, 0.8, 0.2, 0.2, 0.2, 0);
        contact(a, 0, 0.02, -0.01, 0, 0, 0, 1, 0.01, dContactSoftERP);
        contact(b, a, 0.05, 0.02, 0.2, 0, 0, 1, 0.005, 0);
        contact(0, c, 2.01, 0.03, 0, 0, 0, -1, 0.003, dContactSoftCFM);
        break;
    case 6: /* stops: a hinge pendulum past its high stop with bounce and a
               motor pushing into the stop; a slider past its low stop with a
               motor into it; a two-body slider with lostop == histop; a
               two-body hinge past its high stop driven away (fudge) */
        a = box(0.5, 0, 0, 1, 0.4, 0.1, 0.1, 0.2);
        j = dJointCreateHinge(w, 0);
        dJointAttach(j, a, 0);
        dJointSetHingeAnchor(j, 0.3, 0, 0);
        dJointSetHingeAxis(j, 0, 1, 0);
        dJointSetHingeParam(j, dParamHiStop, -0.05);
        dJointSetHingeParam(j, dParamBounce, 0.4);
        dJointSetHingeParam(j, dParamStopERP, 0.6);
        dJointSetHingeParam(j, dParamStopCFM, 1e-6);
        dJointSetHingeParam(j, dParamVel, 2);
        dJointSetHingeParam(j, dParamFMax, 5);
        dBodySetAngularVel(a, 0, 1.5, 0);
        b = box(1, 1, 1, 1.2, 0.2, 0.2, 0.2, 0.4);
        j = dJointCreateSlider(w, 0);
        dJointAttach(j, b, 0);
        dJointSetSliderAxis(j, 0.1, 0.2, 1);
        dJointSetSliderParam(j, dParamLoStop, 0.02);
        dJointSetSliderParam(j, dParamBounce, 0.5);
        dJointSetSliderParam(j, dParamVel, -1);
        dJointSetSliderParam(j, dParamFMax, 3);
        dBodySetLinearVel(b, 0, 0, -1);
        c = box(2, 0, 1, 1, 0.2, 0.2, 0.2, 0.1);
        d = box(2.3, 0.1, 1.2, 0.5, 0.2, 0.2, 0.2, -0.3);
        j = dJointCreateSlider(w, 0);
        dJointAttach(j, c, d);
        dJointSetSliderAxis(j, 1, 0, 0.5);
        dJointSetSliderParam(j, dParamLoStop, 0);
        dJointSetSliderParam(j, dParamHiStop, 0);
        dJointSetSliderParam(j, dParamVel, 1);
        dJointSetSliderParam(j, dParamFMax, 2);
        e = box(3, 0, 1, 1, 0.3, 0.1, 0.1, 0.2);
        f = box(3.4, 0, 1, 0.7, 0.3, 0.1, 0.1, 0.5);
        dBodySetGravityMode(e, 0);
        dBodySetGravityMode(f, 0);
        j = dJointCreateHinge(w, 0);
        dJointAttach(j, e, f);
        dJointSetHingeAnchor(j, 3.2, 0, 1);
        dJointSetHingeAxis(j, 0, 0, 1);
        dJointSetHingeParam(j, dParamHiStop, -0.02);
        dJointSetHingeParam(j, dParamVel, -1);
        dJointSetHingeParam(j, dParamFMax, 4);
        dJointSetHingeParam(j, dParamFudgeFactor, 0.3);
        dBodySetAngularVel(e, 0, 0, 2.5);
        dBodySetAngularVel(f, 0, 0, -2.5);
        g = box(4, 0, 1, 0.9, 0.2, 0.2, 0.2, 0.3);
        hh = box(4.3, 0.2, 0.9, 0.6, 0.2, 0.2, 0.2, -0.5);
        dBodySetGravityMode(g, 0);
        dBodySetGravityMode(hh, 0);
        j = dJointCreateSlider(w, 0);
        dJointAttach(j, g, hh);
        dJointSetSliderAxis(j, 1, 0, 0.5);
        dJointSetSliderParam(j, dParamHiStop, -0.03);
        dJointSetSliderParam(j, dParamVel, 1);
        dJointSetSliderParam(j, dParamFMax, 2);
        dBodySetLinearVel(g, 1, 0, 0.5);
        dBodySetLinearVel(hh, -1, 0, -0.5);
        break;
    case 7: /* contacts with every surface option, one point per pair */
        a = box(0, 0, 0.1, 1, 0.2, 0.2, 0.2, 0);
        b = box(0.02, 0.01, 0.3, 0.5, 0.2, 0.2, 0.2, 0);
        c = box(2, 0, 0.1, 0.8, 0.2, 0.2, 0.2, 0);
        dBodySetLinearVel(a, 0.1, 0.2, -1);
        {
            dContact k;
            memset(&k, 0, sizeof k);
            k.surface.mode = dContactMu2 | dContactFDir1 | dContactApprox1 | dContactMotion1 | dContactMotion2 |
                             dContactMotionN | dContactSlip1 | dContactSlip2 | dContactBounce | dContactRolling |
                             dContactSoftERP;
            k.surface.mu = 50;
            k.surface.mu2 = 40;
            k.surface.rho = 5;
            k.surface.rho2 = 4;
            k.surface.rhoN = 3;
            k.surface.bounce = 0.5;
            k.surface.bounce_vel = 0.1;
            k.surface.soft_erp = 0.4;
            k.surface.motion1 = 0.3;
            k.surface.motion2 = -0.2;
            k.surface.motionN = 0.05;
            k.surface.slip1 = 1e-3;
            k.surface.slip2 = 2e-3;
            k.geom.pos[0] = 0.01; k.geom.pos[1] = -0.01; k.geom.normal[2] = 1; k.geom.depth = 0.01;
            k.fdir1[0] = 0.6; k.fdir1[1] = 0.8;
            j = dJointCreateContact(w, 0, &k);
            dJointAttach(j, a, 0);
            /* two bodies, box friction and isotropic rolling */
            memset(&k, 0, sizeof k);
            k.surface.mode = dContactRolling | dContactSoftCFM;
            k.surface.mu = 100;
            k.surface.rho = 100;
            k.surface.soft_cfm = 1e-5;
            k.geom.pos[0] = 0.02; k.geom.pos[1] = 0.01; k.geom.pos[2] = 0.2; k.geom.normal[2] = 1;
            k.geom.depth = 0.004;
            j = dJointCreateContact(w, 0, &k);
            dJointAttach(j, b, a);
            /* reversed, anisotropic with one direction frictionless */
            memset(&k, 0, sizeof k);
            k.surface.mode = dContactAxisDep | dContactApprox1_2;
            k.surface.mu = 0;
            k.surface.mu2 = 30;
            k.geom.pos[0] = 2; k.geom.normal[2] = -1; k.geom.depth = 0.02;
            j = dJointCreateContact(w, 0, &k);
            dJointAttach(j, 0, c);
        }
        break;
    }
}

int main(void)
{
    int k, i;
    dInitODE2(0);
    for (k = 0; k < 8; k++) {
        w = dWorldCreate();
        nb = 0;
        dWorldSetGravity(w, 0.5, -0.3, -9.81);
        dWorldSetERP(w, 0.3);
        dWorldSetCFM(w, 1e-8);
        dWorldSetContactMaxCorrectingVel(w, 0.4);
        dWorldSetContactSurfaceLayer(w, 0.002);
        scene(k);
        dWorldStep(w, 0.01);
        for (i = 0; i < nb; i++) {
            const dReal *v = dBodyGetLinearVel(bodies[i]), *a = dBodyGetAngularVel(bodies[i]);
            printf("scene %d body %d v %.17g %.17g %.17g w %.17g %.17g %.17g\n", k, i, v[0], v[1], v[2], a[0], a[1],
                   a[2]);
        }
        dWorldDestroy(w);
    }
    dCloseODE();
    return 0;
}
