/* ragdolls: 10 figures of 15 box bodies each, joined by ball, hinge (with
 * limits), universal and fixed joints, thrown with random velocities and
 * tumbling on a plane (contacts with the plane and between figures; parts
 * joined by a joint do not collide). dWorldStep, dt 0.005, 600 steps. */
#include "scene_common.h"

#define FIGURES 10
#define PARTS 15
#define STEPS 600

enum { BALL, HINGE, UNIVERSAL, FIXED };

static const struct {
    double c[3], size[3];
    int parent, joint;
    double anchor[3], axis1[3], axis2[3];
} part[PARTS] = {
    /* pelvis */ {{0, 0, 1.0}, {0.3, 0.2, 0.15}, -1, 0, {0}, {0}, {0}},
    /* abdomen */ {{0, 0, 1.17}, {0.28, 0.18, 0.15}, 0, UNIVERSAL, {0, 0, 1.085}, {1, 0, 0}, {0, 1, 0}},
    /* chest */ {{0, 0, 1.36}, {0.34, 0.2, 0.2}, 1, FIXED, {0}, {0}, {0}},
    /* neck */ {{0, 0, 1.51}, {0.08, 0.08, 0.08}, 2, BALL, {0, 0, 1.465}, {0}, {0}},
    /* head */ {{0, 0, 1.64}, {0.18, 0.18, 0.2}, 3, FIXED, {0}, {0}, {0}},
    /* upper arm L */ {{0.3, 0, 1.36}, {0.24, 0.08, 0.08}, 2, BALL, {0.175, 0, 1.36}, {0}, {0}},
    /* lower arm L */ {{0.54, 0, 1.36}, {0.24, 0.07, 0.07}, 5, HINGE, {0.42, 0, 1.36}, {0, 0, 1}, {0}},
    /* upper arm R */ {{-0.3, 0, 1.36}, {0.24, 0.08, 0.08}, 2, BALL, {-0.175, 0, 1.36}, {0}, {0}},
    /* lower arm R */ {{-0.54, 0, 1.36}, {0.24, 0.07, 0.07}, 7, HINGE, {-0.42, 0, 1.36}, {0, 0, -1}, {0}},
    /* thigh L */ {{0.1, 0, 0.7}, {0.1, 0.1, 0.4}, 0, UNIVERSAL, {0.1, 0, 0.91}, {1, 0, 0}, {0, 1, 0}},
    /* shin L */ {{0.1, 0, 0.3}, {0.09, 0.09, 0.4}, 9, HINGE, {0.1, 0, 0.5}, {1, 0, 0}, {0}},
    /* foot L */ {{0.1, 0.05, 0.05}, {0.1, 0.2, 0.06}, 10, UNIVERSAL, {0.1, 0, 0.09}, {1, 0, 0}, {0, 1, 0}},
    /* thigh R */ {{-0.1, 0, 0.7}, {0.1, 0.1, 0.4}, 0, UNIVERSAL, {-0.1, 0, 0.91}, {1, 0, 0}, {0, 1, 0}},
    /* shin R */ {{-0.1, 0, 0.3}, {0.09, 0.09, 0.4}, 12, HINGE, {-0.1, 0, 0.5}, {1, 0, 0}, {0}},
    /* foot R */ {{-0.1, 0.05, 0.05}, {0.1, 0.2, 0.06}, 13, UNIVERSAL, {-0.1, 0, 0.09}, {1, 0, 0}, {0, 1, 0}},
};

int main(void) {
    dInitODE2(0);
    dRandSetSeed(1);
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    dSpaceID space = dHashSpaceCreate(0);
    dCreatePlane(space, 0, 0, 1, 0);
    dBodyID bodies[FIGURES * PARTS];
    int n = 0;
    for (int f = 0; f < FIGURES; f++) {
        double ox = (f % 5) * 1.6 - 3.2, oy = (f / 5) * 1.6 - 0.8, oz = 0.4 + 0.2 * f;
        double v[3] = {scene_uniform(-1, 1), scene_uniform(-1, 1), scene_uniform(0, 2)};
        dBodyID fig[PARTS];
        for (int p = 0; p < PARTS; p++) {
            dBodyID b = dBodyCreate(w);
            dMass m;
            dMassSetBox(&m, 500, part[p].size[0], part[p].size[1], part[p].size[2]);
            dBodySetMass(b, &m);
            dBodySetPosition(b, ox + part[p].c[0], oy + part[p].c[1], oz + part[p].c[2]);
            dBodySetLinearVel(b, v[0] + scene_uniform(-0.3, 0.3), v[1] + scene_uniform(-0.3, 0.3), v[2]);
            dBodySetAngularVel(b, scene_uniform(-2, 2), scene_uniform(-2, 2), scene_uniform(-2, 2));
            dGeomID g = dCreateBox(space, part[p].size[0], part[p].size[1], part[p].size[2]);
            dGeomSetBody(g, b);
            fig[p] = bodies[n++] = b;
            if (part[p].parent < 0) continue;
            dBodyID parent = fig[part[p].parent];
            const double *a = part[p].anchor, *x1 = part[p].axis1, *x2 = part[p].axis2;
            dJointID j = 0;
            switch (part[p].joint) {
            case BALL:
                j = dJointCreateBall(w, 0);
                dJointAttach(j, parent, b);
                dJointSetBallAnchor(j, ox + a[0], oy + a[1], oz + a[2]);
                break;
            case HINGE:
                j = dJointCreateHinge(w, 0);
                dJointAttach(j, parent, b);
                dJointSetHingeAnchor(j, ox + a[0], oy + a[1], oz + a[2]);
                dJointSetHingeAxis(j, x1[0], x1[1], x1[2]);
                dJointSetHingeParam(j, dParamLoStop, -0.1);
                dJointSetHingeParam(j, dParamHiStop, 2.0);
                break;
            case UNIVERSAL:
                j = dJointCreateUniversal(w, 0);
                dJointAttach(j, parent, b);
                dJointSetUniversalAnchor(j, ox + a[0], oy + a[1], oz + a[2]);
                dJointSetUniversalAxis1(j, x1[0], x1[1], x1[2]);
                dJointSetUniversalAxis2(j, x2[0], x2[1], x2[2]);
                break;
            case FIXED:
                j = dJointCreateFixed(w, 0);
                dJointAttach(j, parent, b);
                dJointSetFixed(j);
                break;
            }
            SCENE_JOINT(j);
        }
    }
    SceneContacts sc = {w, dJointGroupCreate(0), 4, 0.5, 0};
    double t0 = scene_now_ms();
    for (int s = 0; s < STEPS; s++) {
        dSpaceCollide(space, &sc, scene_near);
        dWorldStep(w, 0.005);
        dJointGroupEmpty(sc.group);
        scene_accuracy_step(bodies, n);
    }
    double t1 = scene_now_ms();
    scene_report("ragdolls", STEPS, t1 - t0, scene_checksum(bodies, n));
    scene_accuracy_report("ragdolls", w, bodies, n, 0);
    dJointGroupDestroy(sc.group);
    dSpaceDestroy(space);
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
