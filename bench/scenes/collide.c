/* collide: 5000 mixed geoms (boxes, spheres, capsules, cylinders) without
 * bodies in a hash space, moved every iteration along fixed drifts;
 * dSpaceCollide with dCollide (up to 4 contacts) in the callback, no
 * stepping. 20 iterations. The checksum sums the contacts found. */
#include "scene_common.h"

#define GEOMS 5000
#define ITERS 20

static double sum;
static long found;

static void near(void *data, dGeomID a, dGeomID b) {
    (void)data;
    dContactGeom c[4];
    int n = dCollide(a, b, 4, c, sizeof(dContactGeom));
    for (int k = 0; k < n; k++) {
        sum += c[k].pos[0] + 2 * c[k].pos[1] + 3 * c[k].pos[2] + c[k].depth + c[k].normal[0] - c[k].normal[2];
    }
    found += n;
}

int main(void) {
    dInitODE2(0);
    dSpaceID space = dHashSpaceCreate(0);
    static dGeomID g[GEOMS];
    static double pos[GEOMS][3], vel[GEOMS][3];
    const double side = 45.0; /* cube the geoms live in: about 1 neighbour each */
    for (int i = 0; i < GEOMS; i++) {
        switch (i % 4) {
        case 0: g[i] = dCreateBox(space, scene_uniform(0.4, 1.2), scene_uniform(0.4, 1.2), scene_uniform(0.4, 1.2)); break;
        case 1: g[i] = dCreateSphere(space, scene_uniform(0.2, 0.7)); break;
        case 2: g[i] = dCreateCapsule(space, scene_uniform(0.15, 0.4), scene_uniform(0.3, 1.2)); break;
        default: g[i] = dCreateCylinder(space, scene_uniform(0.2, 0.5), scene_uniform(0.3, 1.0)); break;
        }
        dMatrix3 R;
        dRFromEulerAngles(R, scene_uniform(0, 3), scene_uniform(0, 3), scene_uniform(0, 3));
        dGeomSetRotation(g[i], R);
        for (int k = 0; k < 3; k++) {
            pos[i][k] = scene_uniform(-side / 2, side / 2);
            vel[i][k] = scene_uniform(-0.05, 0.05);
        }
        dGeomSetPosition(g[i], pos[i][0], pos[i][1], pos[i][2]);
    }
    double t0 = scene_now_ms();
    for (int it = 0; it < ITERS; it++) {
        for (int i = 0; i < GEOMS; i++) {
            for (int k = 0; k < 3; k++) pos[i][k] += vel[i][k];
            dGeomSetPosition(g[i], pos[i][0], pos[i][1], pos[i][2]);
        }
        dSpaceCollide(space, 0, near);
    }
    double t1 = scene_now_ms();
    scene_report("collide", ITERS, t1 - t0, sum + found);
    dSpaceDestroy(space);
    dCloseODE();
    return 0;
}
