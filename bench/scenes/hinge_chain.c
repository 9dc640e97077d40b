/* hinge_chain: 200 links on hinge joints hanging from a fixed point,
 * released from a horizontal line. dWorldStep (one island of 1000
 * unbounded rows, factorised densely by ODE's solver), dt 0.01, 40 steps. */
#include "scene_common.h"

#define LINKS 200
#ifndef STEPS
#define STEPS 40
#endif
/* The hinge axes' tilt out of the chain's plane, growing by TILT every
 * third link. The accuracy script builds variants with other tilts: after
 * 200 steps the whipping chain is chaotic, so one run's largest joint
 * error is a sample (bench/accuracy/run.sh averages a family). */
#ifndef TILT
#define TILT 0.1
#endif

int main(void) {
    dInitODE2(0);
    dRandSetSeed(1);
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    dBodyID bodies[LINKS];
    dBodyID prev = 0;
    for (int i = 0; i < LINKS; i++) {
        dBodyID b = dBodyCreate(w);
        dMass m;
        dMassSetBoxTotal(&m, 0.1, 0.1, 0.02, 0.02);
        dBodySetMass(b, &m);
        dBodySetPosition(b, 0.1 * i + 0.05, 0, 10);
        dJointID j = dJointCreateHinge(w, 0);
        dJointAttach(j, b, prev);
        dJointSetHingeAnchor(j, 0.1 * i, 0, 10);
        dJointSetHingeAxis(j, 0, 1, TILT * (i % 3));
        SCENE_JOINT(j);
        bodies[i] = prev = b;
    }
    double t0 = scene_now_ms();
    scene_accuracy_start(w, bodies, LINKS);
    for (int s = 0; s < STEPS; s++) {
        dWorldStep(w, 0.01);
        scene_accuracy_step(bodies, LINKS);
    }
    double t1 = scene_now_ms();
    scene_report("hinge_chain", STEPS, t1 - t0, scene_checksum(bodies, LINKS));
    scene_accuracy_report("hinge_chain", w, bodies, LINKS, 0.1 * LINKS);
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
