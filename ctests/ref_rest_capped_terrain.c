/* Bodies dropped on a terrain and left to rest, with the contact limit a
 * program passes to dCollide in its near callback: 1, 4 and 64 (the full
 * set). Boxes, spheres, capsules and cylinders (8 of each) fall on:
 *   mesh  - a 2048-triangle terrain trimesh (rolling hills in a bowl),
 *   grid  - a flat 200-triangle grid trimesh (10 x 10 cells),
 *   hfield - a callback heightfield of the same hills (y up, as ODE's
 *            heightfields are; that scene runs with gravity along -y),
 * for 10 s of simulated time (1000 steps of 0.01 s) with dWorldStep and
 * with dWorldQuickStep. Trajectories are not compared (trimesh contact
 * order still differs from ODE's); each run prints what matters for
 * resting: per kind of body, the deepest any went below the surface over
 * the run and over its second half, and how many ended below the surface
 * (fell through). Run with Debian's library and
 * ours; tests/collide_capped_rest.rs requires ours to be no deeper than
 * Debian's (plus a small margin) and nothing to fall through.
 *
 * Output: two lines per run: for each kind of body (box, sphere, capsule,
 * cylinder) its name, the deepest penetration over the run and over its
 * second half, and how many ended below the surface; then the final
 * positions and quaternions of all bodies in hexadecimal:
 *   run <surface> <limit> <stepper> { <kind> <maxpen> <latepen> <fallen> } x 4
 *   state <surface> <limit> <stepper> { x y z qw qx qy qz } x 32
 * Arguments (optional): steps (default 1000), then the surfaces to run
 * (names joined by '+', default all). */
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 32

/* ---- surfaces ---------------------------------------------------------- */

/* Terrain grid: (G+1)^2 samples, cell S, centred on the origin. */
#define G 32
#define S 0.5
#define HALF (0.5 * G * S)
static double hills(double x, double y) { return 0.3 * sin(0.8 * x) * cos(0.6 * y) + 0.015 * (x * x + y * y); }

static float mesh_v[(G + 1) * (G + 1)][3];
static int mesh_i[G * G * 6];
static float grid_v[11 * 11][3];
static int grid_i[10 * 10 * 6];

static void build_meshes(void) {
  for (int j = 0; j <= G; j++)
    for (int i = 0; i <= G; i++) {
      float *v = mesh_v[j * (G + 1) + i];
      v[0] = (float)(i * S - HALF);
      v[1] = (float)(j * S - HALF);
      v[2] = (float)hills(v[0], v[1]);
    }
  int n = 0;
  for (int j = 0; j < G; j++)
    for (int i = 0; i < G; i++) {
      int a = j * (G + 1) + i, b = a + 1, c = a + G + 1, d = c + 1;
      int T[6] = {a, b, d, a, d, c};
      for (int k = 0; k < 6; k++) mesh_i[n++] = T[k];
    }
  for (int j = 0; j <= 10; j++)
    for (int i = 0; i <= 10; i++) {
      grid_v[j * 11 + i][0] = (float)(i - 5);
      grid_v[j * 11 + i][1] = (float)(j - 5);
      grid_v[j * 11 + i][2] = 0;
    }
  n = 0;
  for (int j = 0; j < 10; j++)
    for (int i = 0; i < 10; i++) {
      int a = j * 11 + i, b = a + 1, c = a + 11, d = c + 1;
      int T[6] = {a, b, d, a, d, c};
      for (int k = 0; k < 6; k++) grid_i[n++] = T[k];
    }
}

/* Height of the mesh surface (its triangles, float vertices) under (x, y). */
static double mesh_height(double x, double y) {
  double fx = (x + HALF) / S, fy = (y + HALF) / S;
  int i = (int)floor(fx), j = (int)floor(fy);
  if (i < 0) i = 0;
  if (i > G - 1) i = G - 1;
  if (j < 0) j = 0;
  if (j > G - 1) j = G - 1;
  double u = fx - i, v = fy - j;
  double za = mesh_v[j * (G + 1) + i][2], zb = mesh_v[j * (G + 1) + i + 1][2];
  double zc = mesh_v[(j + 1) * (G + 1) + i][2], zd = mesh_v[(j + 1) * (G + 1) + i + 1][2];
  if (u >= v) return za + u * (zb - za) + v * (zd - zb);
  return za + v * (zc - za) + u * (zd - zc);
}

/* The heightfield: samples of `hills` on the same grid, in ODE's y-up frame
 * (the heightfield scenes run with gravity along -y). */
static dReal hf_sample(void *user, int x, int z) {
  (void)user;
  return hills(x * S - HALF, z * S - HALF);
}

/* Height of the heightfield surface under (x, z): cells split along the
 * diagonal from (x+1, z) to (x, z+1), as ODE triangulates them. */
static double hf_height(double lx, double lz) {
  double fx = (lx + HALF) / S, fz = (lz + HALF) / S;
  int i = (int)floor(fx), k = (int)floor(fz);
  if (i < 0) i = 0;
  if (i > G - 1) i = G - 1;
  if (k < 0) k = 0;
  if (k > G - 1) k = G - 1;
  double u = fx - i, w = fz - k;
  double hA = hf_sample(0, i, k), hB = hf_sample(0, i + 1, k), hC = hf_sample(0, i, k + 1), hD = hf_sample(0, i + 1, k + 1);
  if (u + w < 1) return hA + u * (hB - hA) + w * (hC - hA);
  return hD + (1 - u) * (hC - hD) + (1 - w) * (hB - hD);
}

static const char *kind_name[4] = {"box", "sphere", "capsule", "cylinder"};
enum { SURF_MESH, SURF_GRID, SURF_HFIELD, NSURF };
static const char *surf_name[NSURF] = {"mesh", "grid", "hfield"};
/* The up axis of each surface's world (the other two span the ground). */
static int up_axis(int s) { return s == SURF_HFIELD ? 1 : 2; }
static int side_axis(int s) { return s == SURF_HFIELD ? 2 : 1; }
/* Height of surface s under ground coordinates (x, y): world (x, y) for
 * the meshes, world (x, z) for the heightfield. */
static double surface_height(int s, double x, double y) {
  switch (s) {
  case SURF_MESH: return mesh_height(x, y);
  case SURF_GRID: return 0;
  default: return hf_height(x, y);
  }
}

/* ---- bodies ------------------------------------------------------------ */

static dWorldID world;
static dJointGroupID group;
static int limit;

static void near(void *data, dGeomID a, dGeomID b) {
  (void)data;
  dContact c[64];
  dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
  if (ba && bb && dAreConnectedExcluding(ba, bb, dJointTypeContact)) return;
  int n = dCollide(a, b, limit, &c[0].geom, sizeof(dContact));
  for (int k = 0; k < n; k++) {
    c[k].surface.mode = dContactSoftCFM;
    c[k].surface.mu = 0.8;
    c[k].surface.soft_cfm = 1e-5;
    dJointAttach(dJointCreateContact(world, group, &c[k]), ba, bb);
  }
}

/* Lowest clearance of a body over the surface: the least height above it
 * of the body's sample points (box corners, sphere bottom, points along the
 * capsule's axis less the radius, the cylinder's rims). */
static double clearance(int s, dGeomID g) {
  const dReal *p = dGeomGetPosition(g), *R = dGeomGetRotation(g);
  double best = 1e30;
#define PT(lx, ly, lz, drop)                                                                  \
  do {                                                                                        \
    double w[3];                                                                              \
    for (int q_ = 0; q_ < 3; q_++) w[q_] = p[q_] + R[4 * q_] * (lx) + R[4 * q_ + 1] * (ly) + R[4 * q_ + 2] * (lz); \
    double cl = w[up_axis(s)] - (drop) - surface_height(s, w[0], w[side_axis(s)]);         \
    if (cl < best) best = cl;                                                                 \
  } while (0)
  switch (dGeomGetClass(g)) {
  case dSphereClass: PT(0, 0, 0, dGeomSphereGetRadius(g)); break;
  case dBoxClass: {
    dVector3 l;
    dGeomBoxGetLengths(g, l);
    for (int k = 0; k < 8; k++) PT((k & 1 ? 0.5 : -0.5) * l[0], (k & 2 ? 0.5 : -0.5) * l[1], (k & 4 ? 0.5 : -0.5) * l[2], 0);
    break;
  }
  case dCapsuleClass: {
    dReal r, len;
    dGeomCapsuleGetParams(g, &r, &len);
    for (int k = 0; k <= 4; k++) PT(0, 0, (k / 4.0 - 0.5) * len, r);
    break;
  }
  case dCylinderClass: {
    dReal r, len;
    dGeomCylinderGetParams(g, &r, &len);
    for (int k = 0; k < 24; k++) {
      double a = 2 * M_PI * (k % 12) / 12;
      PT(r * cos(a), r * sin(a), (k < 12 ? -0.5 : 0.5) * len, 0);
    }
    break;
  }
  }
#undef PT
  return best;
}

static unsigned long long lcg;
static double rnd(void) { lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL; return (double)(lcg >> 11) / 9007199254740992.0; }
static double rr(double a, double b) { return a + (b - a) * rnd(); }

static void run(int surf, int lim, int quick, int steps) {
  static dTriMeshDataID mdata, gdata;
  static dHeightfieldDataID hdata;
  if (!mdata) {
    mdata = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildSingle(mdata, mesh_v, 3 * sizeof(float), (G + 1) * (G + 1), mesh_i, G * G * 6, 3 * sizeof(int));
    gdata = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildSingle(gdata, grid_v, 3 * sizeof(float), 121, grid_i, 600, 3 * sizeof(int));
    hdata = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildCallback(hdata, 0, hf_sample, G * S, G * S, G + 1, G + 1, 1, 0, 1, 0);
    dGeomHeightfieldDataSetBounds(hdata, -1, 4);
  }
  limit = lim;
  /* QuickStep shuffles rows with the global dRand: every run starts from
   * the same seed, so that a run does not depend on the ones before it */
  dRandSetSeed(0);
  world = dWorldCreate();
  if (surf == SURF_HFIELD) dWorldSetGravity(world, 0, -9.81, 0);
  else dWorldSetGravity(world, 0, 0, -9.81);
  dWorldSetQuickStepNumIterations(world, 20);
  dSpaceID space = dHashSpaceCreate(0);
  group = dJointGroupCreate(0);
  dGeomID ground;
  if (surf == SURF_MESH) ground = dCreateTriMesh(space, mdata, 0, 0, 0);
  else if (surf == SURF_GRID) ground = dCreateTriMesh(space, gdata, 0, 0, 0);
  else ground = dCreateHeightfield(space, hdata, 1);
  (void)ground;
  dGeomID geoms[NB];
  lcg = 0x1234567ULL + 977 * surf;
  double spread = surf == SURF_GRID ? 3.0 : 5.5;
  for (int i = 0; i < NB; i++) {
    int kind = i % 4;
    /* a 6 x 6 lattice of drop points, jittered */
    double x = ((i % 6) - 2.5) / 2.5 * spread + rr(-0.2, 0.2), y = ((i / 6) - 2.5) / 2.5 * spread + rr(-0.2, 0.2);
    dBodyID b = dBodyCreate(world);
    dMass m;
    dGeomID g;
    switch (kind) {
    case 0: g = dCreateBox(space, 0.5, 0.4, 0.3); dMassSetBox(&m, 1, 0.5, 0.4, 0.3); break;
    case 1: g = dCreateSphere(space, 0.25); dMassSetSphere(&m, 1, 0.25); break;
    case 2: g = dCreateCapsule(space, 0.15, 0.5); dMassSetCapsule(&m, 1, 3, 0.15, 0.5); break;
    default: g = dCreateCylinder(space, 0.25, 0.3); dMassSetCylinder(&m, 1, 3, 0.25, 0.3); break;
    }
    dBodySetMass(b, &m);
    dGeomSetBody(g, b);
    dMatrix3 R;
    dRFromEulerAngles(R, rr(-0.6, 0.6), rr(-0.6, 0.6), rr(-3.1, 3.1));
    dBodySetRotation(b, R);
    double pos[3];
    pos[0] = x;
    pos[side_axis(surf)] = y;
    pos[up_axis(surf)] = surface_height(surf, x, y) + 0.6 + 0.4 * rnd();
    dBodySetPosition(b, pos[0], pos[1], pos[2]);
    geoms[i] = g;
  }
  /* per kind (box, sphere, capsule, cylinder) */
  double maxpen[4] = {0, 0, 0, 0}, latepen[4] = {0, 0, 0, 0};
  for (int s = 0; s < steps; s++) {
    dSpaceCollide(space, 0, near);
    if (quick) dWorldQuickStep(world, 0.01);
    else dWorldStep(world, 0.01);
    dJointGroupEmpty(group);
    for (int i = 0; i < NB; i++) {
      double pen = -clearance(surf, geoms[i]);
      /* a body far below has fallen through: it is counted at the end,
       * not as a penetration depth */
      if (pen > 1.0) continue;
      if (pen > maxpen[i % 4]) maxpen[i % 4] = pen;
      if (2 * s >= steps && pen > latepen[i % 4]) latepen[i % 4] = pen;
    }
  }
  int fallen[4] = {0, 0, 0, 0};
  for (int i = 0; i < NB; i++) {
    const dReal *p = dGeomGetPosition(geoms[i]);
    double cl = clearance(surf, geoms[i]);
    if (cl < -0.2 || !(p[up_axis(surf)] > surface_height(surf, p[0], p[side_axis(surf)]) - 0.2)) fallen[i % 4]++;
  }
  printf("run %s %d %s", surf_name[surf], lim, quick ? "quick" : "step");
  for (int k = 0; k < 4; k++) printf(" %s %.6f %.6f %d", kind_name[k], maxpen[k], latepen[k], fallen[k]);
  printf("\n");
  /* the final state, exactly: where colliders and steppers agree with
   * ODE's bit for bit (the heightfield scenes), so must these */
  printf("state %s %d %s", surf_name[surf], lim, quick ? "quick" : "step");
  for (int i = 0; i < NB; i++) {
    const dReal *p = dBodyGetPosition(dGeomGetBody(geoms[i])), *q = dBodyGetQuaternion(dGeomGetBody(geoms[i]));
    printf(" %a %a %a %a %a %a %a", p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
  }
  printf("\n");
  fflush(stdout);
  dJointGroupDestroy(group);
  dSpaceDestroy(space);
  dWorldDestroy(world);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 1000;
#ifdef REST_ONLY
  const char *only = REST_ONLY;
#else
  const char *only = argc > 2 ? argv[2] : 0;
#endif
  static const int lims[3] = {1, 4, 64};
  dInitODE2(0);
  build_meshes();
  for (int s = 0; s < NSURF; s++) {
    if (only && !strstr(only, surf_name[s])) continue;
    for (int l = 0; l < 3; l++)
      for (int q = 0; q < 2; q++) run(s, lims[l], q, steps);
  }
  dCloseODE();
  printf("done\n");
  return 0;
}
