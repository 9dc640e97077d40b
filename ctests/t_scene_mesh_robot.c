/* Self-checking: a four-legged robot whose torso and legs are box MESHES
 * (12 triangles each, hinged to the torso, hinges held by stiff limits)
 * stands for 5 s on a mesh floor (a flat 20x20-cell grid), contacts from
 * trimesh-trimesh collisions only. Then a closed mesh cube rests on
 * another, static, mesh cube for 3 s. Checks: after the first second
 * (landing) no foot is more than 1 mm inside the floor (Debian: ~6e-6),
 * none ever more than 2.5 cm (the landing transient: ~1.5 cm with either
 * library), the torso keeps its height within 2 cm after settling, the
 * stacked cube stays on top (1 cm). Prints the final heights, then
 * "ok". Runs unchanged against Debian's libode (tests/scene_mesh_robot.rs). */
#include <ode/ode.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define FAIL(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); exit(1); } while (0)

/* Box mesh with half sizes h (vertices owned by the caller's storage). */
struct boxmesh { float v[8][3]; int i[36]; dTriMeshDataID d; };
static void make_box(struct boxmesh *b, double hx, double hy, double hz) {
  static const int I[36] = {0,2,1,0,3,2, 4,5,6,4,6,7, 0,1,5,0,5,4, 1,2,6,1,6,5, 2,3,7,2,7,6, 3,0,4,3,4,7};
  for (int k = 0; k < 8; k++) {
    b->v[k][0] = (float)((k == 1 || k == 2 || k == 5 || k == 6) ? hx : -hx);
    b->v[k][1] = (float)((k == 2 || k == 3 || k == 6 || k == 7) ? hy : -hy);
    b->v[k][2] = (float)(k >= 4 ? hz : -hz);
  }
  for (int k = 0; k < 36; k++) b->i[k] = I[k];
  b->d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(b->d, b->v, 3 * sizeof(float), 8, b->i, 36, 3 * sizeof(int));
}

#define FG 20
static float floor_v[(FG + 1) * (FG + 1)][3];
static int floor_i[FG * FG * 6];

static dWorldID world;
static dJointGroupID contacts;

static void near(void *data, dGeomID a, dGeomID b) {
  (void)data;
  dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
  if (ba && bb && dAreConnectedExcluding(ba, bb, dJointTypeContact)) return;
  dContact c[16];
  int n = dCollide(a, b, 16, &c[0].geom, sizeof(dContact));
  for (int k = 0; k < n; k++) {
    c[k].surface.mode = dContactSoftERP | dContactSoftCFM;
    c[k].surface.mu = 1.0;
    c[k].surface.soft_erp = 0.2;
    c[k].surface.soft_cfm = 1e-5;
    dJointAttach(dJointCreateContact(world, contacts, &c[k]), ba, bb);
  }
}

int main(void) {
  dInitODE();
  world = dWorldCreate();
  dWorldSetGravity(world, 0, 0, -9.81);
  dSpaceID space = dHashSpaceCreate(0);
  contacts = dJointGroupCreate(0);

  for (int j = 0; j <= FG; j++)
    for (int i = 0; i <= FG; i++) {
      float *v = floor_v[j * (FG + 1) + i];
      v[0] = (float)(i - FG / 2) * 0.25f; v[1] = (float)(j - FG / 2) * 0.25f; v[2] = 0.0f;
    }
  int n = 0;
  for (int j = 0; j < FG; j++)
    for (int i = 0; i < FG; i++) {
      int a = j * (FG + 1) + i, b = a + 1, c = a + FG + 1, d = c + 1;
      int T[6] = {a, b, d, a, d, c};
      for (int k = 0; k < 6; k++) floor_i[n++] = T[k];
    }
  dTriMeshDataID fd = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(fd, floor_v, 3 * sizeof(float), (FG + 1) * (FG + 1), floor_i, n, 3 * sizeof(int));
  dCreateTriMesh(space, fd, 0, 0, 0);

  /* Torso 0.6 x 0.3 x 0.1 at z = 0.5; legs 0.08 x 0.08 x 0.45 under its corners. */
  static struct boxmesh torso_m, leg_m;
  make_box(&torso_m, 0.3, 0.15, 0.05);
  make_box(&leg_m, 0.04, 0.04, 0.225);
  dMass m;
  dBodyID torso = dBodyCreate(world);
  dBodySetPosition(torso, 0, 0, 0.5);
  dMassSetBoxTotal(&m, 4.0, 0.6, 0.3, 0.1);
  dBodySetMass(torso, &m);
  dGeomSetBody(dCreateTriMesh(space, torso_m.d, 0, 0, 0), torso);
  dBodyID leg[4];
  const double lx[4] = {0.25, 0.25, -0.25, -0.25}, ly[4] = {0.1, -0.1, 0.1, -0.1};
  for (int k = 0; k < 4; k++) {
    leg[k] = dBodyCreate(world);
    dBodySetPosition(leg[k], lx[k], ly[k], 0.225 + 0.001);
    dMassSetBoxTotal(&m, 0.5, 0.08, 0.08, 0.45);
    dBodySetMass(leg[k], &m);
    dGeomSetBody(dCreateTriMesh(space, leg_m.d, 0, 0, 0), leg[k]);
    dJointID h = dJointCreateHinge(world, 0);
    dJointAttach(h, torso, leg[k]);
    dJointSetHingeAnchor(h, lx[k], ly[k], 0.45);
    dJointSetHingeAxis(h, 0, 1, 0);
    dJointSetHingeParam(h, dParamLoStop, -0.01);
    dJointSetHingeParam(h, dParamHiStop, 0.01);
  }

  double settled = 0, foot_min = 1, foot_min_settled = 1;
  for (int s = 0; s < 500; s++) {
    dSpaceCollide(space, 0, near);
    dWorldStep(world, 0.01);
    dJointGroupEmpty(contacts);
    for (int k = 0; k < 4; k++) {
      /* Lowest leg corner. */
      const dReal *p = dBodyGetPosition(leg[k]);
      const dReal *R = dBodyGetRotation(leg[k]);
      for (int c = 0; c < 8; c++) {
        double l[3] = {c & 1 ? 0.04 : -0.04, c & 2 ? 0.04 : -0.04, c & 4 ? 0.225 : -0.225};
        double z = p[2] + R[8] * l[0] + R[9] * l[1] + R[10] * l[2];
        if (z < foot_min) foot_min = z;
        if (s >= 100 && z < foot_min_settled) foot_min_settled = z;
      }
    }
    double tz = dBodyGetPosition(torso)[2];
    if (s == 100) settled = tz;
    if (s > 100 && fabs(tz - settled) > 0.02) FAIL("torso height drifts: %g vs %g at step %d", tz, settled, s);
    if (!(tz > 0.3)) FAIL("torso fell: z = %g at step %d", tz, s);
  }
  if (foot_min < -0.025) FAIL("a foot sank %g into the floor", -foot_min);
  if (foot_min_settled < -0.001) FAIL("a foot sank %g into the floor after landing", -foot_min_settled);
  printf("robot torso z %.4f lowest foot after landing %.6f\n", dBodyGetPosition(torso)[2], foot_min_settled);

  /* A mesh cube (side 0.4) resting on a static mesh cube (side 1). */
  static struct boxmesh big, small;
  make_box(&big, 0.5, 0.5, 0.5);
  make_box(&small, 0.2, 0.2, 0.2);
  dGeomID bg = dCreateTriMesh(space, big.d, 0, 0, 0);
  dGeomSetPosition(bg, 5, 0, 0.5);
  dBodyID cube = dBodyCreate(world);
  dBodySetPosition(cube, 5.05, 0.02, 1.0 + 0.2 + 0.005);
  dMassSetBoxTotal(&m, 1.0, 0.4, 0.4, 0.4);
  dBodySetMass(cube, &m);
  dGeomSetBody(dCreateTriMesh(space, small.d, 0, 0, 0), cube);
  for (int s = 0; s < 300; s++) {
    dSpaceCollide(space, 0, near);
    dWorldStep(world, 0.01);
    dJointGroupEmpty(contacts);
  }
  const dReal *cp = dBodyGetPosition(cube);
  if (fabs(cp[2] - 1.2) > 0.01) FAIL("stacked cube at z %g, expected 1.2", cp[2]);
  if (fabs(cp[0] - 5.05) > 0.02 || fabs(cp[1] - 0.02) > 0.02) FAIL("stacked cube slid to %g %g", cp[0], cp[1]);
  printf("stacked cube z %.4f\n", cp[2]);
  printf("ok\n");
  return 0;
}
