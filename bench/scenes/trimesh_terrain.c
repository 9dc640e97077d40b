/* trimesh_terrain: 100 boxes and 100 spheres dropped on a 20,000-triangle
 * terrain mesh (a 100x100 grid of wavy heights), up to 4 contacts per pair.
 * dWorldQuickStep, 20 iterations, dt 0.01, 300 steps. */
#include "scene_common.h"

#define G 100
#define BODIES 200
#define STEPS 300

static float ter_v[(G + 1) * (G + 1)][3];
static int ter_i[G * G * 6];

int main(void) {
    dInitODE2(0);
    dRandSetSeed(1);
    for (int j = 0; j <= G; j++)
        for (int i = 0; i <= G; i++) {
            float *v = ter_v[j * (G + 1) + i];
            v[0] = (float)(i - G / 2) * 0.4f;
            v[1] = (float)(j - G / 2) * 0.4f;
            v[2] = (float)(0.6 * sin(0.35 * v[0]) * cos(0.3 * v[1]) + 0.02 * v[0]);
        }
    int nt = 0;
    for (int j = 0; j < G; j++)
        for (int i = 0; i < G; i++) {
            int a = j * (G + 1) + i, b = a + 1, c = a + G + 1, d = c + 1;
            int T[6] = {a, b, d, a, d, c};
            for (int k = 0; k < 6; k++) ter_i[nt++] = T[k];
        }
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(w, 20);
    dSpaceID space = dHashSpaceCreate(0);
    dTriMeshDataID data = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildSingle(data, ter_v, 3 * sizeof(float), (G + 1) * (G + 1), ter_i, nt, 3 * sizeof(int));
    dCreateTriMesh(space, data, 0, 0, 0);
    dBodyID bodies[BODIES];
    for (int i = 0; i < BODIES; i++) {
        dBodyID b = dBodyCreate(w);
        dMass m;
        dGeomID g;
        if (i % 2 == 0) {
            dMassSetBox(&m, 1, 0.5, 0.5, 0.5);
            g = dCreateBox(space, 0.5, 0.5, 0.5);
        } else {
            dMassSetSphere(&m, 1, 0.3);
            g = dCreateSphere(space, 0.3);
        }
        dBodySetMass(b, &m);
        dBodySetPosition(b, scene_uniform(-15, 15), scene_uniform(-15, 15), scene_uniform(1.5, 4));
        dGeomSetBody(g, b);
        bodies[i] = b;
    }
    SceneContacts sc = {w, dJointGroupCreate(0), 4, 0.6, 0};
    double t0 = scene_now_ms();
    for (int s = 0; s < STEPS; s++) {
        dSpaceCollide(space, &sc, scene_near);
        dWorldQuickStep(w, 0.01);
        dJointGroupEmpty(sc.group);
    }
    double t1 = scene_now_ms();
    scene_report("trimesh_terrain", STEPS, t1 - t0, scene_checksum(bodies, BODIES));
    dJointGroupDestroy(sc.group);
    dSpaceDestroy(space);
    dGeomTriMeshDataDestroy(data);
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
