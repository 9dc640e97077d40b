/* Trimesh against cylinder, convex and trimesh on random placements:
 * prints each case and the contacts of dCollide(mesh, other), max 64.
 * Run with Debian's library and ours; tests/trimesh_collide_cylinder_convex_mesh.rs compares.
 * Placements come from a private LCG, so both runs see the same cases.
 * argv: number of rounds, then which pairs ("cyl", "convex", "mesh"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tmesh_meshes.h"

static unsigned long long lcg = 0x9E3779B97F4A7C15ULL;
static double rnd(void) { lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL; return (double)(lcg >> 11) / 9007199254740992.0; }
static double rr(double a, double b) { return a + (b - a) * rnd(); }
static void rrot(dMatrix3 R) { dRFromAxisAndAngle(R, rr(-1, 1), rr(-1, 1), rr(-1, 1) + 1e-3, rr(-3.14, 3.14)); }

static void dump(int n, dContactGeom *c) {
  printf("n %d\n", n);
  for (int i = 0; i < n; i++)
    printf("c %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %d\n", c[i].pos[0], c[i].pos[1], c[i].pos[2],
           c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth, c[i].side1, c[i].side2);
}

/* A small closed mesh for mesh-mesh cases: a box 0.6 x 0.4 x 0.5 (12 triangles). */
static float sb_v[8][3];
static int sb_i[36];
static dTriMeshDataID small_box(void) {
  static const int I[36] = {0,2,1,0,3,2, 4,5,6,4,6,7, 0,1,5,0,5,4, 1,2,6,1,6,5, 2,3,7,2,7,6, 3,0,4,3,4,7};
  const float h[3] = {0.3f, 0.2f, 0.25f};
  for (int i = 0; i < 8; i++) {
    sb_v[i][0] = (i == 1 || i == 2 || i == 5 || i == 6) ? h[0] : -h[0];
    sb_v[i][1] = (i == 2 || i == 3 || i == 6 || i == 7) ? h[1] : -h[1];
    sb_v[i][2] = i >= 4 ? h[2] : -h[2];
  }
  memcpy(sb_i, I, sizeof I);
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(d, sb_v, 3 * sizeof(float), 8, sb_i, 36, 3 * sizeof(int));
  return d;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 100;
  int do_cyl = 0, do_cvx = 0, do_mesh = 0;
  for (int a = 2; a < argc; a++) {
    if (!strcmp(argv[a], "cyl")) do_cyl = 1;
    if (!strcmp(argv[a], "convex")) do_cvx = 1;
    if (!strcmp(argv[a], "mesh")) do_mesh = 1;
  }
  dInitODE();
  dTriMeshDataID data[4] = {tm_cube(1.0f), tm_icosphere(), tm_terrain(), tm_bowl()};
  const char *names[4] = {"cube", "ico", "terrain", "bowl"};
  const double ext[4][3] = {{1.5, 1.5, 1.5}, {1.4, 1.4, 1.4}, {5, 5, 0.6}, {1.8, 1.8, 1.6}};
  dGeomID mesh[4];
  for (int m = 0; m < 4; m++) mesh[m] = dCreateTriMesh(0, data[m], 0, 0, 0);
  dTriMeshDataID sbd = small_box();
  dGeomID other_mesh = dCreateTriMesh(0, sbd, 0, 0, 0);
  /* Convex: a box 0.8 x 0.6 x 0.5 as planes, points and polygons. */
  static dReal planes[] = {1,0,0,0.4, -1,0,0,0.4, 0,1,0,0.3, 0,-1,0,0.3, 0,0,1,0.25, 0,0,-1,0.25};
  static dReal pts[] = {-.4,-.3,-.25, .4,-.3,-.25, .4,.3,-.25, -.4,.3,-.25, -.4,-.3,.25, .4,-.3,.25, .4,.3,.25, -.4,.3,.25};
  static unsigned int pol[] = {4,1,2,6,5, 4,0,4,7,3, 4,3,7,6,2, 4,0,1,5,4, 4,4,5,6,7, 4,0,3,2,1};
  dContactGeom c[64];
  for (int i = 0; i < N; i++) {
    for (int m = 0; m < 4; m++) {
      dGeomID g = mesh[m];
      dMatrix3 R;
      double mp[3] = {0, 0, 0};
      dRSetIdentity(R);
      if (i % 3 == 2 && m != 2) { rrot(R); mp[0] = rr(-1, 1); mp[1] = rr(-1, 1); mp[2] = rr(-1, 1); }
      dGeomSetPosition(g, mp[0], mp[1], mp[2]);
      dGeomSetRotation(g, R);
      const double *MR = dGeomGetRotation(g);
      double p[3];
      for (int k = 0; k < 3; k++) p[k] = rr(-ext[m][k], ext[m][k]);
      if (m == 2) p[2] += tm_height(p[0], p[1]);
      if (m == 3) p[2] += 0.4 * (p[0] * p[0] + p[1] * p[1]) * 0.6;
      double wp[3];
      for (int k = 0; k < 3; k++) wp[k] = mp[k] + MR[4 * k] * p[0] + MR[4 * k + 1] * p[1] + MR[4 * k + 2] * p[2];
      printf("mesh %s %d pos %.17g %.17g %.17g R", names[m], i, mp[0], mp[1], mp[2]);
      for (int k = 0; k < 12; k++) printf(" %.17g", MR[k]);
      printf("\n");
      dMatrix3 OR;
      rrot(OR);
      double cr = rr(0.1, 0.6), cl = rr(0.2, 1.4);
      if (do_cyl) {
        dGeomID cy = dCreateCylinder(0, cr, cl);
        dGeomSetPosition(cy, wp[0], wp[1], wp[2]);
        dGeomSetRotation(cy, OR);
        printf("case cylinder %.17g %.17g %.17g %.17g %.17g", wp[0], wp[1], wp[2], cr, cl);
        for (int k = 0; k < 12; k++) printf(" %.17g", OR[k]);
        printf("\n");
        dump(dCollide(g, cy, 64, c, sizeof(dContactGeom)), c);
        dGeomDestroy(cy);
      }
      if (do_cvx) {
        dGeomID cv = dCreateConvex(0, planes, 6, pts, 8, pol);
        dGeomSetPosition(cv, wp[0], wp[1], wp[2]);
        dGeomSetRotation(cv, OR);
        printf("case convex %.17g %.17g %.17g 0.8 0.6 0.5", wp[0], wp[1], wp[2]);
        for (int k = 0; k < 12; k++) printf(" %.17g", OR[k]);
        printf("\n");
        dump(dCollide(g, cv, 64, c, sizeof(dContactGeom)), c);
        dGeomDestroy(cv);
      }
      if (do_mesh) {
        dGeomSetPosition(other_mesh, wp[0], wp[1], wp[2]);
        dGeomSetRotation(other_mesh, OR);
        printf("case mesh %.17g %.17g %.17g 0.6 0.4 0.5", wp[0], wp[1], wp[2]);
        for (int k = 0; k < 12; k++) printf(" %.17g", OR[k]);
        printf("\n");
        dump(dCollide(g, other_mesh, 64, c, sizeof(dContactGeom)), c);
      }
    }
  }
  printf("done\n");
  return 0;
}
