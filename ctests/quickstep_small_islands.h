/* The scene of ctests/diff_quickstep_small_islands.c and
 * t_quickstep_small_islands_grouped.c: many small islands of contacts only,
 * the kind the QuickStep solves a few at a time (their rows swept side by
 * side). small_islands_run(tag, friction, all_moved, out) prints the trace
 * to `out`; with all_moved, every body gets a moved callback (which does
 * nothing but count), and a body with one is always stepped on its own. */
#ifndef QUICKSTEP_SMALL_ISLANDS_H
#define QUICKSTEP_SMALL_ISLANDS_H
#include <ode/ode.h>
#include "feedback_sentinel.h"
#include <stdio.h>

#define NB 40
#define MAXC 4
static dWorldID w;
static dSpaceID space;
static dJointGroupID group;
static dBodyID bodies[NB];
static dJointFeedback fb[NB];
static int fb_used[NB];
static double mu;
static int moved_calls;

static const float ramp_v[6][3] = {{-2, 4, 0}, {2, 4, 0}, {-2, 8, 1}, {2, 8, 1}, {-2, 12, 0}, {2, 12, 0}};
static const int ramp_i[12] = {0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4};

static void moved(dBodyID b) {
    (void)b;
    moved_calls++;
}

static void near(void *data, dGeomID a, dGeomID b) {
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    dContact c[MAXC];
    int n, k;
    (void)data;
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    n = dCollide(a, b, MAXC, &c[0].geom, sizeof(dContact));
    for (k = 0; k < n; k++) {
        dJointID j;
        c[k].surface.mode = mu > 0 ? dContactApprox1 | dContactSoftERP | dContactSoftCFM : dContactSoftCFM;
        c[k].surface.mu = mu;
        c[k].surface.soft_erp = 0.3;
        c[k].surface.soft_cfm = 1e-5;
        j = dJointCreateContact(w, group, &c[k]);
        dJointAttach(j, b1, b2);
        /* Feedback on the first contact of every fifth body (once a step). */
        if (k == 0 && b1) {
            int i = (int)(size_t)dBodyGetData(b1);
            if (i % 5 == 0 && !fb_used[i]) {
                fb_used[i] = 1;
                feedback_fill_sentinel(&fb[i]);
                dJointSetFeedback(j, &fb[i]);
            }
        }
    }
}

/* The QuickStep's iteration count (ODE accepts 0: no sweep at all), and
 * the count from step 60 on (the same world's solver buffers then hold
 * the earlier steps' rows). */
static int small_islands_iterations = 20;
static int small_islands_iterations_later = 20;

static void small_islands_run(const char *tag, double friction, int all_moved, FILE *out) {
    int i, s, k;
    dTriMeshDataID data;
    mu = friction;
    dRandSetSeed(7);
    w = dWorldCreate();
    dWorldSetGravity(w, 0.2, -0.1, -9.81);
    dWorldSetQuickStepNumIterations(w, small_islands_iterations);
    space = dHashSpaceCreate(0);
    group = dJointGroupCreate(0);
    dCreatePlane(space, 0, 0, 1, 0);
    data = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildSingle(data, ramp_v, 3 * sizeof(float), 6, ramp_i, 12, 3 * sizeof(int));
    dCreateTriMesh(space, data, 0, 0, 0);
    for (i = 0; i < NB; i++) {
        dMass m;
        dGeomID g;
        dBodyID b = dBodyCreate(w);
        double x = (i % 8) * 1.5 - 5.0, y = (i / 8) * 2.6 - 1.0, z;
        int kind = i % 3;
        double s = 0.4 + 0.02 * (i % 7);
        if (kind == 0) {
            dMassSetBoxTotal(&m, 1.0 + 0.05 * i, s, s * 1.2, s * 0.9);
            g = dCreateBox(space, s, s * 1.2, s * 0.9);
            z = s * 0.45 - 0.01;
        } else if (kind == 1) {
            dMassSetSphereTotal(&m, 0.8 + 0.03 * i, s * 0.5);
            g = dCreateSphere(space, s * 0.5);
            z = s * 0.5 - 0.005;
        } else {
            dMassSetCapsuleTotal(&m, 0.9, 3, s * 0.3, s);
            g = dCreateCapsule(space, s * 0.3, s);
            z = s * 0.3 + 0.02;
        }
        /* Free bodies in the air between resting ones. */
        if (i % 11 == 4) z += 3.0 + 0.1 * i;
        /* Two-body islands: every ninth body sits on the one before. */
        if (i % 9 == 8) {
            const dReal *p = dBodyGetPosition(bodies[i - 1]);
            x = p[0] + 0.05;
            y = p[1] - 0.03;
            z = p[2] + 0.75;
        }
        dBodySetMass(b, &m);
        dBodySetPosition(b, x, y, z);
        if (kind == 2) {
            dMatrix3 R;
            dRFromAxisAndAngle(R, 0, 1, 0, 1.5707963267948966);
            dBodySetRotation(b, R);
        }
        dBodySetLinearVel(b, 0.3 * ((i % 5) - 2), 0.2 * ((i % 3) - 1), 0);
        dBodySetAngularVel(b, 0.1 * (i % 4), 0, 0.2 * ((i % 3) - 1));
        dBodySetData(b, (void *)(size_t)i);
        dGeomSetBody(g, b);
        if (i == 13 || all_moved) dBodySetMovedCallback(b, moved);
        bodies[i] = b;
    }
    moved_calls = 0;
    for (s = 0; s < 120; s++) {
        for (i = 0; i < NB; i++) fb_used[i] = 0;
        dSpaceCollide(space, 0, near);
        if (s == 60) dWorldSetQuickStepNumIterations(w, small_islands_iterations_later);
        dWorldQuickStep(w, 0.01);
        fprintf(out, "%s step %d seed %lu moved %d\n", tag, s, (unsigned long)dRandGetSeed(), all_moved ? moved_calls / NB : moved_calls);
        for (i = 0; i < NB; i += 5)
            if (fb_used[i])
                fprintf(out, " fb %d %a %a %a %a %a %a\n", i, fb[i].f1[0], fb[i].f1[1], fb[i].f1[2], fb[i].t1[0], fb[i].t1[1], fb[i].t1[2]);
        dJointGroupEmpty(group);
        if (s % 5 == 4)
            for (i = 0; i < NB; i++) {
                const dReal *p = dBodyGetPosition(bodies[i]), *q = dBodyGetQuaternion(bodies[i]);
                const dReal *v = dBodyGetLinearVel(bodies[i]), *a = dBodyGetAngularVel(bodies[i]);
                fprintf(out, " b%d", i);
                for (k = 0; k < 3; k++) fprintf(out, " %a", p[k]);
                for (k = 0; k < 4; k++) fprintf(out, " %a", q[k]);
                for (k = 0; k < 3; k++) fprintf(out, " %a %a", v[k], a[k]);
                fprintf(out, "\n");
            }
    }
    dJointGroupDestroy(group);
    dSpaceDestroy(space);
    dGeomTriMeshDataDestroy(data);
    dWorldDestroy(w);
}

#endif
