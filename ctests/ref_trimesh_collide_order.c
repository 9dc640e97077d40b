/* Trimesh contacts in ODE's order: every pair with a trimesh (sphere, box,
 * capsule, cylinder, ray, plane, convex, trimesh) at random placements on
 * several meshes, printing the candidate list OPCODE hands the collider
 * (through the array callback) and every contact with full precision, in
 * the order dCollide returns them. A sphere holding the whole mesh prints
 * the tree's leaf order first. Run with Debian's library and ours;
 * tests/trimesh_collide_order.rs compares them line by line.
 * argv: rounds (default 40), contact limit (default 64). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tmesh_meshes.h"
#include "convex_box.h"

static unsigned long long lcg = 0x5DEECE66DULL;
static double rnd(void) { lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL; return (double)(lcg >> 11) / 9007199254740992.0; }
static double rr(double a, double b) { return a + (b - a) * rnd(); }
static void rrot(dMatrix3 R) { dRFromAxisAndAngle(R, rr(-1, 1), rr(-1, 1), rr(-1, 1) + 1e-3, rr(-3.14, 3.14)); }

static void dump(int n, dContactGeom *c) {
  printf("n %d\n", n);
  for (int i = 0; i < n; i++)
    printf("c %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %d\n", c[i].pos[0], c[i].pos[1], c[i].pos[2],
           c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth, c[i].side1, c[i].side2);
}

static void cands(dGeomID mesh, dGeomID other, const int *tris, int n) {
  (void)mesh; (void)other;
  printf("cand %d", n);
  for (int i = 0; i < n; i++) printf(" %d", tris[i]);
  printf("\n");
}

/* A rock: the icosphere subdivided once more with its vertices pushed in
 * and out (320 triangles, floats). */
static float rock_v[200][3];
static int rock_i[320 * 3];
static dTriMeshDataID tm_rock(void) {
  int nv = 0;
  for (int i = 0; i < ico_nv; i++, nv++)
    for (int k = 0; k < 3; k++) rock_v[nv][k] = (float)ico_v[i][k];
  int n = 0;
  for (int f = 0; f < 80; f++) {
    int v[3] = {ico_i[3 * f], ico_i[3 * f + 1], ico_i[3 * f + 2]};
    int m[3];
    for (int e = 0; e < 3; e++) {
      int a = v[e], b = v[(e + 1) % 3];
      float p[3];
      for (int k = 0; k < 3; k++) p[k] = 0.5f * (rock_v[a][k] + rock_v[b][k]);
      int found = -1;
      for (int i = 0; i < nv; i++)
        if (rock_v[i][0] == p[0] && rock_v[i][1] == p[1] && rock_v[i][2] == p[2]) found = i;
      if (found < 0) {
        for (int k = 0; k < 3; k++) rock_v[nv][k] = p[k];
        found = nv++;
      }
      m[e] = found;
    }
    int T[4][3] = {{v[0], m[0], m[2]}, {v[1], m[1], m[0]}, {v[2], m[2], m[1]}, {m[0], m[1], m[2]}};
    for (int k = 0; k < 4; k++)
      for (int j = 0; j < 3; j++) rock_i[n++] = T[k][j];
  }
  for (int i = 0; i < nv; i++) {
    double l = sqrt(rock_v[i][0] * rock_v[i][0] + rock_v[i][1] * rock_v[i][1] + rock_v[i][2] * rock_v[i][2]);
    double s = (0.85 + 0.3 * rnd()) / l;
    for (int k = 0; k < 3; k++) rock_v[i][k] = (float)(rock_v[i][k] * s);
  }
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(d, rock_v, 3 * sizeof(float), nv, rock_i, n, 3 * sizeof(int));
  return d;
}

/* A larger terrain: 32 x 32 cells (2048 triangles), doubles, noisy. */
#define BG 32
static double big_v[(BG + 1) * (BG + 1)][3];
static int big_i[BG * BG * 6];
static double big_h(double x, double y) { return 0.5 * sin(0.5 * x) * cos(0.4 * y) + 0.02 * x * y / BG; }
static dTriMeshDataID tm_big(void) {
  for (int j = 0; j <= BG; j++)
    for (int i = 0; i <= BG; i++) {
      double *v = big_v[j * (BG + 1) + i];
      v[0] = 0.5 * (i - BG / 2) + 0.1 * (rnd() - 0.5);
      v[1] = 0.5 * (j - BG / 2) + 0.1 * (rnd() - 0.5);
      v[2] = big_h(v[0], v[1]) + 0.05 * rnd();
    }
  int n = 0;
  for (int j = 0; j < BG; j++)
    for (int i = 0; i < BG; i++) {
      int a = j * (BG + 1) + i, b = a + 1, c = a + BG + 1, d = c + 1;
      int T[6] = {a, b, d, a, d, c};
      for (int k = 0; k < 6; k++) big_i[n++] = T[k];
    }
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildDouble(d, big_v, 3 * sizeof(double), (BG + 1) * (BG + 1), big_i, n, 3 * sizeof(int));
  return d;
}

static double one_v[3][3] = {{-1.5, -1, 0}, {1.5, -1.2, 0.1}, {0.2, 1.4, -0.1}};
static int one_i[3] = {0, 1, 2};

enum { NM = 8 };
static const char *names[NM] = {"cube", "ico", "terrain", "bowl", "rock", "big", "flags", "one"};
/* Half sizes of the region where the other geom is placed. */
static const double ext[NM][3] = {{1.5, 1.5, 1.5}, {1.4, 1.4, 1.4}, {5, 5, 0.6}, {1.8, 1.8, 1.6}, {1.3, 1.3, 1.3}, {7, 7, 0.7}, {5, 5, 0.6}, {1.2, 1.2, 0.4}};
static double surface(int m, double x, double y) {
  if (m == 2 || m == 6) return tm_height(x, y);
  if (m == 3) return 0.4 * (x * x + y * y) * 0.6;
  if (m == 5) return big_h(x, y);
  return 0;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 40;
  int lim = argc > 2 ? atoi(argv[2]) : 64;
  dInitODE();
  dTriMeshDataID data[NM];
  /* One at a time: the rock reads the icosphere, and both it and the big
     terrain draw from the generator. */
  data[0] = tm_cube(1.0f);
  data[1] = tm_icosphere();
  data[2] = tm_terrain();
  data[3] = tm_bowl();
  data[4] = tm_rock();
  data[5] = tm_big();
  data[7] = dGeomTriMeshDataCreate();
  /* The terrain again with use flags (concave edges and vertices dropped). */
  data[6] = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(data[6], ter_v, sizeof(struct tvert), (TM_G + 1) * (TM_G + 1), ter_t, TM_G * TM_G * 6, sizeof(struct ttri));
  dGeomTriMeshDataPreprocess2(data[6], 1u << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES, NULL);
  dGeomTriMeshDataBuildDouble(data[7], one_v, 3 * sizeof(double), 3, one_i, 3, 3 * sizeof(int));
  for (int m = 0; m < NM; m++)
    if (m != 6) dGeomTriMeshDataPreprocess2(data[m], 1u << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, NULL);
  dGeomID mesh[NM];
  for (int m = 0; m < NM; m++) mesh[m] = dCreateTriMesh(0, data[m], 0, cands, 0);
  /* A second mesh geom for mesh-mesh cases (the rock's data). */
  dGeomID other = dCreateTriMesh(0, data[4], 0, 0, 0);
  dContactGeom c[256];
  if (lim > 256) lim = 256;

  /* Leaf order: a sphere holding each whole mesh. */
  for (int m = 0; m < NM; m++) {
    dGeomSetPosition(mesh[m], 0, 0, 0);
    dGeomID s = dCreateSphere(0, 100);
    printf("leaves %s\n", names[m]);
    dCollide(mesh[m], s, 1, c, sizeof(dContactGeom));
    dGeomDestroy(s);
  }

  for (int i = 0; i < N; i++) {
    for (int m = 0; m < NM; m++) {
      dGeomID g = mesh[m];
      dMatrix3 R;
      double mp[3] = {0, 0, 0};
      dRSetIdentity(R);
      if (i % 3 == 2 && m != 2 && m != 6) { rrot(R); mp[0] = rr(-1, 1); mp[1] = rr(-1, 1); mp[2] = rr(-1, 1); }
      dGeomSetPosition(g, mp[0], mp[1], mp[2]);
      dGeomSetRotation(g, R);
      const double *MR = dGeomGetRotation(g);
      double p[3];
      for (int k = 0; k < 3; k++) p[k] = rr(-ext[m][k], ext[m][k]);
      p[2] += surface(m, p[0], p[1]);
      double wp[3];
      for (int k = 0; k < 3; k++) wp[k] = mp[k] + MR[4 * k] * p[0] + MR[4 * k + 1] * p[1] + MR[4 * k + 2] * p[2];
      printf("mesh %s %d\n", names[m], i);
      dMatrix3 OR;
      rrot(OR);
      double big = (m == 5) ? 2.0 : 1.0;

      double r = rr(0.1, 0.8) * big;
      dGeomID s = dCreateSphere(0, r);
      dGeomSetPosition(s, wp[0], wp[1], wp[2]);
      printf("case sphere %.17g %.17g %.17g %.17g\n", wp[0], wp[1], wp[2], r);
      dump(dCollide(g, s, lim, c, sizeof(dContactGeom)), c);
      dGeomDestroy(s);

      dGeomID b = dCreateBox(0, rr(0.2, 1.2) * big, rr(0.2, 1.2) * big, rr(0.2, 1.2) * big);
      dGeomSetPosition(b, wp[0], wp[1], wp[2]);
      dGeomSetRotation(b, OR);
      printf("case box\n");
      dump(dCollide(g, b, lim, c, sizeof(dContactGeom)), c);
      dGeomDestroy(b);

      dGeomID cp = dCreateCapsule(0, rr(0.1, 0.5) * big, rr(0.2, 1.5) * big);
      dGeomSetPosition(cp, wp[0], wp[1], wp[2]);
      dGeomSetRotation(cp, OR);
      printf("case capsule\n");
      dump(dCollide(g, cp, lim, c, sizeof(dContactGeom)), c);
      dGeomDestroy(cp);

      dGeomID cy = dCreateCylinder(0, rr(0.1, 0.6) * big, rr(0.2, 1.5) * big);
      dGeomSetPosition(cy, wp[0], wp[1], wp[2]);
      dGeomSetRotation(cy, OR);
      printf("case cylinder\n");
      dump(dCollide(g, cy, lim, c, sizeof(dContactGeom)), c);
      dGeomDestroy(cy);

      double dir[3] = {rr(-1, 1), rr(-1, 1), rr(-1, 1)};
      double dl = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
      for (int k = 0; k < 3; k++) dir[k] /= dl;
      double o[3] = {wp[0] - 3 * dir[0], wp[1] - 3 * dir[1], wp[2] - 3 * dir[2]};
      dGeomID ray = dCreateRay(0, 6);
      dGeomRaySet(ray, o[0], o[1], o[2], dir[0], dir[1], dir[2]);
      int flags = i % 6; /* 0 all, 1 closest, 2 cull, 3 cull + closest, 4 first, 5 first + cull */
      dGeomRaySetClosestHit(ray, flags == 1 || flags == 3);
      dGeomRaySetBackfaceCull(ray, flags == 2 || flags == 3 || flags == 5);
      dGeomRaySetFirstContact(ray, flags >= 4);
      printf("case ray %d\n", flags);
      dump(dCollide(g, ray, lim, c, sizeof(dContactGeom)), c);
      dGeomDestroy(ray);

      double pn[3] = {rr(-0.5, 0.5), rr(-0.5, 0.5), 1};
      double pl = sqrt(pn[0] * pn[0] + pn[1] * pn[1] + pn[2] * pn[2]);
      for (int k = 0; k < 3; k++) pn[k] /= pl;
      dGeomID pg = dCreatePlane(0, pn[0], pn[1], pn[2], pn[0] * wp[0] + pn[1] * wp[1] + pn[2] * wp[2]);
      printf("case plane\n");
      dump(dCollide(g, pg, lim, c, sizeof(dContactGeom)), c);
      dGeomDestroy(pg);

      if (m != 6 && m != 7) {
        /* Debian's convex query crashes on a one-triangle mesh; the
           flagged terrain has no face angles. */
        dGeomID cv = convex_box(rr(0.1, 0.5) * big, rr(0.1, 0.5) * big, rr(0.1, 0.5) * big);
        dGeomSetPosition(cv, wp[0], wp[1], wp[2]);
        dGeomSetRotation(cv, OR);
        dReal aabb[6];
        dGeomGetAABB(cv, aabb);
        printf("case convex\n");
        dump(dCollide(cv, g, lim, c, sizeof(dContactGeom)), c);
        printf("case convex2\n");
        dump(dCollide(g, cv, lim, c, sizeof(dContactGeom)), c);
        dGeomDestroy(cv);
      }

      {
        /* The rock (a second geom) against this mesh, both ways (Debian's
           tree collider gives nothing for the one-triangle mesh). */
        dGeomSetPosition(other, wp[0], wp[1], wp[2]);
        dGeomSetRotation(other, OR);
        printf("case mesh\n");
        dump(dCollide(g, other, lim, c, sizeof(dContactGeom)), c);
        printf("case mesh2\n");
        dump(dCollide(other, g, lim, c, sizeof(dContactGeom)), c);
      }
    }
  }
  printf("done\n");
  return 0;
}
