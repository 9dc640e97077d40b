/* DIFF-TOL rel=0 abs=0 */
/*
 * demo_buggy: a buggy ride, after ODE's demo_buggy sample (our own program,
 * drawn with drawstuff; it also prints the chassis state).
 *
 * A 0.7 x 0.5 x 0.2 m box chassis rides on three sphere wheels, each held
 * by a hinge2 joint: axis 1 (vertical) steers and carries the suspension
 * (its own ERP/CFM), axis 2 (sideways) is the axle. The front wheel is
 * driven by the axle motor and steered by the axis-1 motor between stops at
 * +-0.75 rad; the rear wheels are locked straight by stops at 0. The world
 * has a ground plane and a tilted box as a ramp. Collision goes through a
 * hash space that holds the car's own simple space; the near callback looks
 * inside it and makes soft, slipping contacts (demo_buggy's surface) in a
 * joint group emptied after each step.
 *
 * The "driver": accelerate straight over the ramp, turn right, turn left,
 * then brake. dWorldStep for the first 6 s, dWorldQuickStep for the rest.
 * The state is printed every 0.5 s; scripts/demo.sh runs the program
 * against our library and compares the output with Debian's libode.so.8.
 *
 * drawstuff runs the ride, one simulation step per frame (none while
 * paused), and draws the chassis, the wheels and the ramp; drawing only
 * reads the bodies' state, so the printed trace does not depend on it.
 * Headless by default (DS_FRAMES, set below to the step count), pictures
 * with DS_OUTPUT=dir (or -output dir), a window with -window.
 */
#define _POSIX_C_SOURCE 200112L /* setenv */
#include <drawstuff/drawstuff.h>
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define DT 0.01
#define STEPS 1000
#define QUICK_FROM 600
#define PRINT_EVERY 50
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

#define LENGTH 0.7
#define WIDTH 0.5
#define HEIGHT 0.2
#define RADIUS 0.18
#define START_Z 0.5
#define CHASSIS_MASS 1.0
#define WHEEL_MASS 0.2

static dWorldID world;
static dSpaceID space;
static dJointGroupID contacts;
static dGeomID ground, ramp;
static int touching;
static dBodyID chassis, wheel[3];
static dGeomID chassis_box, ball[3];
static dJointID hinge[3];
static int step;             /* simulation steps taken */
static double top, distance; /* summary figures */

/* Contact only between a car geom and the environment. */
static void near_callback(void *data, dGeomID a, dGeomID b) {
    dContact c[8];
    int i, n;
    if (dGeomIsSpace(a) || dGeomIsSpace(b)) {
        dSpaceCollide2(a, b, data, &near_callback);
        return;
    }
    int env_a = a == ground || a == ramp, env_b = b == ground || b == ramp;
    if (env_a == env_b) return;
    n = dCollide(a, b, 8, &c[0].geom, sizeof(dContact));
    for (i = 0; i < n; i++) {
        c[i].surface.mode = dContactSlip1 | dContactSlip2 | dContactSoftERP | dContactSoftCFM | dContactApprox1;
        c[i].surface.mu = dInfinity;
        c[i].surface.slip1 = c[i].surface.slip2 = 0.1;
        c[i].surface.soft_erp = 0.5;
        c[i].surface.soft_cfm = 0.3;
        dJointID j = dJointCreateContact(world, contacts, &c[i]);
        dJointAttach(j, dGeomGetBody(c[i].geom.g1), dGeomGetBody(c[i].geom.g2));
        touching++;
    }
}

/* What the driver asks for at time t: wheel spin (rad/s) and steering. */
static void driver(double t, double *speed, double *steer) {
    *speed = t < 0.5 ? 0 : t < 8.5 ? 8 : 0;
    *steer = t < 4 ? 0 : t < 6 ? 0.5 : t < 8 ? -0.5 : 0;
}

/* The state after `step` steps: the trace every PRINT_EVERY steps, the
 * summary after the last one. */
static void observe(void) {
    const dReal *p = dBodyGetPosition(chassis);
    if (step * DT > 1 && p[2] > top) top = p[2]; /* once it has landed */
    if (step % PRINT_EVERY == 0) {
        const dReal *v = dBodyGetLinearVel(chassis), *Q = dBodyGetQuaternion(chassis);
        dVector3 fwd;
        dBodyVectorToWorld(chassis, 1, 0, 0, fwd);
        printf("t %4.1f  pos %9.6f %9.6f %8.6f  quat %9.6f %9.6f %9.6f %9.6f\n", step * DT, p[0], p[1], p[2],
               Q[0], Q[1], Q[2], Q[3]);
        printf("        vel %9.6f %9.6f %9.6f  heading %9.6f  steer %9.6f  contacts %d\n", v[0], v[1], v[2],
               atan2(fwd[1], fwd[0]), dJointGetHinge2Angle1(hinge[0]), touching);
    }
    if (step == STEPS) {
        printf("summary\n");
        printf(" distance driven %.6f m, chassis centre at most %.6f m high after landing (0.17 m at rest on flat ground, the ramp is 0.31 m high)\n", distance, top);
        printf(" front wheel spin %.6f rad/s, steering angle %.6f rad\n", dJointGetHinge2Angle2Rate(hinge[0]),
               dJointGetHinge2Angle1(hinge[0]));
    }
}

/* One step of the ride: the driver, collision, the world step. */
static void simulate(void) {
    double speed, steer;
    driver(step * DT, &speed, &steer);
    dJointSetHinge2Param(hinge[0], dParamVel2, -speed);
    /* steer towards the wanted angle, at most 1 rad/s */
    double v = 10 * (steer - dJointGetHinge2Angle1(hinge[0]));
    dJointSetHinge2Param(hinge[0], dParamVel, v > 1 ? 1 : v < -1 ? -1 : v);

    const dReal *before = dBodyGetPosition(chassis);
    double x0 = before[0], y0 = before[1];
    touching = 0;
    dSpaceCollide(space, 0, &near_callback);
    if (step < QUICK_FROM)
        dWorldStep(world, DT);
    else
        dWorldQuickStep(world, DT);
    dJointGroupEmpty(contacts);
    const dReal *p = dBodyGetPosition(chassis);
    distance += sqrt((p[0] - x0) * (p[0] - x0) + (p[1] - y0) * (p[1] - y0));
    step++;
}

/* drawstuff callbacks */

static void start(void) {
    /* north of the course, looking south over the ramp and both turns */
    static float xyz[3] = {3.2f, 3.6f, 2.2f};
    static float hpr[3] = {-88.0f, -25.0f, 0.0f};
    dsSetViewpoint(xyz, hpr);
    observe();
}

static void draw(void) {
    dVector3 sides;
    int i;
    dsSetTexture(DS_NONE);
    dsSetColor(0.6f, 0.6f, 0.65f);
    dGeomBoxGetLengths(ramp, sides);
    dsDrawBoxD(dGeomGetPosition(ramp), dGeomGetRotation(ramp), sides);
    dsSetTexture(DS_WOOD);
    dsSetColor(0, 1, 1);
    dGeomBoxGetLengths(chassis_box, sides);
    dsDrawBoxD(dBodyGetPosition(chassis), dBodyGetRotation(chassis), sides);
    dsSetTexture(DS_NONE);
    dsSetColor(0.25f, 0.25f, 0.25f);
    for (i = 0; i < 3; i++) dsDrawSphereD(dBodyGetPosition(wheel[i]), dBodyGetRotation(wheel[i]), (float)RADIUS);
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
    static const dVector3 up = {0, 0, 1}, side = {0, 1, 0};
    dMass m;
    dQuaternion q;
    dMatrix3 R;
    int i;
    dsFunctions fn = {DS_VERSION, &start, &sim_step, 0, 0, 0};

    dInitODE2(0);
    world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, -9.81);
    space = dHashSpaceCreate(0);
    contacts = dJointGroupCreate(0);
    ground = dCreatePlane(space, 0, 0, 1, 0);
    ramp = dCreateBox(space, 2, 1.5, 1);
    dRFromAxisAndAngle(R, 0, 1, 0, -0.15);
    dGeomSetPosition(ramp, 2, 0, -0.34);
    dGeomSetRotation(ramp, R);

    chassis = dBodyCreate(world);
    dBodySetPosition(chassis, 0, 0, START_Z);
    dMassSetBox(&m, 1, LENGTH, WIDTH, HEIGHT);
    dMassAdjust(&m, CHASSIS_MASS);
    dBodySetMass(chassis, &m);
    chassis_box = dCreateBox(0, LENGTH, WIDTH, HEIGHT);
    dGeomSetBody(chassis_box, chassis);

    dQFromAxisAndAngle(q, 1, 0, 0, M_PI / 2);
    for (i = 0; i < 3; i++) {
        wheel[i] = dBodyCreate(world);
        dBodySetQuaternion(wheel[i], q);
        dMassSetSphere(&m, 1, RADIUS);
        dMassAdjust(&m, WHEEL_MASS);
        dBodySetMass(wheel[i], &m);
        ball[i] = dCreateSphere(0, RADIUS);
        dGeomSetBody(ball[i], wheel[i]);
    }
    dBodySetPosition(wheel[0], LENGTH / 2, 0, START_Z - HEIGHT / 2);
    dBodySetPosition(wheel[1], -LENGTH / 2, WIDTH / 2, START_Z - HEIGHT / 2);
    dBodySetPosition(wheel[2], -LENGTH / 2, -WIDTH / 2, START_Z - HEIGHT / 2);

    for (i = 0; i < 3; i++) {
        const dReal *p = dBodyGetPosition(wheel[i]);
        hinge[i] = dJointCreateHinge2(world, 0);
        dJointAttach(hinge[i], chassis, wheel[i]);
        dJointSetHinge2Anchor(hinge[i], p[0], p[1], p[2]);
        dJointSetHinge2Axes(hinge[i], up, side);
        dJointSetHinge2Param(hinge[i], dParamSuspensionERP, 0.4);
        dJointSetHinge2Param(hinge[i], dParamSuspensionCFM, 0.8);
        if (i > 0) {
            dJointSetHinge2Param(hinge[i], dParamLoStop, 0);
            dJointSetHinge2Param(hinge[i], dParamHiStop, 0);
        }
    }
    dJointSetHinge2Param(hinge[0], dParamLoStop, -0.75);
    dJointSetHinge2Param(hinge[0], dParamHiStop, 0.75);
    dJointSetHinge2Param(hinge[0], dParamFudgeFactor, 0.1);
    dJointSetHinge2Param(hinge[0], dParamFMax, 2);
    dJointSetHinge2Param(hinge[0], dParamFMax2, 1);

    dSpaceID car = dSimpleSpaceCreate(space);
    dSpaceSetCleanup(car, 0);
    dSpaceAdd(car, chassis_box);
    for (i = 0; i < 3; i++) dSpaceAdd(car, ball[i]);

    printf("demo_buggy: 4 bodies, 3 hinge2 joints, dt %.3g s, %d steps (dWorldStep, then dWorldQuickStep from "
           "step %d)\n", DT, STEPS, QUICK_FROM);
    /* One frame per step: a headless run (drawstuff's default when there is
     * no display) must last the whole ride, unless the user says otherwise
     * (their DS_FRAMES or -frames wins). The last step calls dsStop. */
    setenv("DS_FRAMES", STRINGIFY(STEPS), 0);
    dsSimulationLoop(argc, argv, 640, 480, &fn);

    dGeomDestroy(chassis_box);
    for (i = 0; i < 3; i++) dGeomDestroy(ball[i]);
    dJointGroupDestroy(contacts);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    dCloseODE();
    return 0;
}
