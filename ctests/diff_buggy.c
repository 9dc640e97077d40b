/* DIFF-TOL rel=0 abs=0 */
/*
 * diff_buggy: ODE's demo_buggy scene driven without a user (see
 * diff_buggy_scene.h): a box chassis on three sphere wheels with hinge2
 * joints and suspension ERP/CFM, a steering motor with stops at +-0.75 on
 * axis 1 and a drive motor on axis 2 of the front wheel, a ground plane and
 * a tilted box as ramp, collisions through a hash space holding the car's
 * simple space, soft slipping contacts (Approx1) in a joint group.
 *
 * Schedule over 5 s: the drive starts at 0.2 s, the buggy goes straight
 * (in the "earth" setting, dt 0.01 and gravity 9.81 with strong motors, up
 * the ramp and onto it), steers right (+0.5) from 2.5 s and left (-0.5)
 * from 4 s. It runs in that setting and in demo_buggy's own (dt 0.05,
 * gravity 0.5, weak motors), each once with dWorldStep and once with
 * dWorldQuickStep; every 10 steps (every 2 in the demo setting: 0.1 s)
 * the trace holds the chassis position,
 * quaternion, linear and angular velocity, the number of contact joints,
 * and each wheel's hinge2 angle 1, angle 2 (0.16's getter), and both rates,
 * all printed with %.17g.
 *
 * Tolerance: exact. Every piece on the path (sphere/box vs plane and box
 * colliders, hash and simple space pair order, hinge2 and contact rows,
 * Dantzig and PGS solvers) reproduces ODE's operations in ODE's order, so
 * the traces are identical text.
 */
#include "diff_buggy_scene.h"
#include <stdio.h>

/* Two settings: ours (dt 0.01, g 9.81, strong motors) and demo_buggy's own
 * (dt 0.05, g 0.5, drive FMax 0.1, steering FMax 0.2). */
typedef struct {
    const char *name;
    double dt, gravity, drive_fmax, steer_fmax, speed;
    int print_every;
} Setting;

static const Setting settings[2] = {
    {"earth", 0.01, 9.81, 1.0, 2.0, 8.0, 10},
    {"demo", 0.05, 0.5, 0.1, 0.2, 3.0, 2},
};

static void show(const char *label, const dReal *v, int n) {
    int i;
    printf(" %s", label);
    for (i = 0; i < n; i++) printf(" %.17g", (double)v[i]);
}

/* The commanded speed (wheel rad/s) and steering angle at time t. */
static void schedule(const Setting *S, double t, double *speed, double *steer) {
    *speed = t < 0.2 ? 0.0 : S->speed;
    *steer = t < 2.5 ? 0.0 : (t < 4.0 ? 0.5 : -0.5);
}

static void run(const Setting *S, int quick) {
    int step, i, steps = (int)(5.0 / S->dt + 0.5);
    double speed, steer;
    buggy_create(S->gravity, S->dt, 1);
    buggy_g.drive_fmax = S->drive_fmax;
    buggy_g.steer_fmax = S->steer_fmax;
    printf("setting %s stepper %s\n", S->name, quick ? "quick" : "step");
    for (step = 0; step <= steps; step++) {
        if (step % S->print_every == 0) {
            printf("step %d contacts %d\n", step, buggy_g.ncontacts);
            show("pos", dBodyGetPosition(buggy_g.chassis), 3);
            show("quat", dBodyGetQuaternion(buggy_g.chassis), 4);
            printf("\n");
            show("vel", dBodyGetLinearVel(buggy_g.chassis), 3);
            show("avel", dBodyGetAngularVel(buggy_g.chassis), 3);
            printf("\n");
            for (i = 0; i < 3; i++) {
                dJointID h = buggy_g.hinge[i];
                printf(" wheel%d %.17g %.17g %.17g %.17g\n", i, (double)dJointGetHinge2Angle1(h),
                       (double)dJointGetHinge2Angle2(h), (double)dJointGetHinge2Angle1Rate(h),
                       (double)dJointGetHinge2Angle2Rate(h));
            }
        }
        if (step == steps) break;
        schedule(S, step * S->dt, &speed, &steer);
        buggy_drive(speed, steer);
        buggy_step(quick);
    }
    buggy_destroy();
}

int main(void) {
    dInitODE2(0);
    int k;
    for (k = 0; k < 2; k++) {
        run(&settings[k], 0);
        run(&settings[k], 1);
    }
    dCloseODE();
    return 0;
}
