/* Box and capsule against trimeshes, beyond ref_trimesh_collide_primitives.c: meshes
 * with use flags (dGeomTriMeshDataPreprocess2), contact limits (64, 4 and
 * 1 | CONTACTS_UNIMPORTANT), boxes resting flat on the terrain (zero-depth
 * contacts) and capsules lying along it. Prints each case and the
 * contacts of dCollide(mesh, other) for each limit; run with Debian's
 * library and ours, compared by tests/trimesh_collide_box_capsule.rs. */
#include <stdio.h>
#include <stdlib.h>
#include "tmesh_meshes.h"

static unsigned long long lcg = 0x9E3779B97F4A7C15ULL;
static double rnd(void) { lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL; return (double)(lcg >> 11) / 9007199254740992.0; }
static double rr(double a, double b) { return a + (b - a) * rnd(); }

static void run(dGeomID mesh, dGeomID o) {
  static const int lim[3] = {64, 4, 1 | CONTACTS_UNIMPORTANT};
  dContactGeom c[64];
  for (int l = 0; l < 3; l++) {
    int n = dCollide(mesh, o, lim[l], c, sizeof(dContactGeom));
    printf("n %d %d\n", l, n);
    for (int i = 0; i < n; i++)
      printf("c %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %d\n", c[i].pos[0], c[i].pos[1], c[i].pos[2],
             c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth, c[i].side1, c[i].side2);
  }
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 100;
  dInitODE();
  dTriMeshDataID data[4] = {tm_cube(1.0f), tm_icosphere(), tm_terrain(), tm_bowl()};
  dGeomID mesh[4];
  for (int m = 0; m < 4; m++) {
    if (m != 2) dGeomTriMeshDataPreprocess2(data[m], 1u << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES, NULL);
    mesh[m] = dCreateTriMesh(0, data[m], 0, 0, 0);
  }
  const double ext[4][3] = {{1.5, 1.5, 1.5}, {1.4, 1.4, 1.4}, {5, 5, 0.6}, {1.8, 1.8, 1.6}};
  for (int i = 0; i < N; i++) {
    for (int m = 0; m < 4; m++) {
      double p[3];
      for (int k = 0; k < 3; k++) p[k] = rr(-ext[m][k], ext[m][k]);
      if (m == 2) p[2] += tm_height(p[0], p[1]);
      if (m == 3) p[2] += 0.24 * (p[0] * p[0] + p[1] * p[1]);
      dMatrix3 R;
      dRFromAxisAndAngle(R, rr(-1, 1), rr(-1, 1), rr(-1, 1) + 1e-3, rr(-3.14, 3.14));
      double bl[3] = {rr(0.2, 1.2), rr(0.2, 1.2), rr(0.2, 1.2)};
      dGeomID b = dCreateBox(0, bl[0], bl[1], bl[2]);
      dGeomSetPosition(b, p[0], p[1], p[2]);
      dGeomSetRotation(b, R);
      printf("case %d box %.17g %.17g %.17g\n", m, p[0], p[1], p[2]);
      run(mesh[m], b);
      dGeomDestroy(b);
      double cr = rr(0.1, 0.5), cl = rr(0.2, 1.5);
      dGeomID cp = dCreateCapsule(0, cr, cl);
      dGeomSetPosition(cp, p[0], p[1], p[2]);
      dGeomSetRotation(cp, R);
      printf("case %d capsule %.17g %.17g %.17g\n", m, p[0], p[1], p[2]);
      run(mesh[m], cp);
      dGeomDestroy(cp);
    }
    /* Resting on the terrain: a box flat on the ground, a capsule lying on
     * it, sunk by a small amount. */
    double x = rr(-4, 4), y = rr(-4, 4), sink = rr(0, 0.02), yaw = rr(-3.14, 3.14);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, yaw);
    dGeomID b = dCreateBox(0, 0.5, 0.4, 0.3);
    dGeomSetPosition(b, x, y, tm_height(x, y) + 0.15 - sink);
    dGeomSetRotation(b, R);
    printf("case 2 restbox %.17g %.17g\n", x, y);
    run(mesh[2], b);
    dGeomDestroy(b);
    dMatrix3 Q;
    dRFromEulerAngles(Q, 1.5707963267948966, 0, yaw);
    dGeomID cp = dCreateCapsule(0, 0.2, 0.8);
    dGeomSetPosition(cp, x, y, tm_height(x, y) + 0.2 - sink);
    dGeomSetRotation(cp, Q);
    printf("case 2 restcapsule %.17g %.17g\n", x, y);
    run(mesh[2], cp);
    dGeomDestroy(cp);
  }
  printf("done\n");
  return 0;
}
