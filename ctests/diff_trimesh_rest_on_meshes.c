/* DIFF-TOL rel=0 abs=0 */
/* Bodies resting on and against triangle meshes for 2000 steps, traces
 * required bit-identical to Debian's: contact order feeds the solver's row
 * order, so any difference in the order of trimesh contacts shows here.
 * Scenes: a mesh body (a 12-triangle box mesh, then the 80-triangle
 * icosphere) dropped tilted on a box floor with dWorldStep and with
 * dWorldQuickStep; the icosphere body on the terrain mesh (mesh against
 * mesh); a sphere, a box, a capsule and a cylinder on the terrain mesh.
 * Prints every body's position and quaternion every 20 steps and the
 * number of contacts of every step. */
#include <stdio.h>
#include <string.h>
#include "tmesh_meshes.h"

static dWorldID world;
static dJointGroupID group;
static int ncontacts;

static void near_cb(void *data, dGeomID a, dGeomID b) {
  (void)data;
  dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
  if (!ba && !bb) return;
  dContact c[32];
  int n = dCollide(a, b, 32, &c[0].geom, sizeof(dContact));
  for (int i = 0; i < n; i++) {
    c[i].surface.mode = dContactSoftERP | dContactSoftCFM | dContactApprox1;
    c[i].surface.mu = 0.6;
    c[i].surface.soft_erp = 0.3;
    c[i].surface.soft_cfm = 1e-5;
    dJointID j = dJointCreateContact(world, group, &c[i]);
    dJointAttach(j, ba, bb);
  }
  ncontacts += n;
}

/* A box mesh of half sizes (a, b, c), floats. */
static float bm_v[8][3];
static int bm_i[36];
static dTriMeshDataID box_mesh(float a, float b, float c) {
  static const int I[36] = {0,2,1,0,3,2, 4,5,6,4,6,7, 0,1,5,0,5,4, 1,2,6,1,6,5, 2,3,7,2,7,6, 3,0,4,3,4,7};
  for (int i = 0; i < 8; i++) {
    bm_v[i][0] = (i == 1 || i == 2 || i == 5 || i == 6) ? a : -a;
    bm_v[i][1] = (i == 2 || i == 3 || i == 6 || i == 7) ? b : -b;
    bm_v[i][2] = i >= 4 ? c : -c;
  }
  memcpy(bm_i, I, sizeof I);
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(d, bm_v, 3 * sizeof(float), 8, bm_i, 36, 3 * sizeof(int));
  return d;
}

static void print_body(const char *tag, int step, dBodyID b) {
  const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
  printf("%s %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", tag, step, p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
}

static dBodyID add_body(dGeomID g, double x, double y, double z, double mass, double ax, double ang) {
  dBodyID b = dBodyCreate(world);
  dMass m;
  dMassSetBoxTotal(&m, mass, 0.6, 0.5, 0.4);
  dBodySetMass(b, &m);
  dBodySetPosition(b, x, y, z);
  dMatrix3 R;
  dRFromAxisAndAngle(R, ax, 1 - ax, 0.3, ang);
  dBodySetRotation(b, R);
  dGeomSetBody(g, b);
  return b;
}

static void run(const char *tag, int scene, int quick) {
  world = dWorldCreate();
  group = dJointGroupCreate(0);
  dWorldSetGravity(world, 0, 0, -9.81);
  dWorldSetQuickStepNumIterations(world, 30);
  dSpaceID space = dHashSpaceCreate(0);
  dBodyID bodies[4];
  int nb = 0;
  if (scene == 0 || scene == 1) {
    dGeomID floor = dCreateBox(space, 8, 8, 1);
    dGeomSetPosition(floor, 0, 0, -0.5);
    dTriMeshDataID d = scene == 0 ? box_mesh(0.3f, 0.25f, 0.2f) : tm_icosphere();
    dGeomID m = dCreateTriMesh(space, d, 0, 0, 0);
    bodies[nb++] = add_body(m, 0.1, -0.05, scene == 0 ? 0.5 : 1.2, 2.0, 0.3, 0.4);
  } else {
    dTriMeshDataID t = tm_terrain();
    dCreateTriMesh(space, t, 0, 0, 0);
    if (scene == 2) {
      dGeomID m = dCreateTriMesh(space, tm_icosphere(), 0, 0, 0);
      bodies[nb++] = add_body(m, 0.4, 0.2, tm_height(0.4, 0.2) + 1.3, 2.0, 0.7, 0.9);
    } else {
      dGeomID g[4] = {dCreateSphere(space, 0.3), dCreateBox(space, 0.6, 0.5, 0.4), dCreateCapsule(space, 0.2, 0.5), dCreateCylinder(space, 0.25, 0.5)};
      const double xy[4][2] = {{-2.2, -1.5}, {1.1, -2.0}, {-1.4, 1.8}, {2.3, 1.2}};
      for (int i = 0; i < 4; i++)
        bodies[nb++] = add_body(g[i], xy[i][0], xy[i][1], tm_height(xy[i][0], xy[i][1]) + 0.6, 1.0 + 0.3 * i, 0.2 * i, 0.5 + 0.4 * i);
    }
  }
  for (int s = 0; s < 2000; s++) {
    ncontacts = 0;
    dSpaceCollide(space, 0, near_cb);
    if (quick)
      dWorldQuickStep(world, 0.005);
    else
      dWorldStep(world, 0.005);
    dJointGroupEmpty(group);
    printf("n %s %d %d\n", tag, s, ncontacts);
    if (s % 20 == 19)
      for (int i = 0; i < nb; i++) print_body(tag, s, bodies[i]);
  }
  dSpaceDestroy(space);
  dJointGroupDestroy(group);
  dWorldDestroy(world);
}

int main(void) {
  dInitODE();
  dRandSetSeed(1);
  run("boxmesh_step", 0, 0);
  run("boxmesh_quick", 0, 1);
  run("ico_step", 1, 0);
  run("ico_quick", 1, 1);
  run("ico_terrain", 2, 1);
  run("prims_terrain", 3, 1);
  run("prims_terrain_step", 3, 0);
  dCloseODE();
  return 0;
}
