/* DIFF-TOL rel=0 abs=0 */
/* The arrays a host hands to trimesh data and the library keeps: face
 * normals (dGeomTriMeshDataBuildDouble1/Single1/Simple1, and
 * dGeomTriMeshDataSet) and use flags (dGeomTriMeshDataSet, and the
 * deprecated dGeomTriMeshDataSetBuffer/GetBuffer). Normals are unit
 * vectors (ODE asserts on others at preprocessing), some flipped against
 * the winding so that Preprocess's concave-edge test sees other folds;
 * the use flags Preprocess builds from them are printed. Host use flags
 * are bytes of a fixed pseudo-random sequence: capsule contacts (the
 * collider that reads them) are printed for a few placements. GetBuffer
 * takes NULL for either output, and the flags Preprocess built handed back
 * through SetBuffer stay the data's own. */
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* dGeomTriMeshDataGetBuffer/SetBuffer are deprecated but still exported. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define NX 5
#define NY 5
#define NV (NX * NY)
#define NT ((NX - 1) * (NY - 1) * 2)

static double vd[NV][3];
static float vf[NV][3];
static dVector3 vs[NV];
static int idx[NT * 3];
static dTriIndex idx_s[NT * 3];
static dReal normals[NT * 3];
static unsigned char host_flags[NT], host_flags2[NT];

static unsigned lcg = 12345;
static unsigned next(void) { lcg = lcg * 1103515245u + 12345u; return lcg >> 16; }

static void make(void) {
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      double *p = vd[j * NX + i];
      p[0] = i - 2.0; p[1] = j - 2.0; p[2] = 0.4 * sin(i * 1.3 + j) + 0.2 * ((i + j) % 2);
      for (int k = 0; k < 3; k++) { vf[j * NX + i][k] = (float)p[k]; vs[j * NX + i][k] = p[k]; }
      vs[j * NX + i][3] = 0;
    }
  int k = 0;
  for (int j = 0; j + 1 < NY; j++)
    for (int i = 0; i + 1 < NX; i++) {
      int a = j * NX + i, b = a + 1, c = a + NX, d = c + 1;
      idx[k++] = a; idx[k++] = b; idx[k++] = d;
      idx[k++] = a; idx[k++] = d; idx[k++] = c;
    }
  for (int i = 0; i < NT * 3; i++) idx_s[i] = (dTriIndex)idx[i];
  /* Unit normals of the winding (b - a) x (c - a), every third flipped. */
  for (int t = 0; t < NT; t++) {
    const double *a = vd[idx[3 * t]], *b = vd[idx[3 * t + 1]], *c = vd[idx[3 * t + 2]];
    double u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, v[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
    double n[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
    double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double s = t % 3 == 0 ? -1 : 1;
    for (int q = 0; q < 3; q++) normals[3 * t + q] = s * n[q] / l;
  }
  for (int t = 0; t < NT; t++) { host_flags[t] = (unsigned char)next(); host_flags2[t] = (unsigned char)next(); }
}

static void flags(const char *tag, dTriMeshDataID d) {
  dsizeint sz = 0;
  const unsigned char *f = dGeomTriMeshDataGet2(d, dTRIMESHDATA_USE_FLAGS, &sz);
  printf("%s: size %d", tag, (int)sz);
  if (f) for (int t = 0; t < NT; t++) printf(" %02x", f[t]);
  else printf(" none");
  printf("\n");
}

static void capsule(const char *tag, dTriMeshDataID d) {
  dGeomID m = dCreateTriMesh(0, d, 0, 0, 0);
  dGeomID c = dCreateCapsule(0, 0.35, 1.5);
  static const double place[4][6] = {
    { 0, 0, 0.3, 1, 0, 0 }, { -0.6, 0.4, 0.25, 0, 1, 0.2 }, { 1.1, -0.9, 0.35, 1, 1, 0 }, { 0.5, 0.5, 0.5, 0.2, 0.1, 1 } };
  for (int p = 0; p < 4; p++) {
    dMatrix3 R;
    dRFromZAxis(R, place[p][3], place[p][4], place[p][5]);
    dGeomSetPosition(c, place[p][0], place[p][1], place[p][2]);
    dGeomSetRotation(c, R);
    dContactGeom k[32];
    int n = dCollide(m, c, 32, k, sizeof k[0]);
    printf("%s capsule %d: n %d\n", tag, p, n);
    for (int i = 0; i < n; i++)
      printf("  pos %.17g %.17g %.17g normal %.17g %.17g %.17g depth %.17g side1 %d\n", k[i].pos[0], k[i].pos[1],
             k[i].pos[2], k[i].normal[0], k[i].normal[1], k[i].normal[2], k[i].depth, k[i].side1);
  }
  dGeomDestroy(c);
  dGeomDestroy(m);
}

int main(void) {
  dInitODE2(0);
  make();
  const unsigned concave = 1U << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES;
  const unsigned angles = 1U << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES;

  dTriMeshDataID plain = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildDouble(plain, vd, 3 * sizeof(double), NV, idx, NT * 3, 3 * sizeof(int));
  printf("preprocess %d\n", dGeomTriMeshDataPreprocess(plain));
  flags("no normals", plain);

  dTriMeshDataID d1 = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildDouble1(d1, vd, 3 * sizeof(double), NV, idx, NT * 3, 3 * sizeof(int), normals);
  dsizeint sz = 0;
  int kept = dGeomTriMeshDataGet2(d1, dTRIMESHDATA_FACE_NORMALS, &sz) == (void *)normals;
  printf("normals kept %d size %d\n", kept, (int)sz);
  printf("preprocess %d\n", dGeomTriMeshDataPreprocess(d1));
  flags("BuildDouble1", d1);
  capsule("BuildDouble1 preprocessed", d1);

  dTriMeshDataID d2 = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle1(d2, vf, 3 * sizeof(float), NV, idx, NT * 3, 3 * sizeof(int), normals);
  printf("preprocess2 %d\n", dGeomTriMeshDataPreprocess2(d2, concave, NULL));
  flags("BuildSingle1", d2);

  dTriMeshDataID d3 = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSimple1(d3, &vs[0][0], NV, idx_s, NT * 3, (const int *)normals);
  printf("preprocess2 %d\n", dGeomTriMeshDataPreprocess2(d3, concave | angles, NULL));
  flags("BuildSimple1", d3);

  /* Normals handed in after the build, before preprocessing. */
  dTriMeshDataID d4 = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildDouble(d4, vd, 3 * sizeof(double), NV, idx, NT * 3, 3 * sizeof(int));
  dGeomTriMeshDataSet(d4, dTRIMESHDATA_FACE_NORMALS, normals);
  printf("normals set %d\n", dGeomTriMeshDataGet2(d4, dTRIMESHDATA_FACE_NORMALS, NULL) == (void *)normals);
  printf("preprocess %d\n", dGeomTriMeshDataPreprocess(d4));
  flags("DataSet normals", d4);
  /* A build without normals drops them. */
  dTriMeshDataID d6 = dGeomTriMeshDataCreate();
  dGeomTriMeshDataSet(d6, dTRIMESHDATA_FACE_NORMALS, normals);
  dGeomTriMeshDataBuildDouble(d6, vd, 3 * sizeof(double), NV, idx, NT * 3, 3 * sizeof(int));
  printf("normals after a plain build %d\n", dGeomTriMeshDataGet2(d6, dTRIMESHDATA_FACE_NORMALS, NULL) == NULL);

  /* Host use flags: read by the capsule collider. */
  dTriMeshDataID d5 = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildDouble(d5, vd, 3 * sizeof(double), NV, idx, NT * 3, 3 * sizeof(int));
  capsule("no flags", d5);
  dGeomTriMeshDataSet(d5, dTRIMESHDATA_USE_FLAGS, host_flags);
  printf("flags kept %d\n", dGeomTriMeshDataGet2(d5, dTRIMESHDATA_USE_FLAGS, NULL) == (void *)host_flags);
  capsule("host flags", d5);
  dGeomTriMeshDataSetBuffer(d5, host_flags2);
  unsigned char *buf = NULL;
  int len = -1;
  dGeomTriMeshDataGetBuffer(d5, &buf, &len);
  printf("GetBuffer %d len %d\n", buf == host_flags2, len);
  capsule("SetBuffer flags", d5);
  /* Host flags win over Preprocess's. */
  printf("preprocess %d\n", dGeomTriMeshDataPreprocess(d5));
  printf("host flags kept %d\n", dGeomTriMeshDataGet2(d5, dTRIMESHDATA_USE_FLAGS, NULL) == (void *)host_flags2);
  dGeomTriMeshDataSetBuffer(d5, NULL);
  flags("SetBuffer NULL, preprocessed", d5);
  capsule("SetBuffer NULL, preprocessed", d5);

  /* GetBuffer's outputs may each be NULL. */
  buf = NULL; len = -1;
  dGeomTriMeshDataGetBuffer(d1, NULL, &len);
  printf("GetBuffer NULL buf: len %d\n", len);
  dGeomTriMeshDataGetBuffer(d1, &buf, NULL);
  printf("GetBuffer NULL len: own flags %d\n", buf != NULL && buf == dGeomTriMeshDataGet2(d1, dTRIMESHDATA_USE_FLAGS, NULL));
  dGeomTriMeshDataGetBuffer(d1, NULL, NULL);
  /* The data's own flags, handed back: still the data's own. */
  dGeomTriMeshDataSetBuffer(d1, buf);
  printf("own flags handed back %d\n", dGeomTriMeshDataGet2(d1, dTRIMESHDATA_USE_FLAGS, NULL) == buf);
  flags("own flags handed back", d1);
  capsule("own flags handed back", d1);
  /* Unbuilt data: no flags, size 0. */
  dTriMeshDataID e = dGeomTriMeshDataCreate();
  buf = (unsigned char *)&len; len = -1;
  dGeomTriMeshDataGetBuffer(e, &buf, &len);
  printf("unbuilt GetBuffer %d len %d\n", buf == NULL, len);

  dGeomTriMeshDataDestroy(plain);
  dGeomTriMeshDataDestroy(d1);
  dGeomTriMeshDataDestroy(d2);
  dGeomTriMeshDataDestroy(d3);
  dGeomTriMeshDataDestroy(d4);
  dGeomTriMeshDataDestroy(d5);
  dGeomTriMeshDataDestroy(d6);
  dGeomTriMeshDataDestroy(e);
  dCloseODE();
  printf("done\n");
  return 0;
}
