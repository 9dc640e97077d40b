/*
 * The buggy scene shared by diff_buggy.c, t_buggy_drive.c and demo_buggy.c:
 * in the spirit of ODE's demo_buggy (our own code, headless). A box chassis
 * on three sphere wheels, each on a hinge2 joint whose axis 1 (along z) is
 * the steering axis with the suspension ERP/CFM, and axis 2 (along y) the
 * wheel axle. The front wheel steers with a motor on axis 1 (stops at
 * +-0.75) and drives with the motor on axis 2; the back wheels are locked
 * in line by stops at 0 on axis 1. A plane and a tilted box (the ramp) sit
 * in a hash space; the car's geoms sit in their own simple space inside it,
 * and the near callback recurses into it (dSpaceCollide2 on the car space)
 * colliding only car geoms with the environment, making soft, slipping
 * contacts in a joint group.
 *
 * The caller owns the driving schedule: buggy_drive(speed, steer) sets the
 * motors before each step, buggy_step(quick) collides and steps.
 */
#ifndef DIFF_BUGGY_SCENE_H
#define DIFF_BUGGY_SCENE_H

#include <ode/ode.h>
#include <math.h>

#define BUGGY_LENGTH 0.7
#define BUGGY_WIDTH 0.5
#define BUGGY_HEIGHT 0.2
#define BUGGY_RADIUS 0.18
#define BUGGY_STARTZ 0.5
#define BUGGY_CMASS 1.0
#define BUGGY_WMASS 0.2
#define BUGGY_MAX_CONTACTS 10

typedef struct {
    dWorldID world;
    dSpaceID space, car_space;
    dJointGroupID contacts;
    dGeomID ground, ramp, chassis_geom, wheel_geom[3];
    dBodyID chassis, wheel[3];
    dJointID hinge[3];   /* hinge[0] steers the front wheel */
    double dt;
    double drive_fmax, steer_fmax;  /* motor limits (demo_buggy: 0.1, 0.2) */
    int with_ramp;
    int ncontacts;       /* contact joints made in the last step */
    int nchassis;        /* of which touch the chassis box */
} Buggy;

static Buggy buggy_g;

static inline int buggy_is_env(dGeomID g) { return g == buggy_g.ground || g == buggy_g.ramp; }

static void buggy_near(void *data, dGeomID a, dGeomID b) {
    dContact c[BUGGY_MAX_CONTACTS];
    int i, n;
    (void)data;
    if (dGeomIsSpace(a) || dGeomIsSpace(b)) {
        /* the car space against the environment: look inside */
        dSpaceCollide2(a, b, data, &buggy_near);
        return;
    }
    /* only car against environment */
    if (buggy_is_env(a) == buggy_is_env(b)) return;
    n = dCollide(a, b, BUGGY_MAX_CONTACTS, &c[0].geom, sizeof(dContact));
    for (i = 0; i < n; i++) {
        c[i].surface.mode = dContactSlip1 | dContactSlip2 | dContactSoftERP | dContactSoftCFM | dContactApprox1;
        c[i].surface.mu = dInfinity;
        c[i].surface.slip1 = 0.1;
        c[i].surface.slip2 = 0.1;
        c[i].surface.soft_erp = 0.5;
        c[i].surface.soft_cfm = 0.3;
        dJointID j = dJointCreateContact(buggy_g.world, buggy_g.contacts, &c[i]);
        dJointAttach(j, dGeomGetBody(c[i].geom.g1), dGeomGetBody(c[i].geom.g2));
        buggy_g.ncontacts++;
        if (a == buggy_g.chassis_geom || b == buggy_g.chassis_geom) buggy_g.nchassis++;
    }
}

/* Builds the scene; gravity and dt are the caller's (demo_buggy uses a weak
 * gravity of 0.5 and a large step). */
static void buggy_create(double gravity, double dt, int with_ramp) {
    dMass m;
    dQuaternion q;
    dMatrix3 R;
    int i;
    Buggy *B = &buggy_g;
    B->dt = dt;
    B->drive_fmax = 0.1;
    B->steer_fmax = 0.2;
    B->with_ramp = with_ramp;
    B->world = dWorldCreate();
    B->space = dHashSpaceCreate(0);
    B->contacts = dJointGroupCreate(0);
    dWorldSetGravity(B->world, 0, 0, -gravity);
    B->ground = dCreatePlane(B->space, 0, 0, 1, 0);

    B->chassis = dBodyCreate(B->world);
    dBodySetPosition(B->chassis, 0, 0, BUGGY_STARTZ);
    dMassSetBox(&m, 1, BUGGY_LENGTH, BUGGY_WIDTH, BUGGY_HEIGHT);
    dMassAdjust(&m, BUGGY_CMASS);
    dBodySetMass(B->chassis, &m);
    B->chassis_geom = dCreateBox(0, BUGGY_LENGTH, BUGGY_WIDTH, BUGGY_HEIGHT);
    dGeomSetBody(B->chassis_geom, B->chassis);

    for (i = 0; i < 3; i++) {
        B->wheel[i] = dBodyCreate(B->world);
        /* wheels stand up: their local z axis becomes the world's -y */
        dQFromAxisAndAngle(q, 1, 0, 0, M_PI * 0.5);
        dBodySetQuaternion(B->wheel[i], q);
        dMassSetSphere(&m, 1, BUGGY_RADIUS);
        dMassAdjust(&m, BUGGY_WMASS);
        dBodySetMass(B->wheel[i], &m);
        B->wheel_geom[i] = dCreateSphere(0, BUGGY_RADIUS);
        dGeomSetBody(B->wheel_geom[i], B->wheel[i]);
    }
    dBodySetPosition(B->wheel[0], 0.5 * BUGGY_LENGTH, 0, BUGGY_STARTZ - 0.5 * BUGGY_HEIGHT);
    dBodySetPosition(B->wheel[1], -0.5 * BUGGY_LENGTH, 0.5 * BUGGY_WIDTH, BUGGY_STARTZ - 0.5 * BUGGY_HEIGHT);
    dBodySetPosition(B->wheel[2], -0.5 * BUGGY_LENGTH, -0.5 * BUGGY_WIDTH, BUGGY_STARTZ - 0.5 * BUGGY_HEIGHT);

    for (i = 0; i < 3; i++) {
        static const dVector3 up = {0, 0, 1}, side = {0, 1, 0};
        const dReal *p = dBodyGetPosition(B->wheel[i]);
        B->hinge[i] = dJointCreateHinge2(B->world, 0);
        dJointAttach(B->hinge[i], B->chassis, B->wheel[i]);
        dJointSetHinge2Anchor(B->hinge[i], p[0], p[1], p[2]);
        dJointSetHinge2Axes(B->hinge[i], up, side);
        dJointSetHinge2Param(B->hinge[i], dParamSuspensionERP, 0.4);
        dJointSetHinge2Param(B->hinge[i], dParamSuspensionCFM, 0.8);
    }
    /* back wheels: no steering */
    for (i = 1; i < 3; i++) {
        dJointSetHinge2Param(B->hinge[i], dParamLoStop, 0);
        dJointSetHinge2Param(B->hinge[i], dParamHiStop, 0);
    }

    B->car_space = dSimpleSpaceCreate(B->space);
    dSpaceSetCleanup(B->car_space, 0);
    dSpaceAdd(B->car_space, B->chassis_geom);
    for (i = 0; i < 3; i++) dSpaceAdd(B->car_space, B->wheel_geom[i]);

    B->ramp = 0;
    if (with_ramp) {
        B->ramp = dCreateBox(B->space, 2, 1.5, 1);
        dRFromAxisAndAngle(R, 0, 1, 0, -0.15);
        dGeomSetPosition(B->ramp, 2, 0, -0.34);
        dGeomSetRotation(B->ramp, R);
    }
}

/* Motor settings before a step, as demo_buggy's loop does: the drive motor
 * spins the front wheel at -speed (forward is +x), and the steering motor
 * runs towards the commanded angle, its rate clamped. */
static void buggy_drive(double speed, double steer) {
    dJointID f = buggy_g.hinge[0];
    dJointSetHinge2Param(f, dParamVel2, -speed);
    dJointSetHinge2Param(f, dParamFMax2, buggy_g.drive_fmax);
    dReal v = steer - dJointGetHinge2Angle1(f);
    if (v > 0.1) v = 0.1;
    if (v < -0.1) v = -0.1;
    v *= 10.0;
    dJointSetHinge2Param(f, dParamVel, v);
    dJointSetHinge2Param(f, dParamFMax, buggy_g.steer_fmax);
    dJointSetHinge2Param(f, dParamLoStop, -0.75);
    dJointSetHinge2Param(f, dParamHiStop, 0.75);
    dJointSetHinge2Param(f, dParamFudgeFactor, 0.1);
}

static void buggy_step(int quick) {
    buggy_g.ncontacts = 0;
    buggy_g.nchassis = 0;
    dSpaceCollide(buggy_g.space, 0, &buggy_near);
    if (quick)
        dWorldQuickStep(buggy_g.world, buggy_g.dt);
    else
        dWorldStep(buggy_g.world, buggy_g.dt);
    dJointGroupEmpty(buggy_g.contacts);
}

static void buggy_destroy(void) {
    Buggy *B = &buggy_g;
    int i;
    dGeomDestroy(B->chassis_geom);
    for (i = 0; i < 3; i++) dGeomDestroy(B->wheel_geom[i]);
    dJointGroupDestroy(B->contacts);
    dSpaceDestroy(B->space);
    dWorldDestroy(B->world);
}

/* Heading of the chassis: the angle of its x axis in the ground plane. */
static inline double buggy_heading(void) {
    dVector3 ax;
    dBodyVectorToWorld(buggy_g.chassis, 1, 0, 0, ax);
    return atan2(ax[1], ax[0]);
}

#endif
