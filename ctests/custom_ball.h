/* The ball-and-socket joint written as a custom joint (ode/ode_ext.h).
 * Shared by ctests/t_joint_custom_ball.c and the README example.
 *
 * Rows 0..2 keep anchor 1 (fixed in body 1) and anchor 2 (fixed in body 2,
 * or a world point) together:
 *   v1 + w1 x a1 - v2 - w2 x a2 = fps*erp*((a2 + p2) - (a1 + p1))
 * with a1 = R1*anchor1, a2 = R2*anchor2 in world axes. The arithmetic is
 * ordered as the built-in ball's, so both give the same numbers. */
#ifndef CUSTOM_BALL_H
#define CUSTOM_BALL_H

#include <ode/ode_ext.h>
#include <stdlib.h>

typedef struct CustomBall {
    dVector3 anchor1; /* in body 1's frame */
    dVector3 anchor2; /* in body 2's frame, or world point without body 2 */
    int destroyed;    /* set by the destroy callback (tests) */
    int *destroy_count;
} CustomBall;

static void custom_ball_info1(odexJointInfo1 *info)
{
    info->m = 3;
    info->nub = 3;
}

static void custom_ball_info2(odexJointInfo2 *info)
{
    const CustomBall *cb = (const CustomBall *)info->user_data;
    odexJointRow *r = info->rows;
    const dReal *p1 = dBodyGetPosition(info->body1);
    dVector3 a1, a2 = {0, 0, 0};
    dReal k = info->fps * info->erp;
    int i;
    dBodyVectorToWorld(info->body1, cb->anchor1[0], cb->anchor1[1], cb->anchor1[2], a1);
    for (i = 0; i < 3; i++) r[i].J1l[i] = 1;
    /* J1a = -[a1]x (off-diagonal entries only; the rest stays zero) */
    r[0].J1a[1] = a1[2];  r[0].J1a[2] = -a1[1];
    r[1].J1a[0] = -a1[2]; r[1].J1a[2] = a1[0];
    r[2].J1a[0] = a1[1];  r[2].J1a[1] = -a1[0];
    if (info->body2) {
        const dReal *p2 = dBodyGetPosition(info->body2);
        for (i = 0; i < 3; i++) r[i].J2l[i] = -1;
        dBodyVectorToWorld(info->body2, cb->anchor2[0], cb->anchor2[1], cb->anchor2[2], a2);
        /* J2a = +[a2]x */
        r[0].J2a[1] = -a2[2]; r[0].J2a[2] = a2[1];
        r[1].J2a[0] = a2[2];  r[1].J2a[2] = -a2[0];
        r[2].J2a[0] = -a2[1]; r[2].J2a[1] = a2[0];
        for (i = 0; i < 3; i++) r[i].c = k * (a2[i] + p2[i] - a1[i] - p1[i]);
    } else {
        for (i = 0; i < 3; i++) r[i].c = k * (cb->anchor2[i] - a1[i] - p1[i]);
    }
}

static void custom_ball_destroy(void *user)
{
    CustomBall *cb = (CustomBall *)user;
    if (cb->destroy_count) ++*cb->destroy_count;
    free(cb);
}

/* Creates the joint (unattached). Attach it, then call
 * custom_ball_set_anchor with a world point. */
static dJointID custom_ball_create(dWorldID w, dJointGroupID g, int *destroy_count)
{
    static const odexCustomJointCallbacks callbacks = {
        custom_ball_info1, custom_ball_info2, custom_ball_destroy, 3};
    CustomBall *cb = (CustomBall *)calloc(1, sizeof *cb);
    cb->destroy_count = destroy_count;
    return odexJointCreateCustom(w, g, &callbacks, cb);
}

/* Anchors of the world point (x, y, z) in the attached bodies' frames. */
static void custom_ball_set_anchor(dJointID j, dReal x, dReal y, dReal z)
{
    CustomBall *cb = (CustomBall *)odexJointGetCustomUserData(j);
    /* The rows see body 1 set whenever any body is attached. */
    dBodyID b1 = dJointGetBody(j, 0), b2 = dJointGetBody(j, 1);
    if (!b1) { b1 = b2; b2 = 0; }
    dBodyGetPosRelPoint(b1, x, y, z, cb->anchor1);
    if (b2) {
        dBodyGetPosRelPoint(b2, x, y, z, cb->anchor2);
    } else {
        cb->anchor2[0] = x; cb->anchor2[1] = y; cb->anchor2[2] = z;
    }
}

#endif
