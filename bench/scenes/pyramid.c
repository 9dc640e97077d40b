/* pyramid: a stepped pyramid of 210 unit boxes (a 20-wide base, one box
 * less per layer, each layer half a box in), standing on a plane.
 * dWorldQuickStep, 20 iterations, dt 0.01, mu 0.7, 400 steps. */
#include "scene_common.h"

#define BASE 20
#define STEPS 400
/* QuickStep iterations; bench/accuracy/run.sh also builds the scene with
 * more for its reference column. */
#ifndef ITERATIONS
#define ITERATIONS 20
#endif

int main(void) {
    dInitODE2(0);
    dRandSetSeed(1);
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(w, ITERATIONS);
    dSpaceID space = dHashSpaceCreate(0);
    dCreatePlane(space, 0, 0, 1, 0);
    dBodyID bodies[BASE * (BASE + 1) / 2];
    int n = 0;
    for (int layer = 0; layer < BASE; layer++) {
        for (int i = 0; i < BASE - layer; i++) {
            dBodyID b = dBodyCreate(w);
            dMass m;
            dMassSetBox(&m, 1, 1, 1, 1);
            dBodySetMass(b, &m);
            dBodySetPosition(b, i - (BASE - layer) * 0.5 + 0.5, 0, 0.5 + layer * 1.0);
            dGeomID g = dCreateBox(space, 1, 1, 1);
            dGeomSetBody(g, b);
            bodies[n++] = b;
        }
    }
    SceneContacts sc = {w, dJointGroupCreate(0), 4, 0.7, 0};
    double t0 = scene_now_ms();
    for (int s = 0; s < STEPS; s++) {
        dSpaceCollide(space, &sc, scene_near);
        dWorldQuickStep(w, 0.01);
        dJointGroupEmpty(sc.group);
        scene_accuracy_step(bodies, n);
    }
    double t1 = scene_now_ms();
    scene_report("pyramid", STEPS, t1 - t0, scene_checksum(bodies, n));
    scene_accuracy_report("pyramid", w, bodies, n, 0);
    dJointGroupDestroy(sc.group);
    dSpaceDestroy(space);
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
