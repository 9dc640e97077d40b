/* A slotted hinge as a custom joint (ode/ode_ext.h): a pin fixed in the
 * body slides along the world x axis of a slot and the body turns about
 * the world z axis through the pin; the pin's slide coordinate x and the
 * turn angle theta have limits. Shared by ctests/t_joint_custom_slot.c and the
 * README example. The joint attaches one body to the static world.
 *
 * Rows (r = pin offset from the body's centre, world axes; pin = p + r):
 *   0, 1  pin velocity along y and z is zero:  v.e + w.(r x e) = -k (pin - o).e
 *   2, 3  body z axis stays along world z:     w.x, w.y        = k (zb x Z).(x, y)
 *   limit x in [x_lo, x_hi]:                   v.X + w.(r x X)  (odexJointLimitRow)
 *   limit theta in [t_lo, t_hi]:               w.Z              (odexJointLimitRow)
 * The two limit rows share the body's angular velocity (through r x X),
 * so they act on each other: the case the anti-chatter aids are for. */
#ifndef CUSTOM_SLOT_H
#define CUSTOM_SLOT_H

#include <ode/ode_ext.h>
#include <math.h>
#include <stdlib.h>

typedef struct CustomSlot {
    dVector3 pin;       /* pin in the body's frame */
    dVector3 origin;    /* slot origin (world); x is measured from it */
    odexLimit x_limit;  /* slot 0 */
    odexLimit t_limit;  /* slot 1 */
    int engaged[2];     /* this step, from info1 */
} CustomSlot;

/* Slide coordinate and turn angle now. */
static void custom_slot_coords(const CustomSlot *s, dBodyID b, dReal *x, dReal *theta, dVector3 pin_world)
{
    const dReal *R = dBodyGetRotation(b);
    dBodyGetRelPointPos(b, s->pin[0], s->pin[1], s->pin[2], pin_world);
    *x = pin_world[0] - s->origin[0];
    *theta = atan2(R[4], R[0]); /* rotation of the body's x axis about z */
}

static void custom_slot_info1(odexJointInfo1 *info)
{
    CustomSlot *s = (CustomSlot *)info->user_data;
    dReal x, theta;
    dVector3 pw;
    custom_slot_coords(s, info->body1, &x, &theta, pw);
    s->engaged[0] = odexJointLimitTest(info, 0, x, &s->x_limit);
    s->engaged[1] = odexJointLimitTest(info, 1, theta, &s->t_limit);
    info->nub = 4;
    info->m = 4 + s->engaged[0] + s->engaged[1];
}

static void cross(const dReal *a, const dReal *b, dReal *r)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static void custom_slot_info2(odexJointInfo2 *info)
{
    const CustomSlot *s = (const CustomSlot *)info->user_data;
    static const dReal E[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    odexJointRow *row = info->rows;
    const dReal *p = dBodyGetPosition(info->body1);
    const dReal *R = dBodyGetRotation(info->body1);
    dReal k = info->fps * info->erp, x, theta;
    dVector3 pw, r, zb, u;
    int i, n = 4;
    custom_slot_coords(s, info->body1, &x, &theta, pw);
    for (i = 0; i < 3; i++) r[i] = pw[i] - p[i];
    /* pin stays on the slot line: y and z rows */
    for (i = 0; i < 2; i++) {
        const dReal *e = E[i + 1];
        int c;
        for (c = 0; c < 3; c++) row[i].J1l[c] = e[c];
        cross(r, e, row[i].J1a);
        row[i].c = -k * (pw[i + 1] - s->origin[i + 1]);
    }
    /* body z axis along world z */
    zb[0] = R[2]; zb[1] = R[6]; zb[2] = R[10];
    cross(zb, E[2], u);
    row[2].J1a[0] = 1; row[2].c = k * u[0];
    row[3].J1a[1] = 1; row[3].c = k * u[1];
    if (s->engaged[0]) {
        row[n].J1l[0] = 1;
        cross(r, E[0], row[n].J1a);
        odexJointLimitRow(info, 0, &row[n]);
        n++;
    }
    if (s->engaged[1]) {
        row[n].J1a[2] = 1;
        odexJointLimitRow(info, 1, &row[n]);
        n++;
    }
}

static void custom_slot_destroy(void *user)
{
    free(user);
}

/* Creates the joint, attaches body b and puts the slot origin at the pin's
 * current position. Limits start open (odexLimitInit): set them in the
 * returned CustomSlot. */
static dJointID custom_slot_create(dWorldID w, dBodyID b, const dReal pin[3], CustomSlot **out)
{
    static const odexCustomJointCallbacks callbacks = {
        custom_slot_info1, custom_slot_info2, custom_slot_destroy, 6};
    CustomSlot *s = (CustomSlot *)calloc(1, sizeof *s);
    dJointID j;
    s->pin[0] = pin[0]; s->pin[1] = pin[1]; s->pin[2] = pin[2];
    dBodyGetRelPointPos(b, pin[0], pin[1], pin[2], s->origin);
    odexLimitInit(&s->x_limit, w);
    odexLimitInit(&s->t_limit, w);
    j = odexJointCreateCustom(w, 0, &callbacks, s);
    dJointAttach(j, b, 0);
    if (out) *out = s;
    return j;
}

#endif
