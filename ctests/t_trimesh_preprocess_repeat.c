/* A Preprocess request for what the trimesh data has already built, and a
 * build of data that was preprocessed. ODE 0.16.2 asserts on both
 * (dUASSERT "Another request to build edge/vertex use flags after they had
 * already been built", the same for face angles; dIASSERT in buildData),
 * so Debian's library aborts and no differential test can run them. Where
 * its assertions are compiled out, ODE skips the repeated part and answers
 * 1.
 *
 * Ours: the repeated part is reported on the message channel and not
 * built again (the flags built first stay, the same buffer), the rest of
 * the request is built, and the call answers 1, as ODE without its
 * assertions; a build after a Preprocess is reported on the message
 * channel too and drops the flags with the old mesh. Data without triangles builds nothing and is not
 * reported again. Before, every repeat rebuilt silently (a new buffer).
 *
 * Runs against OUR library only. Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int debug_reports, messages;
static char last[512];
static void on_debug(int num, const char *msg, va_list ap) { (void)num; vsnprintf(last, sizeof last, msg, ap); debug_reports++; }
static void on_message(int num, const char *msg, va_list ap) { (void)num; vsnprintf(last, sizeof last, msg, ap); messages++; }

static int checks, failures;
#define EXPECT(c) do { checks++; if (!(c)) { failures++; printf("FAIL line %d: %s (last report: %s)\n", __LINE__, #c, last); } } while (0)

/* A 2x2 grid of quads (8 triangles) with a dip in the middle: shared
 * edges, some concave. */
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

int main(void) {
  dInitODE2(0);
  dSetDebugHandler(on_debug);
  dSetMessageHandler(on_message);
  make();
  const unsigned EDGES = 1U << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES;
  const unsigned ANGLES = 1U << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES;

  /* dGeomTriMeshDataPreprocess twice: the second is reported, answers 1
   * and keeps the first flags. */
  {
    dTriMeshDataID d = built();
    EXPECT(dGeomTriMeshDataPreprocess(d) == 1);
    EXPECT(messages == 0 && debug_reports == 0);
    void *f1 = flags_of(d);
    unsigned char copy[8];
    EXPECT(f1 != NULL);
    if (f1) memcpy(copy, f1, sizeof copy);
    EXPECT(dGeomTriMeshDataPreprocess(d) == 1);
    EXPECT(messages == 1 && debug_reports == 0);
    EXPECT(strstr(last, "already built") != NULL);
    EXPECT(flags_of(d) == f1);
    if (f1 && flags_of(d) == f1) EXPECT(memcmp(copy, f1, sizeof copy) == 0);
    /* Preprocess2 asking for the edges again: the same. */
    EXPECT(dGeomTriMeshDataPreprocess2(d, EDGES, NULL) == 1);
    EXPECT(messages == 2 && debug_reports == 0);
    EXPECT(flags_of(d) == f1);
    dGeomTriMeshDataDestroy(d);
  }

  /* Face angles twice, then both parts when only the edges are new: one
   * report for the angles, the edges built. */
  {
    debug_reports = 0;
    messages = 0;
    dTriMeshDataID d = built();
    EXPECT(dGeomTriMeshDataPreprocess2(d, ANGLES, NULL) == 1);
    EXPECT(messages == 0 && debug_reports == 0);
    EXPECT(dGeomTriMeshDataPreprocess2(d, ANGLES, NULL) == 1);
    EXPECT(messages == 1 && debug_reports == 0);
    EXPECT(flags_of(d) == NULL);
    EXPECT(dGeomTriMeshDataPreprocess2(d, EDGES | ANGLES, NULL) == 1);
    EXPECT(messages == 2 && debug_reports == 0);
    EXPECT(flags_of(d) != NULL);
    /* Both built: both parts reported. */
    EXPECT(dGeomTriMeshDataPreprocess2(d, EDGES | ANGLES, NULL) == 1);
    EXPECT(messages == 4 && debug_reports == 0);
    /* Nothing asked: nothing reported. */
    EXPECT(dGeomTriMeshDataPreprocess2(d, 0, NULL) == 1);
    EXPECT(messages == 4 && debug_reports == 0);
    dGeomTriMeshDataDestroy(d);
  }

  /* A build after a Preprocess: reported on the message channel, the old
   * flags dropped; a Preprocess after it builds anew without a report. */
  {
    debug_reports = 0;
    messages = 0;
    dTriMeshDataID d = built();
    EXPECT(dGeomTriMeshDataPreprocess(d) == 1);
    dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof(double), 9, idx, 24, 3 * sizeof(int));
    EXPECT(messages == 1);
    EXPECT(debug_reports == 0);
    EXPECT(flags_of(d) == NULL);
    EXPECT(dGeomTriMeshDataPreprocess(d) == 1);
    EXPECT(debug_reports == 0);
    EXPECT(flags_of(d) != NULL);
    /* A build of data never preprocessed: no report. */
    dTriMeshDataID e = built();
    dGeomTriMeshDataBuildDouble(e, v, 3 * sizeof(double), 9, idx, 24, 3 * sizeof(int));
    EXPECT(messages == 1);
    dGeomTriMeshDataDestroy(e);
    dGeomTriMeshDataDestroy(d);
  }

  /* Data without triangles: nothing to build, answers 1, never reported. */
  {
    debug_reports = 0;
    messages = 0;
    dTriMeshDataID d = dGeomTriMeshDataCreate();
    EXPECT(dGeomTriMeshDataPreprocess(d) == 1);
    EXPECT(dGeomTriMeshDataPreprocess(d) == 1);
    EXPECT(dGeomTriMeshDataPreprocess2(d, EDGES | ANGLES, NULL) == 1);
    EXPECT(debug_reports == 0 && messages == 0);
    EXPECT(flags_of(d) == NULL);
    dGeomTriMeshDataDestroy(d);
  }

  dCloseODE();
  if (failures) { printf("FAIL %d of %d\n", failures, checks); return 1; }
  printf("PASS %d\n", checks);
  return 0;
}
