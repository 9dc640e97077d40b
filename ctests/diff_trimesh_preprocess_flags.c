/* DIFF-TOL rel=0 abs=0 */
/* Use flags of dGeomTriMeshDataPreprocess / Preprocess2(BUILD_CONCAVE_EDGES)
 * read back with dGeomTriMeshDataGet2(USE_FLAGS): the shared test meshes,
 * a concave folded strip, a random triangle soup over few vertices
 * (non-manifold and degenerate edges, big enough for the sort's
 * partitioning), a shuffled terrain and a cube with host normals. Every
 * byte must equal Debian's. */
#include <stdio.h>
#include "tmesh_meshes.h"

static void dump(const char *name, dTriMeshDataID d, int ntri) {
  size_t size = 0;
  unsigned char *f = (unsigned char *)dGeomTriMeshDataGet2(d, dTRIMESHDATA_USE_FLAGS, &size);
  printf("%s size %d\n", name, (int)size);
  if (!f) { printf("none\n"); return; }
  for (int t = 0; t < ntri; t++) printf("%d%c", f[t], t % 24 == 23 || t == ntri - 1 ? '\n' : ' ');
}

static unsigned long long lcg = 0x2545F4914F6CDD1DULL;
static unsigned rnd(unsigned n) { lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL; return (unsigned)((lcg >> 33) % n); }

/* Zig-zag strip: alternating valley and ridge folds. */
static float zz_v[2 * 12][3];
static int zz_i[2 * 11 * 3];
/* Soup over 20 random vertices. */
static float soup_v[20][3];
static int soup_i[600 * 3];
/* Terrain copy with triangles shuffled and corners rotated. */
static int shuf_i[TM_G * TM_G * 2 * 3];
static dReal cube_n[12][3];

int main(void) {
  dInitODE();
  dTriMeshDataID d;

  d = tm_cube(1.0f); dGeomTriMeshDataPreprocess(d); dump("cube", d, 12); dGeomTriMeshDataDestroy(d);
  d = tm_icosphere(); dGeomTriMeshDataPreprocess2(d, 1u << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES, NULL);
  dump("icosphere", d, 80); dGeomTriMeshDataDestroy(d);
  d = tm_terrain(); dGeomTriMeshDataPreprocess(d); dump("terrain", d, TM_G * TM_G * 2); dGeomTriMeshDataDestroy(d);
  d = tm_bowl(); dGeomTriMeshDataPreprocess(d); dump("bowl", d, TM_B * TM_B * 2); dGeomTriMeshDataDestroy(d);

  for (int i = 0; i < 12; i++) {
    zz_v[2 * i][0] = zz_v[2 * i + 1][0] = (float)i;
    zz_v[2 * i][1] = 0; zz_v[2 * i + 1][1] = 1;
    zz_v[2 * i][2] = zz_v[2 * i + 1][2] = (i & 1) ? 0.7f : 0.0f;
  }
  int n = 0;
  for (int i = 0; i < 11; i++) {
    int a = 2 * i, b = a + 1, c = a + 2, e = a + 3;
    if (i & 1) { zz_i[n++] = a; zz_i[n++] = c; zz_i[n++] = e; zz_i[n++] = a; zz_i[n++] = e; zz_i[n++] = b; }
    else { zz_i[n++] = a; zz_i[n++] = c; zz_i[n++] = b; zz_i[n++] = b; zz_i[n++] = c; zz_i[n++] = e; }
  }
  d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(d, zz_v, 3 * sizeof(float), 24, zz_i, n, 3 * sizeof(int));
  dGeomTriMeshDataPreprocess(d); dump("zigzag", d, n / 3); dGeomTriMeshDataDestroy(d);

  for (int i = 0; i < 20; i++) for (int k = 0; k < 3; k++) soup_v[i][k] = (float)rnd(1000) / 250.0f;
  for (int t = 0; t < 600; t++) {
    soup_i[3 * t] = rnd(20); soup_i[3 * t + 1] = rnd(20); soup_i[3 * t + 2] = rnd(20);
  }
  for (int m = 0; m < 4; m++) {
    static const int counts[4] = {7, 40, 200, 600};
    d = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildSingle(d, soup_v, 3 * sizeof(float), 20, soup_i, 3 * counts[m], 3 * sizeof(int));
    dGeomTriMeshDataPreprocess(d);
    char name[32]; sprintf(name, "soup%d", counts[m]);
    dump(name, d, counts[m]); dGeomTriMeshDataDestroy(d);
  }

  d = tm_terrain(); dGeomTriMeshDataDestroy(d);
  int nt = TM_G * TM_G * 2, order[TM_G * TM_G * 2];
  for (int t = 0; t < nt; t++) order[t] = t;
  for (int t = nt - 1; t > 0; t--) { int j = rnd(t + 1), x = order[t]; order[t] = order[j]; order[j] = x; }
  for (int t = 0; t < nt; t++) {
    int r = rnd(3);
    for (int k = 0; k < 3; k++) shuf_i[3 * t + k] = ter_t[order[t]].i[(k + r) % 3];
  }
  d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(d, ter_v, sizeof(struct tvert), (TM_G + 1) * (TM_G + 1), shuf_i, nt * 3, 3 * sizeof(int));
  dGeomTriMeshDataPreprocess(d); dump("shuffled", d, nt); dGeomTriMeshDataDestroy(d);

  d = tm_cube(0.5f); dGeomTriMeshDataDestroy(d);
  for (int t = 0; t < 12; t++) {
    float *a = cube_v[cube_i[3 * t]], *b = cube_v[cube_i[3 * t + 1]], *c = cube_v[cube_i[3 * t + 2]];
    dVector3 u = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v = {c[0] - a[0], c[1] - a[1], c[2] - a[2]}, w;
    dCalcVectorCross3(w, u, v);
    dNormalize3(w);
    /* Flip two of them: a host may hand in anything normalised. */
    for (int k = 0; k < 3; k++) cube_n[t][k] = (t == 3 || t == 8) ? -w[k] : w[k];
  }
  d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle1(d, cube_v, 3 * sizeof(float), 8, cube_i, 36, 3 * sizeof(int), cube_n);
  dGeomTriMeshDataPreprocess(d); dump("cube-normals", d, 12); dGeomTriMeshDataDestroy(d);

  dCloseODE();
  printf("done\n");
  return 0;
}
