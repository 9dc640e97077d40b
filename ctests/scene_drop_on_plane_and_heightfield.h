/* End-to-end scenes shared by diff_scene_drop_on_plane_and_heightfield.c (trajectories, Debian's
 * library against ours) and t_scene_drop_comes_to_rest.c (self-checking: bodies come to
 * rest without sinking). Contacts come from dSpaceCollide with a near
 * callback creating contact joints in a joint group; the world is stepped
 * with dWorldStep or dWorldQuickStep.
 *
 * Scenes:
 *   SCENE_PLANE  sphere, box, capsule and cylinder dropped on a plane;
 *   SCENE_HFIELD the same four dropped on a heightfield with small bumps
 *               (a few cm) on 0.5 m cells, smaller than the bodies (ODE's
 *               vertex pass needs that; no plane);
 *   SCENE_RAMP   a sphere and a capsule rolling down a tilted static box.
 * Gravity is -y (the heightfield's up axis). */
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { SCENE_PLANE, SCENE_HFIELD, SCENE_RAMP };
#define SCENE_MAXB 4
#define SCENE_MAXC 8
#define SCENE_DT 0.01

typedef struct {
    int kind;
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    dBodyID body[SCENE_MAXB];
    dGeomID geom[SCENE_MAXB];
    int nbody;
    dGeomID ground; /* plane, heightfield or ramp box */
    dHeightfieldDataID hdata;
    double mu;
    int ncontacts; /* contact joints created by the last step */
} Scene;

#define HF_N 33
static double scene_heights[HF_N * HF_N];

static inline void scene_near(void *data, dGeomID o1, dGeomID o2)
{
    Scene *s = (Scene *)data;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    dContact c[SCENE_MAXC];
    int n, i;
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    memset(c, 0, sizeof c);
    n = dCollide(o1, o2, SCENE_MAXC, &c[0].geom, sizeof(dContact));
    for (i = 0; i < n; i++) {
        dJointID j;
        c[i].surface.mode = dContactApprox1;
        c[i].surface.mu = s->mu;
        j = dJointCreateContact(s->world, s->contacts, &c[i]);
        dJointAttach(j, b1, b2);
        s->ncontacts++;
    }
}

static inline dBodyID scene_body(Scene *s, dGeomID g, const double p[3], double ax, double ay, double az, double angle)
{
    dMass m;
    dMatrix3 R;
    dBodyID b = dBodyCreate(s->world);
    switch (dGeomGetClass(g)) {
    case dSphereClass: dMassSetSphereTotal(&m, 1.0, dGeomSphereGetRadius(g)); break;
    case dBoxClass: { dVector3 l; dGeomBoxGetLengths(g, l); dMassSetBoxTotal(&m, 1.5, l[0], l[1], l[2]); break; }
    case dCapsuleClass: { dReal r, l; dGeomCapsuleGetParams(g, &r, &l); dMassSetCapsuleTotal(&m, 1.2, 3, r, l); break; }
    default: { dReal r, l; dGeomCylinderGetParams(g, &r, &l); dMassSetCylinderTotal(&m, 1.3, 3, r, l); break; }
    }
    dBodySetMass(b, &m);
    dBodySetPosition(b, p[0], p[1], p[2]);
    dRFromAxisAndAngle(R, ax, ay, az, angle);
    dBodySetRotation(b, R);
    dGeomSetBody(g, b);
    s->body[s->nbody] = b;
    s->geom[s->nbody] = g;
    s->nbody++;
    return b;
}

static inline void scene_build(Scene *s, int kind)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, -9.81, 0);
    s->space = dHashSpaceCreate(0);
    s->contacts = dJointGroupCreate(0);
    dWorldSetQuickStepNumIterations(s->world, 50);
    s->mu = 0.8;
    if (kind == SCENE_RAMP) {
        dMatrix3 R;
        const double slope = 0.35; /* radians */
        double p[3];
        s->mu = 0.6;
        s->ground = dCreateBox(s->space, 12, 0.4, 4);
        dRFromAxisAndAngle(R, 0, 0, 1, -slope); /* descending towards +x */
        dGeomSetRotation(s->ground, R);
        dGeomSetPosition(s->ground, 0, 0, 0);
        /* on the top face: centre + (0.2 + r) along the face normal, -3 along the slope */
        {
            double nx = sin(slope), ny = cos(slope), tx = cos(slope), ty = -sin(slope), r = 0.4;
            p[0] = -3 * tx + (0.2 + r) * nx; p[1] = -3 * ty + (0.2 + r) * ny; p[2] = -0.8;
            scene_body(s, dCreateSphere(s->space, r), p, 1, 0, 0, 0);
            r = 0.3;
            p[0] = -3.5 * tx + (0.2 + r) * nx; p[1] = -3.5 * ty + (0.2 + r) * ny; p[2] = 1.0;
            /* capsule axis (its z) along world z: across the slope, so it rolls */
            scene_body(s, dCreateCapsule(s->space, r, 1.0), p, 0, 1, 0, 0);
        }
        return;
    }
    if (kind == SCENE_PLANE) {
        s->ground = dCreatePlane(s->space, 0, 1, 0, 0);
    } else {
        int x, z;
        for (x = 0; x < HF_N; x++)
            for (z = 0; z < HF_N; z++)
                scene_heights[x + z * HF_N] = 0.1 + 0.02 * cos(1.15 * x) * cos(0.95 * z);
        s->hdata = dGeomHeightfieldDataCreate();
        dGeomHeightfieldDataBuildDouble(s->hdata, scene_heights, 0, 16, 16, HF_N, HF_N, 1, 0, 1, 0); /* 0.5 m cells */
        s->ground = dCreateHeightfield(s->space, s->hdata, 1);
    }
    /* world defaults, taken by bodies created afterwards */
    dWorldSetLinearDamping(s->world, 0.01);
    dWorldSetAngularDamping(s->world, 0.05);
    dWorldSetLinearDampingThreshold(s->world, 0);
    dWorldSetAngularDampingThreshold(s->world, 0);
    {
        double p[3] = {-2.93, 1.5, 0.27};
        dBodySetAngularVel(scene_body(s, dCreateSphere(s->space, 0.5), p, 0, 0, 1, 0), 0, 0, 0);
        p[0] = -1.04; p[1] = 2.0; p[2] = -0.43;
        scene_body(s, dCreateBox(s->space, 1.0, 0.6, 0.8), p, 1, 1, 0.3, 0.7);
        p[0] = 1.07; p[1] = 1.8; p[2] = 0.61;
        scene_body(s, dCreateCapsule(s->space, 0.3, 1.0), p, 0.2, 1, 0.5, 1.1);
        p[0] = 2.96; p[1] = 1.6; p[2] = -0.18;
        scene_body(s, dCreateCylinder(s->space, 0.4, 0.8), p, 1, 0, 0.4, 0.5);
    }
}

static inline void scene_step(Scene *s, int quick)
{
    s->ncontacts = 0;
    dSpaceCollide(s->space, s, scene_near);
    if (quick) dWorldQuickStep(s->world, SCENE_DT);
    else dWorldStep(s->world, SCENE_DT);
    dJointGroupEmpty(s->contacts);
}

static inline void scene_print(const Scene *s, int step)
{
    int i, k;
    printf("s %d c %d", step, s->ncontacts);
    for (i = 0; i < s->nbody; i++) {
        const dReal *p = dBodyGetPosition(s->body[i]), *q = dBodyGetQuaternion(s->body[i]);
        for (k = 0; k < 3; k++) printf(" %.17g", p[k]);
        for (k = 0; k < 4; k++) printf(" %.17g", q[k]);
    }
    printf("\n");
}

/* Deepest penetration of body i into the ground (0 when not touching). */
static inline double scene_depth(const Scene *s, int i)
{
    dContactGeom c[SCENE_MAXC];
    int n = dCollide(s->geom[i], s->ground, SCENE_MAXC, c, sizeof(dContactGeom)), k;
    double d = 0;
    for (k = 0; k < n; k++)
        if (c[k].depth > d) d = c[k].depth;
    return d;
}

static inline void scene_destroy(Scene *s)
{
    dJointGroupDestroy(s->contacts);
    dSpaceDestroy(s->space); /* destroys the geoms */
    if (s->hdata) dGeomHeightfieldDataDestroy(s->hdata);
    dWorldDestroy(s->world);
}
