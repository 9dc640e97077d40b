/* free_bodies: 1000 free rigid bodies (no joints, no collision) with
 * forces and torques every step, gyroscopic spin and damping; 500 steps of
 * dWorldStep, then 500 of dWorldQuickStep, dt 0.01. The two are reported
 * as the scenes free_step and free_quick. */
#include "scene_common.h"

#define BODIES 1000
#define STEPS 500

static void run(int quick) {
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetLinearDamping(w, 0.001);
    dWorldSetAngularDamping(w, 0.001);
    static dBodyID bodies[BODIES];
    for (int i = 0; i < BODIES; i++) {
        dBodyID b = dBodyCreate(w);
        dMass m;
        dMassSetBox(&m, 1, scene_uniform(0.2, 1), scene_uniform(0.2, 1), scene_uniform(0.2, 1));
        dBodySetMass(b, &m);
        dBodySetPosition(b, scene_uniform(-10, 10), scene_uniform(-10, 10), scene_uniform(0, 20));
        dBodySetLinearVel(b, scene_uniform(-1, 1), scene_uniform(-1, 1), scene_uniform(-1, 1));
        dBodySetAngularVel(b, scene_uniform(-3, 3), scene_uniform(-3, 3), scene_uniform(-3, 3));
        bodies[i] = b;
    }
    double t0 = scene_now_ms();
    for (int s = 0; s < STEPS; s++) {
        for (int i = 0; i < BODIES; i++) {
            dBodyAddForce(bodies[i], 0.1 * sin(0.01 * s + i), 0.1 * cos(0.02 * s + i), 0.05);
            dBodyAddRelTorque(bodies[i], 0.01, 0.02 * sin(0.03 * s), 0);
        }
        if (quick)
            dWorldQuickStep(w, 0.01);
        else
            dWorldStep(w, 0.01);
    }
    double t1 = scene_now_ms();
    scene_report(quick ? "free_quick" : "free_step", STEPS, t1 - t0, scene_checksum(bodies, BODIES));
    dWorldDestroy(w);
}

int main(void) {
    dInitODE2(0);
    run(0);
    run(1);
    dCloseODE();
    return 0;
}
