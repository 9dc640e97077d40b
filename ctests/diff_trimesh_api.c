/* DIFF-TOL rel=1e-9 abs=1e-6 */
/* Differential test of collision_trimesh.h's API and dMassSetTrimesh:
 * data objects of every Build variant (strided, single/double/simple),
 * triangle and point queries on moved meshes, counts, data get/set and
 * sizes, preprocessing, last transform, temporal-coherence switches,
 * callbacks (set/get, and their effect on dCollide), dMassSetTrimesh of a
 * closed cube against dMassSetBox. abs=1e-6 covers OPCODE's
 * single-precision ray barycentrics. */
#include <stdio.h>
#include <stdlib.h>
#include "tmesh_meshes.h"

static int cb_calls, acb_calls, acb_total, rcb_calls;
static int reject_odd(dGeomID m, dGeomID o, int t) { (void)m; (void)o; cb_calls++; return t % 2 == 0; }
static void array_cb(dGeomID m, dGeomID o, const int *t, int n) { (void)m; (void)o; (void)t; acb_calls++; acb_total += n; }
static int ray_cb(dGeomID m, dGeomID r, int t, dReal u, dReal v) {
  (void)m; (void)r;
  rcb_calls++;
  printf("raycb tri %d u %.9f v %.9f\n", t, u, v);
  return 1;
}
static int merge_cb(dGeomID m, int a, int b) { (void)m; return a < b ? a : b; }

static void tri(dGeomID g, int i) {
  dVector3 a, b, c;
  dGeomTriMeshGetTriangle(g, i, &a, &b, &c);
  printf("tri %d %.17g %.17g %.17g | %.17g %.17g %.17g | %.17g %.17g %.17g\n", i, a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
  dVector3 p;
  dGeomTriMeshGetPoint(g, i, 0.25, 0.5, p);
  printf("point %.17g %.17g %.17g\n", p[0], p[1], p[2]);
}

static void mass(const char *t, const dMass *m) {
  printf("%s %.12g c %.12g %.12g %.12g I", t, m->mass, m->c[0], m->c[1], m->c[2]);
  for (int i = 0; i < 12; i++) if (i % 4 != 3) printf(" %.12g", m->I[i]);
  printf("\n");
}

int main(void) {
  dInitODE();
  dTriMeshDataID d[4] = {tm_cube(1.0f), tm_icosphere(), tm_terrain(), tm_bowl()};
  /* BuildSimple: dVector3 vertices and packed dTriIndex triangles. */
  dTriMeshDataID ds = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSimple(ds, (const dReal *)ico_v, ico_nv, (const dTriIndex *)ico_i, 240);
  dGeomID g[5];
  for (int i = 0; i < 4; i++) g[i] = dCreateTriMesh(0, d[i], 0, 0, 0);
  g[4] = dCreateTriMesh(0, ds, 0, 0, 0);
  for (int i = 0; i < 5; i++) {
    printf("mesh %d count %d class %d data %d %d\n", i, dGeomTriMeshGetTriangleCount(g[i]), dGeomGetClass(g[i]),
           dGeomTriMeshGetData(g[i]) == (i < 4 ? d[i] : ds), dGeomTriMeshGetTriMeshDataID(g[i]) == (i < 4 ? d[i] : ds));
    dReal aabb[6];
    dGeomGetAABB(g[i], aabb);
    printf("aabb %.9g %.9g %.9g %.9g %.9g %.9g\n", aabb[0], aabb[1], aabb[2], aabb[3], aabb[4], aabb[5]);
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0.3, -0.5, 1, 0.7 + i);
    dGeomSetPosition(g[i], 0.5 * i, -1, 2);
    dGeomSetRotation(g[i], R);
    int n = dGeomTriMeshGetTriangleCount(g[i]);
    tri(g[i], 0);
    tri(g[i], n / 2);
    tri(g[i], n - 1);
    dGeomSetPosition(g[i], 0, 0, 0);
    dRSetIdentity(R);
    dGeomSetRotation(g[i], R);
  }

  /* Data get/set: normals pointer and sizes, use flags before and after Preprocess. */
  static dReal normals[12 * 3];
  dsizeint sz = 0;
  void *p = dGeomTriMeshDataGet2(d[0], dTRIMESHDATA_FACE_NORMALS, &sz);
  printf("normals %d size %d\n", p == NULL, (int)sz);
  p = dGeomTriMeshDataGet2(d[0], dTRIMESHDATA_USE_FLAGS, &sz);
  printf("flags %d size %d\n", p == NULL, (int)sz);
  printf("preprocess %d\n", dGeomTriMeshDataPreprocess(d[0]));
  p = dGeomTriMeshDataGet2(d[0], dTRIMESHDATA_USE_FLAGS, &sz);
  printf("flags %d size %d\n", p != NULL, (int)sz);
  printf("preprocess2 %d\n", dGeomTriMeshDataPreprocess2(d[2], (1U << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES) | (1U << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES), NULL));
  p = dGeomTriMeshDataGet2(d[2], dTRIMESHDATA_USE_FLAGS, &sz);
  printf("flags %d size %d\n", p != NULL, (int)sz);

  /* Normals given after preprocessing (ODE would check them). */
  dGeomTriMeshDataSet(d[0], dTRIMESHDATA_FACE_NORMALS, normals);
  printf("normals set %d\n", dGeomTriMeshDataGet2(d[0], dTRIMESHDATA_FACE_NORMALS, NULL) == (void *)normals);

  /* Last transform. */
  const dReal *lt = dGeomTriMeshGetLastTransform(g[0]);
  printf("last");
  for (int i = 0; i < 16; i++) printf(" %g", lt[i]);
  printf("\n");
  dMatrix4 m4;
  for (int i = 0; i < 16; i++) m4[i] = i * 0.5 - 3;
  dGeomTriMeshSetLastTransform(g[0], m4);
  lt = dGeomTriMeshGetLastTransform(g[0]);
  printf("last");
  for (int i = 0; i < 16; i++) printf(" %g", lt[i]);
  printf("\n");

  /* Temporal coherence switches. */
  for (int c = 0; c < 10; c++) printf("%d", dGeomTriMeshIsTCEnabled(g[1], c));
  printf("\n");
  dGeomTriMeshEnableTC(g[1], dSphereClass, 1);
  dGeomTriMeshEnableTC(g[1], dBoxClass, 1);
  dGeomTriMeshEnableTC(g[1], dCylinderClass, 1);
  for (int c = 0; c < 10; c++) printf("%d", dGeomTriMeshIsTCEnabled(g[1], c));
  printf("\n");
  dGeomTriMeshEnableTC(g[1], dBoxClass, 0);
  dGeomTriMeshClearTCCache(g[1]);
  for (int c = 0; c < 10; c++) printf("%d", dGeomTriMeshIsTCEnabled(g[1], c));
  printf("\n");

  /* Callbacks: getters, and their effect. */
  printf("cb %d %d %d %d\n", dGeomTriMeshGetCallback(g[2]) == NULL, dGeomTriMeshGetArrayCallback(g[2]) == NULL,
         dGeomTriMeshGetRayCallback(g[2]) == NULL, dGeomTriMeshGetTriMergeCallback(g[2]) == NULL);
  dGeomTriMeshSetCallback(g[2], reject_odd);
  dGeomTriMeshSetArrayCallback(g[2], array_cb);
  dGeomTriMeshSetRayCallback(g[2], ray_cb);
  dGeomTriMeshSetTriMergeCallback(g[2], merge_cb);
  printf("cb %d %d %d %d\n", dGeomTriMeshGetCallback(g[2]) == reject_odd, dGeomTriMeshGetArrayCallback(g[2]) == array_cb,
         dGeomTriMeshGetRayCallback(g[2]) == ray_cb, dGeomTriMeshGetTriMergeCallback(g[2]) == merge_cb);
  dContactGeom c[64];
  dGeomID s = dCreateSphere(0, 0.6);
  dGeomSetPosition(s, 0.3, 0.45, tm_height(0.3, 0.45) + 0.4);
  int n = dCollide(g[2], s, 64, c, sizeof(dContactGeom));
  int odd = 0;
  for (int i = 0; i < n; i++) odd += c[i].side1 % 2;
  printf("sphere with callbacks n %d odd %d cb>0 %d array %d\n", n, odd, cb_calls > 0, acb_calls);
  dGeomID r = dCreateRay(0, 10);
  dGeomRaySet(r, 0.3, 0.45, 3, 0, 0, -1);
  n = dCollide(g[2], r, 64, c, sizeof(dContactGeom));
  printf("ray n %d calls %d\n", n, rcb_calls);
  for (int i = 0; i < n; i++) printf("hit %d %.9f %.9f %.9f %.9f\n", c[i].side1, c[i].pos[0], c[i].pos[1], c[i].pos[2], c[i].depth);
  /* A mesh without data and a swapped data object. */
  dGeomID empty = dCreateTriMesh(0, 0, 0, 0, 0);
  printf("empty data %d\n", dGeomTriMeshGetData(empty) == NULL);
  dGeomTriMeshSetData(empty, d[0]);
  printf("set count %d\n", dGeomTriMeshGetTriangleCount(empty));

  /* Update after moving vertices: the terrain raised by 1. */
  for (int i = 0; i < (TM_G + 1) * (TM_G + 1); i++) ter_v[i].p[2] += 1.0f;
  dGeomTriMeshDataUpdate(d[2]);
  dGeomTriMeshSetCallback(g[2], 0);
  dGeomTriMeshSetRayCallback(g[2], 0);
  n = dCollide(g[2], r, 64, c, sizeof(dContactGeom));
  printf("ray after update n %d", n);
  for (int i = 0; i < n; i++) printf(" %d %.9f", c[i].side1, c[i].depth);
  printf("\n");

  /* Mass: closed cube of side 2 equals a box; a moved and rotated cube. */
  dMass mt, mb;
  dMassSetTrimesh(&mt, 3.0, g[0]);
  dMassSetBox(&mb, 3.0, 2, 2, 2);
  mass("trimesh", &mt);
  mass("box", &mb);
  dMassSetTrimeshTotal(&mt, 5.0, g[0]);
  mass("total", &mt);
  dMatrix3 R;
  dRFromAxisAndAngle(R, 1, 2, 3, 0.4);
  dGeomSetRotation(g[0], R);
  dGeomSetPosition(g[0], 1, -2, 0.5);
  dMassSetTrimesh(&mt, 1.0, g[0]);
  mass("moved", &mt);
  dMassSetTrimesh(&mt, 2.0, g[1]);
  mass("ico", &mt);
  dGeomDestroy(empty);
  dGeomTriMeshDataDestroy(ds);
  printf("done\n");
  return 0;
}
