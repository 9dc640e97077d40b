/* DIFF-TOL rel=1e-6 abs=1e-8 */
/*
 * demo_spin: a scene of free rigid bodies (no joints, no collision), in
 * the spirit of ODE's gyroscopic samples, drawn with drawstuff.
 *
 *   crate    a box thrown upwards, pushed by an off-centre "thruster"
 *   ball     a damped sphere in a side wind
 *   top      a fast-spinning disc with gravity's torque about a pivot
 *            point applied by hand: its axis precesses, and the rate is
 *            checked against the gyroscope formula  W = m g h / (I3 w)
 *   tumbler  a box spun about its intermediate axis (tennis-racket
 *            effect): with gyroscopic integration it flips over and over;
 *   rigid    the same box with gyroscopic mode off keeps spinning as it
 *            started, since ODE then ignores the w x (I w) term.
 *
 * The first 2 s use dWorldStep, the last second dWorldQuickStep. The
 * program prints a trace every 0.5 s and a summary; scripts/demo.sh runs it
 * against our library and compares it with Debian's libode.so.8.
 *
 * drawstuff runs the scene, one simulation step per frame (none while
 * paused), and draws the five bodies (nothing collides: the crate and the
 * ball fall through the ground); drawing only reads the bodies' state, so
 * the printed trace does not depend on it. Headless by default (DS_FRAMES,
 * set below to the step count), pictures with DS_OUTPUT=dir (or -output
 * dir), a window with -window.
 */
#define _POSIX_C_SOURCE 200112L /* setenv */
#include <drawstuff/drawstuff.h>
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define DT 0.005
#define STEPS 600
#define QUICK_FROM 400
#define PRINT_EVERY 100
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static const double G = 9.81;

/* Top: disc of mass M_TOP, radius R_TOP, pivot H_TOP below its centre. */
#define M_TOP 1.0
#define R_TOP 0.4
#define L_TOP 0.05
#define H_TOP 0.3
#define SPIN_TOP 60.0
#define TILT_TOP 0.35

static void show_vec(const char *label, const dReal *v) {
    printf(" %s %.10g %.10g %.10g", label, (double)v[0], (double)v[1], (double)v[2]);
}

/* Symmetry axis of the top (its body z axis) in world coordinates. */
static void top_axis(dBodyID top, dVector3 axis) {
    dBodyVectorToWorld(top, 0, 0, 1, axis);
}

static dWorldID world;
static dBodyID crate, ball, top, tumbler, rigid;
static double crate_mass, top_I3;
static int step; /* simulation steps taken */
static int flips_on = 0, flips_off = 0;
static double last_sign_on = 1.0, last_sign_off = 1.0;
static double azimuth_prev, unwrapped = 0.0;

/* The state after `step` steps: the trace every PRINT_EVERY steps, the
 * summary after the last one. */
static void observe(void) {
    dVector3 axis, w_body;
    if (step % PRINT_EVERY == 0) {
        printf("t %.3f\n", step * DT);
        printf(" crate");
        show_vec("pos", dBodyGetPosition(crate));
        show_vec("vel", dBodyGetLinearVel(crate));
        printf("\n");
        const dReal *q = dBodyGetQuaternion(crate);
        printf(" crate quat %.10g %.10g %.10g %.10g\n", q[0], q[1], q[2], q[3]);
        printf(" ball");
        show_vec("pos", dBodyGetPosition(ball));
        show_vec("vel", dBodyGetLinearVel(ball));
        show_vec("avel", dBodyGetAngularVel(ball));
        printf("\n");
        top_axis(top, axis);
        printf(" top");
        show_vec("axis", axis);
        show_vec("pos", dBodyGetPosition(top));
        printf("\n");
        dBodyVectorFromWorld(tumbler, dBodyGetAngularVel(tumbler)[0], dBodyGetAngularVel(tumbler)[1],
                             dBodyGetAngularVel(tumbler)[2], w_body);
        printf(" tumbler");
        show_vec("wbody", w_body);
        printf("\n");
        dBodyVectorFromWorld(rigid, dBodyGetAngularVel(rigid)[0], dBodyGetAngularVel(rigid)[1],
                             dBodyGetAngularVel(rigid)[2], w_body);
        printf(" rigid");
        show_vec("wbody", w_body);
        printf("\n");
    }
    if (step == STEPS) {
        double T = STEPS * DT;
        double measured = unwrapped / T;
        double theory = M_TOP * G * H_TOP / (top_I3 * SPIN_TOP);
        printf("summary\n");
        printf(" top precession measured %.6f rad/s theory %.6f rad/s\n", measured, theory);
        printf(" tumbler flips gyroscopic_on %d gyroscopic_off %d\n", flips_on, flips_off);
        const dReal *p = dBodyGetPosition(ball);
        printf(" ball drifted %.6f m downwind\n", p[0] - 2.0);
    }
}

/* One step: the hand-applied forces, the world step, then the precession
 * angle and the flip counts. */
static void simulate(void) {
    dVector3 axis, w_body;
    /* thruster under one end of the crate, along its own z axis */
    dBodyAddRelForceAtRelPos(crate, 0, 0, 0.3 * crate_mass * G, 0.25, 0, -0.1);
    /* wind on the ball */
    dBodyAddForce(ball, 1.5, 0.5, 0);
    /* gravity's torque about the top's pivot: (h axis) x (0, 0, -m g) */
    top_axis(top, axis);
    dBodyAddTorque(top, -H_TOP * axis[1] * M_TOP * G, H_TOP * axis[0] * M_TOP * G, 0);

    if (step < QUICK_FROM)
        dWorldStep(world, DT);
    else
        dWorldQuickStep(world, DT);

    /* precession angle of the top's axis, unwrapped */
    top_axis(top, axis);
    double az = atan2(axis[1], axis[0]);
    double d = az - azimuth_prev;
    if (d > M_PI) d -= 2 * M_PI;
    if (d < -M_PI) d += 2 * M_PI;
    unwrapped += d;
    azimuth_prev = az;

    /* flips: the body-frame spin about y changes sign */
    dBodyVectorFromWorld(tumbler, dBodyGetAngularVel(tumbler)[0], dBodyGetAngularVel(tumbler)[1],
                         dBodyGetAngularVel(tumbler)[2], w_body);
    if (w_body[1] * last_sign_on < 0) { flips_on++; last_sign_on = -last_sign_on; }
    dBodyVectorFromWorld(rigid, dBodyGetAngularVel(rigid)[0], dBodyGetAngularVel(rigid)[1],
                         dBodyGetAngularVel(rigid)[2], w_body);
    if (w_body[1] * last_sign_off < 0) { flips_off++; last_sign_off = -last_sign_off; }
    step++;
}

/* drawstuff callbacks */

static void start(void) {
    /* south of the scene, level with the spinning boxes, looking north */
    static float xyz[3] = {2.5f, -10.0f, 5.0f};
    static float hpr[3] = {90.0f, 0.0f, 0.0f};
    dsSetViewpoint(xyz, hpr);
    observe();
}

static void draw(void) {
    static const double crate_sides[3] = {0.6, 0.4, 0.2}, tumbler_sides[3] = {0.1, 0.4, 0.7};
    dsSetTexture(DS_WOOD);
    dsSetColor(1, 0.8f, 0.5f);
    dsDrawBoxD(dBodyGetPosition(crate), dBodyGetRotation(crate), crate_sides);
    dsSetTexture(DS_CHECKERED);
    dsSetColor(1, 0.3f, 0.3f);
    dsDrawSphereD(dBodyGetPosition(ball), dBodyGetRotation(ball), 0.25f);
    dsSetTexture(DS_NONE);
    dsSetColor(0.3f, 0.6f, 1);
    dsDrawCylinderD(dBodyGetPosition(top), dBodyGetRotation(top), (float)L_TOP, (float)R_TOP);
    dsSetColor(0.3f, 1, 0.3f);
    dsDrawBoxD(dBodyGetPosition(tumbler), dBodyGetRotation(tumbler), tumbler_sides);
    dsSetColor(1, 1, 0.3f);
    dsDrawBoxD(dBodyGetPosition(rigid), dBodyGetRotation(rigid), tumbler_sides);
}

static void sim_step(int pause) {
    if (!pause && step < STEPS) {
        simulate();
        observe();
        if (step == STEPS) dsStop();
    }
    draw();
}

int main(int argc, char **argv) {
    dMass m;
    dMatrix3 R;
    dVector3 axis;
    dsFunctions fn = {DS_VERSION, &start, &sim_step, 0, 0, 0};

    dInitODE2(0);
    world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, -G);

    /* crate: 0.6 x 0.4 x 0.2 m, density 400 kg/m^3 */
    crate = dBodyCreate(world);
    dMassSetBox(&m, 400, 0.6, 0.4, 0.2);
    dBodySetMass(crate, &m);
    dBodySetPosition(crate, 0, 0, 10);
    dBodySetLinearVel(crate, 3, 0, 4);
    dBodySetAngularVel(crate, 0, 0, 2);
    crate_mass = m.mass;

    /* ball: 2 kg, radius 0.25 m, damped */
    ball = dBodyCreate(world);
    dMassSetSphereTotal(&m, 2, 0.25);
    dBodySetMass(ball, &m);
    dBodySetPosition(ball, 2, 0, 10);
    dBodySetAngularVel(ball, 0, 5, 0);
    dBodySetLinearDamping(ball, 0.002);
    dBodySetAngularDamping(ball, 0.001);

    /* top: disc about its z axis, tilted about x, spinning fast */
    top = dBodyCreate(world);
    dMassSetCylinderTotal(&m, M_TOP, 3, R_TOP, L_TOP);
    dBodySetMass(top, &m);
    dBodySetPosition(top, -2, 0, 1);
    dRFromAxisAndAngle(R, 1, 0, 0, TILT_TOP);
    dBodySetRotation(top, R);
    top_axis(top, axis);
    dBodySetAngularVel(top, SPIN_TOP * axis[0], SPIN_TOP * axis[1], SPIN_TOP * axis[2]);
    dBodySetGravityMode(top, 0);
    dBodySetGyroscopicMode(top, 1);
    top_I3 = m.I[2 * 4 + 2];
    azimuth_prev = atan2(axis[1], axis[0]);

    /* tumbler and rigid: 0.1 x 0.4 x 0.7 m boxes spun about y, the
     * intermediate principal axis, with a tiny perturbation */
    tumbler = dBodyCreate(world);
    rigid = dBodyCreate(world);
    dMassSetBox(&m, 1000, 0.1, 0.4, 0.7);
    dBodySetMass(tumbler, &m);
    dBodySetMass(rigid, &m);
    dBodySetPosition(tumbler, 0, 3, 5);
    dBodySetPosition(rigid, 0, -3, 5);
    dBodySetAngularVel(tumbler, 0.01, 8, 0.01);
    dBodySetAngularVel(rigid, 0.01, 8, 0.01);
    dBodySetGravityMode(tumbler, 0);
    dBodySetGravityMode(rigid, 0);
    dBodySetGyroscopicMode(tumbler, 1);
    dBodySetGyroscopicMode(rigid, 0);

    printf("demo_spin: 5 bodies, dt %.3g s, %d steps (dWorldStep, then dWorldQuickStep from step %d)\n",
           DT, STEPS, QUICK_FROM);

    /* One frame per step: a headless run (drawstuff's default when there is
     * no display) must last the whole scene, unless the user says otherwise
     * (their DS_FRAMES or -frames wins). The last step calls dsStop. */
    setenv("DS_FRAMES", STRINGIFY(STEPS), 0);
    dsSimulationLoop(argc, argv, 640, 480, &fn);

    dWorldDestroy(world);
    dCloseODE();
    return 0;
}
