/* Convex (a box-shaped dCreateConvex) against trimeshes preprocessed with
 * face angles: one triangle, a flat two-triangle quad, the cube, the
 * icosphere, the terrain and the bowl of tmesh_meshes.h, at random
 * placements (Debian's OPCODE query crashes on the one-triangle mesh, so
 * it only runs when asked: second argument 0). dGeomGetAABB refreshes the convex's box first (dCollide uses
 * the stored one). Prints the contacts of dCollide(convex, mesh) for limits
 * 64, 4 and 1 | CONTACTS_UNIMPORTANT and of dCollide(mesh, convex) for 64;
 * run with Debian's library and ours, compared by tests/trimesh_collide_convex.rs. */
#include <stdio.h>
#include <stdlib.h>
#include "tmesh_meshes.h"
#include "convex_box.h"

static unsigned long long lcg = 0x2545F4914F6CDD1DULL;
static double rnd(void) { lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL; return (double)(lcg >> 11) / 9007199254740992.0; }
static double rr(double a, double b) { return a + (b - a) * rnd(); }

static double one_v[3][3] = {{-1.5, -1, 0}, {1.5, -1.2, 0.1}, {0.2, 1.4, -0.1}};
static int one_i[3] = {0, 1, 2};
static double quad_v[4][3] = {{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}, {-2, 2, 0}};
static int quad_i[6] = {0, 1, 2, 0, 2, 3};

static void print(int tag, int n, dContactGeom *c) {
  printf("n %d %d\n", tag, n);
  for (int i = 0; i < n; i++)
    printf("c %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %d\n", c[i].pos[0], c[i].pos[1], c[i].pos[2],
           c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth, c[i].side1, c[i].side2);
}

static void run(dGeomID cv, dGeomID mesh) {
  static const int lim[3] = {64, 4, 1 | CONTACTS_UNIMPORTANT};
  dContactGeom c[64];
  dReal aabb[6];
  dGeomGetAABB(cv, aabb);
  for (int l = 0; l < 3; l++) print(l, dCollide(cv, mesh, lim[l], c, sizeof(dContactGeom)), c);
  print(3, dCollide(mesh, cv, 64, c, sizeof(dContactGeom)), c);
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 60;
  dInitODE();
  enum { NM = 6 };
  dTriMeshDataID data[NM] = {dGeomTriMeshDataCreate(), dGeomTriMeshDataCreate(), tm_cube(1.0f), tm_icosphere(), tm_terrain(), tm_bowl()};
  dGeomTriMeshDataBuildDouble(data[0], one_v, 3 * sizeof(double), 3, one_i, 3, 3 * sizeof(int));
  dGeomTriMeshDataBuildDouble(data[1], quad_v, 3 * sizeof(double), 4, quad_i, 6, 3 * sizeof(int));
  dGeomID mesh[NM];
  for (int m = 0; m < NM; m++) {
    dGeomTriMeshDataPreprocess2(data[m], (1u << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES) | (1u << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES), NULL);
    mesh[m] = dCreateTriMesh(0, data[m], 0, 0, 0);
  }
  const double ext[NM][3] = {{1.2, 1.2, 0.4}, {2, 2, 0.4}, {1.5, 1.5, 1.5}, {1.4, 1.4, 1.4}, {5, 5, 0.5}, {1.8, 1.8, 1.6}};
  int m0 = argc > 2 ? atoi(argv[2]) : 1;
  for (int i = 0; i < N; i++) {
    for (int m = m0; m < NM; m++) {
      double p[3];
      for (int k = 0; k < 3; k++) p[k] = rr(-ext[m][k], ext[m][k]);
      if (m == 4) p[2] += tm_height(p[0], p[1]);
      if (m == 5) p[2] += 0.4 * (p[0] * p[0] + p[1] * p[1]);
      dMatrix3 R;
      dRFromAxisAndAngle(R, rr(-1, 1), rr(-1, 1), rr(-1, 1) + 1e-3, rr(-3.14, 3.14));
      dGeomID cv = convex_box(rr(0.1, 0.5), rr(0.1, 0.5), rr(0.1, 0.5));
      dGeomSetPosition(cv, p[0], p[1], p[2]);
      dGeomSetRotation(cv, R);
      printf("case %d %d %.17g %.17g %.17g\n", m, i, p[0], p[1], p[2]);
      run(cv, mesh[m]);
      dGeomDestroy(cv);
    }
  }
  printf("done\n");
  return 0;
}
