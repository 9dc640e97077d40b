/* Accuracy of dWorldQuickStep (20 iterations, dt 0.01), for the solver-mode
 * table of the README: run the same binary with Debian's libode.so.8, with
 * ours, and with ours under ODE_SOLVER=fast (bench/accuracy/run.sh).
 * Scenes and measures (all maxima over the run):
 *  - pyramid: a 10-row pyramid of 55 unit boxes on a plane, 400 steps:
 *    largest contact depth, largest box displacement from its start
 *    ("standing" when below 0.1);
 *  - pyramid family: the same measures averaged over 15 pyramids (8, 10
 *    and 12 rows, box spacing 1.00 to 1.05) standing on each other, then
 *    over the same 15 with every row lifted 1 mm (they land one on another):
 *    one pyramid's largest depth is a chaotic sample, the mean is not;
 *  - ball chain: 20 links hanging from a fixed ball joint, released
 *    horizontal, no contacts, no damping, 1000 steps: anchor separation and
 *    energy drift (E - E0) / (m g L) at the end;
 *  - hinge chain: the same with hinges (axis x): anchor separation and axis
 *    misalignment (angle between the links' x axes). */
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dWorldID world;
/* QuickStep iterations: 20, or ACCURACY_ITERATIONS from the environment
 * (run.sh's reference column runs Debian's solver with more iterations,
 * nearer the exact solution of the same model). */
static int iterations = 20;
static dJointGroupID group;
static dReal max_depth;

static void near_cb(void *data, dGeomID g1, dGeomID g2) {
    dContact c[8];
    int i, n;
    (void)data;
    n = dCollide(g1, g2, 8, &c[0].geom, sizeof(dContact));
    for (i = 0; i < n; i++) {
        dJointID j;
        if (c[i].geom.depth > max_depth) max_depth = c[i].geom.depth;
        memset(&c[i].surface, 0, sizeof c[i].surface);
        c[i].surface.mode = dContactApprox1;
        c[i].surface.mu = 0.7;
        j = dJointCreateContact(world, group, &c[i]);
        dJointAttach(j, dGeomGetBody(g1), dGeomGetBody(g2));
    }
}

/* Runs one pyramid of `rows` rows, boxes `spacing` apart and each row
 * lifted `lift` above the one below; returns the largest contact depth and
 * stores the largest displacement in *moved_out. */
static dReal pyramid_run(int rows, dReal spacing, dReal lift, dReal *moved_out) {
    dSpaceID space = dHashSpaceCreate(0);
    dBodyID b[128];
    dReal start[128][3], moved = 0;
    int n = 0, row, k, s;
    world = dWorldCreate();
    group = dJointGroupCreate(0);
    dWorldSetGravity(world, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(world, iterations);
    dCreatePlane(space, 0, 0, 1, 0);
    for (row = 0; row < rows; row++) {
        for (k = 0; k < rows - row; k++) {
            dMass m;
            dGeomID g = dCreateBox(space, 1, 1, 1);
            b[n] = dBodyCreate(world);
            dMassSetBoxTotal(&m, 1, 1, 1, 1);
            dBodySetMass(b[n], &m);
            start[n][0] = (k - (rows - row) / 2.0) * spacing + 0.5;
            start[n][1] = 0;
            start[n][2] = 0.5 + row * (1.0 + lift);
            dBodySetPosition(b[n], start[n][0], start[n][1], start[n][2]);
            dGeomSetBody(g, b[n]);
            n++;
        }
    }
    max_depth = 0;
    for (s = 0; s < 400; s++) {
        dSpaceCollide(space, 0, near_cb);
        dWorldQuickStep(world, 0.01);
        dJointGroupEmpty(group);
        for (k = 0; k < n; k++) {
            const dReal *p = dBodyGetPosition(b[k]);
            dReal d = sqrt((p[0] - start[k][0]) * (p[0] - start[k][0]) + (p[1] - start[k][1]) * (p[1] - start[k][1]) +
                           (p[2] - start[k][2]) * (p[2] - start[k][2]));
            if (d > moved) moved = d;
        }
    }
    dJointGroupDestroy(group);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    *moved_out = moved;
    return max_depth;
}

static void pyramid(void) {
    dReal moved, depth = pyramid_run(10, 1.02, 0, &moved);
    printf("pyramid max_depth %.3e\n", depth);
    printf("pyramid max_displacement %.3e\n", moved);
    printf("pyramid standing %s\n", moved < 0.1 ? "yes" : "no");
}

/* Run after the other scenes, so that the dRand draws of their QuickSteps
 * are those they drew before the family was added. */
static void pyramid_family(void) {
    static const dReal spacing[5] = {1.0, 1.01, 1.02, 1.03, 1.05};
    static const int rows[3] = {8, 10, 12};
    dReal moved;
    int l, r, i;
    for (l = 0; l < 2; l++) {
        dReal sum_depth = 0, sum_moved = 0;
        for (r = 0; r < 3; r++)
            for (i = 0; i < 5; i++) {
                sum_depth += pyramid_run(rows[r], spacing[i], l ? 0.001 : 0, &moved);
                sum_moved += moved;
            }
        printf("pyramid_family%s mean_max_depth %.4e\n", l ? "_dropped" : "", sum_depth / 15);
        printf("pyramid_family%s mean_max_displacement %.4e\n", l ? "_dropped" : "", sum_moved / 15);
    }
}

static dReal energy(dBodyID *b, int n) {
    dReal e = 0;
    int i;
    for (i = 0; i < n; i++) {
        dMass m;
        const dReal *v = dBodyGetLinearVel(b[i]), *w = dBodyGetAngularVel(b[i]), *p = dBodyGetPosition(b[i]);
        const dReal *R = dBodyGetRotation(b[i]);
        dReal wl[3], Iw[3];
        int r, c;
        dBodyGetMass(b[i], &m);
        /* angular velocity in the body frame: R^T w */
        for (r = 0; r < 3; r++) wl[r] = R[0 * 4 + r] * w[0] + R[1 * 4 + r] * w[1] + R[2 * 4 + r] * w[2];
        for (r = 0; r < 3; r++) {
            Iw[r] = 0;
            for (c = 0; c < 3; c++) Iw[r] += m.I[r * 4 + c] * wl[c];
        }
        e += 0.5 * m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        e += 0.5 * (wl[0] * Iw[0] + wl[1] * Iw[1] + wl[2] * Iw[2]);
        e += m.mass * 9.81 * p[2];
    }
    return e;
}

static void chain(int hinge) {
    enum { N = 20 };
    const dReal L = 0.5;
    dBodyID b[N];
    dJointID j[N];
    dReal e0, sep = 0, mis = 0;
    int i, s;
    world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(world, iterations);
    for (i = 0; i < N; i++) {
        dMass m;
        b[i] = dBodyCreate(world);
        dMassSetCapsuleTotal(&m, 1, 3, 0.05, L);
        dBodySetMass(b[i], &m);
        /* links along +y, horizontal, each capsule's axis along z rotated to y */
        dBodySetPosition(b[i], 0, (i + 0.5) * L, 10);
        j[i] = hinge ? dJointCreateHinge(world, 0) : dJointCreateBall(world, 0);
        dJointAttach(j[i], b[i], i ? b[i - 1] : 0);
        if (hinge) {
            dJointSetHingeAnchor(j[i], 0, i * L, 10);
            dJointSetHingeAxis(j[i], 1, 0, 0);
        } else {
            dJointSetBallAnchor(j[i], 0, i * L, 10);
        }
    }
    e0 = energy(b, N);
    for (s = 0; s < 1000; s++) {
        dWorldQuickStep(world, 0.01);
        for (i = 0; i < N; i++) {
            dVector3 a1, a2;
            if (hinge) {
                dJointGetHingeAnchor(j[i], a1);
                dJointGetHingeAnchor2(j[i], a2);
            } else {
                dJointGetBallAnchor(j[i], a1);
                dJointGetBallAnchor2(j[i], a2);
            }
            {
                dReal d = sqrt((a1[0] - a2[0]) * (a1[0] - a2[0]) + (a1[1] - a2[1]) * (a1[1] - a2[1]) +
                               (a1[2] - a2[2]) * (a1[2] - a2[2]));
                if (d > sep) sep = d;
            }
            if (hinge && i > 0) {
                const dReal *R1 = dBodyGetRotation(b[i]), *R2 = dBodyGetRotation(b[i - 1]);
                dReal dot = R1[0] * R2[0] + R1[4] * R2[4] + R1[8] * R2[8];
                dReal ang = acos(dot > 1 ? 1 : dot);
                if (ang > mis) mis = ang;
            }
        }
    }
    printf("%s max_anchor_separation %.3e\n", hinge ? "hinge_chain" : "ball_chain", sep);
    if (hinge) printf("hinge_chain max_axis_misalignment %.3e\n", mis);
    printf("%s energy_drift %.3e\n", hinge ? "hinge_chain" : "ball_chain",
           (energy(b, N) - e0) / (N * 1.0 * 9.81 * N * L));
    dWorldDestroy(world);
}

int main(void) {
    const char *it = getenv("ACCURACY_ITERATIONS");
    if (it && atoi(it) > 0) iterations = atoi(it);
    dInitODE2(0);
    pyramid();
    chain(0);
    chain(1);
    pyramid_family();
    dCloseODE();
    return 0;
}
