/* container: 1000 bodies, spheres and boxes alternating, started on a
 * jittered 10x10x10 grid inside a box with four walls and a floor (planes),
 * falling into a heap. dWorldQuickStep, 10 iterations, dt 0.01, 200 steps. */
#include "scene_common.h"

#define N 10
#define STEPS 200
/* QuickStep iterations; bench/accuracy/run.sh also builds the scene with
 * more for its reference column. */
#ifndef ITERATIONS
#define ITERATIONS 10
#endif

int main(void) {
    dInitODE2(0);
    dRandSetSeed(1);
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(w, ITERATIONS);
    dSpaceID space = dHashSpaceCreate(0);
    const double half = 6.0; /* inner half width of the container */
    dCreatePlane(space, 0, 0, 1, 0);
    dCreatePlane(space, 1, 0, 0, -half);
    dCreatePlane(space, -1, 0, 0, -half);
    dCreatePlane(space, 0, 1, 0, -half);
    dCreatePlane(space, 0, -1, 0, -half);
    dBodyID bodies[N * N * N];
    int n = 0;
    for (int k = 0; k < N; k++)
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) {
                dBodyID b = dBodyCreate(w);
                dMass m;
                dGeomID g;
                if (n % 2 == 0) {
                    dMassSetSphere(&m, 1, 0.4);
                    g = dCreateSphere(space, 0.4);
                } else {
                    dMassSetBox(&m, 1, 0.7, 0.7, 0.7);
                    g = dCreateBox(space, 0.7, 0.7, 0.7);
                }
                dBodySetMass(b, &m);
                dBodySetPosition(b, (i - N / 2 + 0.5) * 1.1 + scene_uniform(-0.1, 0.1),
                                 (j - N / 2 + 0.5) * 1.1 + scene_uniform(-0.1, 0.1),
                                 1.0 + k * 1.1 + scene_uniform(0, 0.1));
                dGeomSetBody(g, b);
                bodies[n++] = b;
            }
    SceneContacts sc = {w, dJointGroupCreate(0), 4, 0.5, 0};
    double t0 = scene_now_ms();
    for (int s = 0; s < STEPS; s++) {
        dSpaceCollide(space, &sc, scene_near);
        dWorldQuickStep(w, 0.01);
        dJointGroupEmpty(sc.group);
        scene_accuracy_step(bodies, n);
    }
    double t1 = scene_now_ms();
    scene_report("container", STEPS, t1 - t0, scene_checksum(bodies, n));
    scene_accuracy_report("container", w, bodies, n, 0);
    dJointGroupDestroy(sc.group);
    dSpaceDestroy(space);
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
