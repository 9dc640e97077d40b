/* Trimesh pairs on random placements: prints each case (mesh, pose, other
 * geom) and the contacts of dCollide(mesh, other), max 64. Run with
 * Debian's library and ours; tests/trimesh_collide_primitives.rs compares what OPCODE's
 * contact choice lets us compare. Placements come from a private LCG, so
 * both runs see the same cases. */
#include <stdio.h>
#include <stdlib.h>
#include "tmesh_meshes.h"

static unsigned long long lcg = 88172645463325252ULL;
static double rnd(void) { lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL; return (double)(lcg >> 11) / 9007199254740992.0; }
static double rr(double a, double b) { return a + (b - a) * rnd(); }
static void rrot(dMatrix3 R) {
  dRFromAxisAndAngle(R, rr(-1, 1), rr(-1, 1), rr(-1, 1) + 1e-3, rr(-3.14, 3.14));
}

static void dump(int n, dContactGeom *c) {
  printf("n %d\n", n);
  for (int i = 0; i < n; i++)
    printf("c %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %d\n", c[i].pos[0], c[i].pos[1], c[i].pos[2],
           c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth, c[i].side1, c[i].side2);
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 300;
  dInitODE();
  dTriMeshDataID data[4] = {tm_cube(1.0f), tm_icosphere(), tm_terrain(), tm_bowl()};
  const char *names[4] = {"cube", "ico", "terrain", "bowl"};
  /* Half sizes of the region where the other geom is placed. */
  const double ext[4][3] = {{1.5, 1.5, 1.5}, {1.4, 1.4, 1.4}, {5, 5, 0.6}, {1.8, 1.8, 1.6}};
  dGeomID mesh[4];
  for (int m = 0; m < 4; m++) mesh[m] = dCreateTriMesh(0, data[m], 0, 0, 0);
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
      /* sphere */
      double r = rr(0.1, 0.8);
      dGeomID s = dCreateSphere(0, r);
      dGeomSetPosition(s, wp[0], wp[1], wp[2]);
      printf("case sphere %.17g %.17g %.17g %.17g\n", wp[0], wp[1], wp[2], r);
      dump(dCollide(g, s, 64, c, sizeof(dContactGeom)), c);
      dGeomDestroy(s);
      /* box */
      double bl[3] = {rr(0.2, 1.2), rr(0.2, 1.2), rr(0.2, 1.2)};
      dGeomID b = dCreateBox(0, bl[0], bl[1], bl[2]);
      dGeomSetPosition(b, wp[0], wp[1], wp[2]);
      dGeomSetRotation(b, OR);
      printf("case box %.17g %.17g %.17g %.17g %.17g %.17g", wp[0], wp[1], wp[2], bl[0], bl[1], bl[2]);
      for (int k = 0; k < 12; k++) printf(" %.17g", OR[k]);
      printf("\n");
      dump(dCollide(g, b, 64, c, sizeof(dContactGeom)), c);
      dGeomDestroy(b);
      /* capsule */
      double cr = rr(0.1, 0.5), cl = rr(0.2, 1.5);
      dGeomID cp = dCreateCapsule(0, cr, cl);
      dGeomSetPosition(cp, wp[0], wp[1], wp[2]);
      dGeomSetRotation(cp, OR);
      printf("case capsule %.17g %.17g %.17g %.17g %.17g", wp[0], wp[1], wp[2], cr, cl);
      for (int k = 0; k < 12; k++) printf(" %.17g", OR[k]);
      printf("\n");
      dump(dCollide(g, cp, 64, c, sizeof(dContactGeom)), c);
      dGeomDestroy(cp);
      /* ray from outside through the region */
      double dir[3] = {rr(-1, 1), rr(-1, 1), rr(-1, 1)};
      double dl = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
      for (int k = 0; k < 3; k++) dir[k] /= dl;
      double o[3] = {wp[0] - 3 * dir[0], wp[1] - 3 * dir[1], wp[2] - 3 * dir[2]};
      dGeomID ray = dCreateRay(0, 6);
      dGeomRaySet(ray, o[0], o[1], o[2], dir[0], dir[1], dir[2]);
      int flags = i % 4; /* 0 all, 1 closest, 2 cull, 3 cull + closest */
      dGeomRaySetClosestHit(ray, flags & 1);
      dGeomRaySetBackfaceCull(ray, (flags >> 1) & 1);
      printf("case ray %.17g %.17g %.17g %.17g %.17g %.17g %d\n", o[0], o[1], o[2], dir[0], dir[1], dir[2], flags);
      dump(dCollide(g, ray, 64, c, sizeof(dContactGeom)), c);
      dGeomDestroy(ray);
      /* plane through the region */
      double pn[3] = {rr(-0.5, 0.5), rr(-0.5, 0.5), 1};
      double pl = sqrt(pn[0] * pn[0] + pn[1] * pn[1] + pn[2] * pn[2]);
      for (int k = 0; k < 3; k++) pn[k] /= pl;
      double pd = pn[0] * wp[0] + pn[1] * wp[1] + pn[2] * wp[2];
      dGeomID pg = dCreatePlane(0, pn[0], pn[1], pn[2], pd);
      dVector4 pp;
      dGeomPlaneGetParams(pg, pp);
      printf("case plane %.17g %.17g %.17g %.17g\n", pp[0], pp[1], pp[2], pp[3]);
      dump(dCollide(g, pg, 64, c, sizeof(dContactGeom)), c);
      dGeomDestroy(pg);
    }
  }
  printf("done\n");
  return 0;
}
