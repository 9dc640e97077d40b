/* The arrays a host hands to trimesh data, in sequences Debian's ODE
 * aborts on (so no differential test can run them) and ours carries out:
 *
 * - the data's own use flags (what dGeomTriMeshDataGet/GetBuffer return
 *   after Preprocess) handed back through dGeomTriMeshDataSetBuffer or
 *   dGeomTriMeshDataSet(USE_FLAGS) stay the data's own, as in ODE (which
 *   takes only other buffers as the host's): a later Preprocess or build,
 *   which replaces or drops them, must not leave the data reading freed
 *   memory. Before, the pointer was kept as the host's and dangled.
 *
 * - face normals that Preprocess reads must be of unit length: ODE
 *   asserts ("Mesh triangle normals must be normalized") on a NaN,
 *   infinite, zero, huge or merely non-unit one, for either build request
 *   (concave edges, face angles). Refused and reported, the flags left as
 *   they were. Normals Preprocess never reads (a triangle that shares no
 *   edge) and normals handed in without a Preprocess are accepted, as ODE
 *   accepts them. Before, they were taken silently.
 *
 * - a second Preprocess of the same request is reported and builds
 *   nothing, and a build of preprocessed data is reported (ODE asserts on
 *   both; see t_trimesh_preprocess_repeat.c), so each normals case runs on
 *   fresh data.
 *
 * Runs against OUR library only. Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int reports;
static char last_msg[512];
static void on_report(int num, const char *msg, va_list ap) { (void)num; vsnprintf(last_msg, sizeof last_msg, msg, ap); reports++; }

static int checks, failures;
#define EXPECT(c) do { checks++; if (!(c)) { failures++; printf("FAIL line %d: %s\n", __LINE__, #c); } } while (0)

static double v[9][3];
static int idx[8 * 3];

static void make(void) {
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++) { v[3 * j + i][0] = i; v[3 * j + i][1] = j; v[3 * j + i][2] = (i == 1 && j == 1) ? -0.5 : 0; }
  int k = 0;
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++) {
      int a = 3 * j + i, b = a + 1, c = a + 3, d = c + 1;
      idx[k++] = a; idx[k++] = b; idx[k++] = d;
      idx[k++] = a; idx[k++] = d; idx[k++] = c;
    }
}

static dTriMeshDataID built(void) {
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof(double), 9, idx, 24, 3 * sizeof(int));
  return d;
}

static void *flags_of(dTriMeshDataID d) { return dGeomTriMeshDataGet2(d, dTRIMESHDATA_USE_FLAGS, NULL); }

/* A capsule across the bowl: the collider that reads the use flags. */
static int capsule_contacts(dTriMeshDataID d) {
  dGeomID m = dCreateTriMesh(0, d, 0, 0, 0), c = dCreateCapsule(0, 0.3, 1.2);
  dMatrix3 R;
  dRFromZAxis(R, 1, 0.3, 0.1);
  dGeomSetRotation(c, R);
  dGeomSetPosition(c, 1, 1, -0.1);
  dContactGeom k[16];
  int n = dCollide(m, c, 16, k, sizeof k[0]);
  dGeomDestroy(c);
  dGeomDestroy(m);
  return n;
}

int main(void) {
  dInitODE2(0);
  dSetDebugHandler(on_report);
  dSetMessageHandler(on_report);
  make();

  /* Own flags through SetBuffer, then Preprocess again. */
  {
    dTriMeshDataID d = built();
    EXPECT(dGeomTriMeshDataPreprocess(d) == 1);
    unsigned char *own = NULL;
    int len = 0;
    dGeomTriMeshDataGetBuffer(d, &own, &len);
    EXPECT(own != NULL && len == 8);
    unsigned char copy[8];
    memcpy(copy, own, sizeof copy);
    int n0 = capsule_contacts(d);
    EXPECT(n0 > 0);
    dGeomTriMeshDataSetBuffer(d, own);
    EXPECT(flags_of(d) == own);
    /* A second Preprocess is reported and builds nothing (ODE asserts and
     * skips it; see t_trimesh_preprocess_repeat.c): the flags are still
     * the data's own. */
    int r0 = reports;
    EXPECT(dGeomTriMeshDataPreprocess(d) == 1);
    EXPECT(reports == r0 + 1);
    unsigned char *now = flags_of(d);
    EXPECT(now == own);
    EXPECT(now != NULL && memcmp(now, copy, sizeof copy) == 0);
    EXPECT(capsule_contacts(d) == n0);
    /* A build drops them (reported: ODE asserts there too); the data must
     * not go on reading the freed buffer. */
    dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof(double), 9, idx, 24, 3 * sizeof(int));
    EXPECT(reports == r0 + 2);
    EXPECT(flags_of(d) == NULL);
    EXPECT(capsule_contacts(d) > 0);
    reports = r0;
    dGeomTriMeshDataDestroy(d);
  }
  /* Own flags through dGeomTriMeshDataSet, then a new build drops them. */
  {
    dTriMeshDataID d = built();
    EXPECT(dGeomTriMeshDataPreprocess(d) == 1);
    void *own = flags_of(d);
    EXPECT(own != NULL);
    dGeomTriMeshDataSet(d, dTRIMESHDATA_USE_FLAGS, own);
    int r0 = reports;
    dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof(double), 9, idx, 24, 3 * sizeof(int));
    EXPECT(reports == r0 + 1 && strstr(last_msg, "building it again"));
    reports = r0;
    EXPECT(flags_of(d) == NULL);
    int n_plain = capsule_contacts(d);
    dTriMeshDataID fresh = built();
    EXPECT(n_plain == capsule_contacts(fresh));
    dGeomTriMeshDataDestroy(fresh);
    dGeomTriMeshDataDestroy(d);
  }
  /* A host buffer stays the host's across Preprocess and builds. */
  {
    dTriMeshDataID d = built();
    static unsigned char host[8] = { 0x3f, 0, 0x3f, 0, 0x3f, 0, 0x3f, 0 };
    dGeomTriMeshDataSetBuffer(d, host);
    EXPECT(dGeomTriMeshDataPreprocess(d) == 1);
    EXPECT(flags_of(d) == host);
    /* The build after a Preprocess is reported (ODE asserts). */
    int r0 = reports;
    dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof(double), 9, idx, 24, 3 * sizeof(int));
    EXPECT(reports == r0 + 1);
    reports = r0;
    EXPECT(flags_of(d) == host);
    dGeomTriMeshDataSet(d, dTRIMESHDATA_USE_FLAGS, NULL);
    EXPECT(flags_of(d) == NULL);
    dGeomTriMeshDataDestroy(d);
  }
  EXPECT(reports == 0);
  if (reports) printf("report: %s\n", last_msg);

  /* Face normals: the grid's 8 triangles (every one shares an edge) and a
   * lone triangle (vertices 9-11) that shares none. */
  {
    static double vv[12][3];
    static int ii[9 * 3];
    static dReal nrm[9 * 3];
    memcpy(vv, v, sizeof v);
    vv[9][0] = 5; vv[10][0] = 6; vv[11][0] = 5; vv[11][1] = 1;
    memcpy(ii, idx, sizeof idx);
    ii[24] = 9; ii[25] = 10; ii[26] = 11;
    for (int t = 0; t < 9; t++) { nrm[3 * t] = 0; nrm[3 * t + 1] = 0; nrm[3 * t + 2] = 1; }
    dTriMeshDataID d = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble1(d, vv, 3 * sizeof(double), 12, ii, 27, 3 * sizeof(int), nrm);
    const unsigned concave = 1U << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES, angles = 1U << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES;
    /* Unit normals, and a NaN one nobody reads. */
    nrm[3 * 8] = NAN;
    int r = reports;
    EXPECT(dGeomTriMeshDataPreprocess2(d, concave | angles, NULL) == 1);
    EXPECT(reports == r);
    void *before = flags_of(d);
    EXPECT(before != NULL);
    /* Every normal of the grid bad, one at a time: each is read by at
     * least one shared edge, so the grid as a whole is always refused. */
    static const double bad[][3] = {
      { NAN, 0, 1 }, { 0, INFINITY, 0 }, { 0, 0, 0 }, { 1e200, 0, 0 }, { 0, 0, 1.0000001 }, { 0.6, 0.8, 1e-6 } };
    /* Each case on fresh data (a second Preprocess of the same data
     * would be a repeated request, which builds nothing and reads no
     * normal). */
    for (unsigned b = 0; b < sizeof bad / sizeof bad[0]; b++) {
      for (int t = 0; t < 8; t++) for (int k = 0; k < 3; k++) nrm[3 * t + k] = bad[b][k];
      dTriMeshDataID e = dGeomTriMeshDataCreate();
      dGeomTriMeshDataBuildDouble1(e, vv, 3 * sizeof(double), 12, ii, 27, 3 * sizeof(int), nrm);
      r = reports;
      last_msg[0] = 0;
      EXPECT(dGeomTriMeshDataPreprocess(e) == 0);
      EXPECT(dGeomTriMeshDataPreprocess2(e, concave, NULL) == 0);
      EXPECT(dGeomTriMeshDataPreprocess2(e, angles, NULL) == 0);
      EXPECT(reports == r + 3 && strstr(last_msg, "dGeomTriMeshDataPreprocess2") && strstr(last_msg, "unit length"));
      EXPECT(flags_of(e) == NULL);
      dGeomTriMeshDataDestroy(e);
      /* Data preprocessed before its normals went bad keeps its flags. */
      EXPECT(flags_of(d) == before);
    }
    /* Only what is read counts: unit again, then handed in afresh. */
    for (int t = 0; t < 8; t++) { nrm[3 * t] = 0; nrm[3 * t + 1] = 0.6; nrm[3 * t + 2] = 0.8; }
    r = reports;
    dTriMeshDataID e = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(e, vv, 3 * sizeof(double), 12, ii, 27, 3 * sizeof(int));
    dGeomTriMeshDataSet(e, dTRIMESHDATA_FACE_NORMALS, nrm);
    EXPECT(dGeomTriMeshDataPreprocess(e) == 1);
    EXPECT(reports == r);
    EXPECT(flags_of(e) != NULL);
    dGeomTriMeshDataDestroy(e);
    /* Bad normals handed in but never preprocessed: accepted. */
    static dReal zero[9 * 3];
    e = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble1(e, vv, 3 * sizeof(double), 12, ii, 27, 3 * sizeof(int), zero);
    dGeomTriMeshDataSet(e, dTRIMESHDATA_FACE_NORMALS, zero);
    EXPECT(reports == r);
    EXPECT(capsule_contacts(e) >= 0 && reports == r);
    dGeomTriMeshDataDestroy(e);
    dGeomTriMeshDataDestroy(d);
  }

  dCloseODE();
  if (failures) { printf("FAILED %d of %d\n", failures, checks); return 1; }
  printf("PASS %d\n", checks);
  return 0;
}
