/* DIFF-TOL rel=0 abs=0 */
/* Face angles of dGeomTriMeshDataPreprocess2(BUILD_FACE_ANGLES) as the
 * convex-trimesh collider reads them (the only collider of ODE 0.16.2 that
 * does: its contact normal correction). There is no API to read the angles
 * back, so convex geoms (a box and an octahedron) are dropped onto meshes
 * with convex, concave and flat edges and every contact is printed with
 * %a (exact bits):
 *   meshes  ridges extruded from a profile (floats: convex, concave and
 *           flat edges), the shared terrain (floats, strided records), a
 *           bowl and a dome (doubles), a zig-zag strip, a random soup over
 *           few vertices (non-manifold and degenerate edges, enough
 *           records for the edge sort to partition) and the closed cube;
 *   normals none; the host's unit normals equal to the geometric ones
 *           (BuildSingle1/BuildDouble1); the host's normals tilted by
 *           0.02-0.17 rad (dGeomTriMeshDataSet FACE_NORMALS);
 *   formats requestExtraData NULL (with BUILD_CONCAVE_EDGES too),
 *           BYTE_POSITIVE, BYTE_ALL, WORD_ALL.
 * Each convex is placed on the surface under a random point (found with
 * a ray), slightly in or above it, randomly turned. */
#include <stdio.h>
#include <stdlib.h>
#include "tmesh_meshes.h"
#include "convex_box.h"

static unsigned long long lcg = 0x9E3779B97F4A7C15ULL;
static double rnd(void) { lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL; return (double)(lcg >> 11) / 9007199254740992.0; }
static double rr(double a, double b) { return a + (b - a) * rnd(); }

/* A mesh of the test: vertices as doubles (converted to floats for the
 * single-precision ones), packed int indices. */
#define MAXV 200
#define MAXT 300
struct mesh {
  const char *name;
  int single, nv, nt;
  double v[MAXV][3];
  int i[MAXT * 3];
  float vf[MAXV][3];
  dReal geo_n[MAXT][3], tilt_n[MAXT][3];
};
enum { NMESH = 8 };
static struct mesh M[NMESH];

static void add_tri(struct mesh *m, int a, int b, int c) {
  m->i[3 * m->nt] = a; m->i[3 * m->nt + 1] = b; m->i[3 * m->nt + 2] = c; m->nt++;
}

/* Grid of (nx+1) x (ny+1) vertices over [x0, x0+nx] x [y0, y0+ny], heights z(i, j). */
static void grid(struct mesh *m, int nx, int ny, double (*z)(int, int)) {
  m->nv = 0; m->nt = 0;
  for (int j = 0; j <= ny; j++)
    for (int i = 0; i <= nx; i++) {
      double *v = m->v[m->nv++];
      v[0] = i - nx / 2.0; v[1] = j - ny / 2.0; v[2] = z(i, j);
    }
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      int a = j * (nx + 1) + i, b = a + 1, c = a + nx + 1, d = c + 1;
      if ((i + j) & 1) { add_tri(m, a, b, c); add_tri(m, b, d, c); }
      else { add_tri(m, a, b, d); add_tri(m, a, d, c); }
    }
}

/* Profile: flat, ridge, flat, valley, slopes, a step. */
static double ridge_z(int i, int j) {
  static const double P[13] = {0, 0, 0.5, 0, 0, -0.4, -0.4, 0.1, 0.6, 0.6, 0.2, 0.2, 0};
  (void)j;
  return P[i];
}
static double bowl_z(int i, int j) { double x = i - 4.0, y = j - 4.0; return 0.1 * (x * x + y * y); }
static double dome_z(int i, int j) { return 2.0 - bowl_z(i, j); }

static unsigned long long slcg = 0x2545F4914F6CDD1DULL;
static unsigned srnd(unsigned n) { slcg = slcg * 6364136223846793005ULL + 1442695040888963407ULL; return (unsigned)((slcg >> 33) % n); }

static void setup_meshes(void) {
  struct mesh *m;
  m = &M[0]; m->name = "ridges"; m->single = 1; grid(m, 12, 4, ridge_z);
  m = &M[1]; m->name = "bowl"; m->single = 0; grid(m, 8, 8, bowl_z);
  m = &M[2]; m->name = "dome"; m->single = 0; grid(m, 8, 8, dome_z);

  /* The shared terrain, repacked. */
  m = &M[3]; m->name = "terrain"; m->single = 1;
  dGeomTriMeshDataDestroy(tm_terrain());
  m->nv = (TM_G + 1) * (TM_G + 1); m->nt = 0;
  for (int k = 0; k < m->nv; k++) for (int c = 0; c < 3; c++) m->v[k][c] = ter_v[k].p[c];
  for (int t = 0; t < TM_G * TM_G * 2; t++) add_tri(m, ter_t[t].i[0], ter_t[t].i[1], ter_t[t].i[2]);

  /* Zig-zag strip: alternating valley and ridge folds. */
  m = &M[4]; m->name = "zigzag"; m->single = 1; m->nv = 24; m->nt = 0;
  for (int k = 0; k < 12; k++) {
    m->v[2 * k][0] = m->v[2 * k + 1][0] = k - 6.0;
    m->v[2 * k][1] = -0.5; m->v[2 * k + 1][1] = 0.5;
    m->v[2 * k][2] = m->v[2 * k + 1][2] = (k & 1) ? 0.7 : 0.0;
  }
  for (int k = 0; k < 11; k++) {
    int a = 2 * k, b = a + 1, c = a + 2, e = a + 3;
    if (k & 1) { add_tri(m, a, c, e); add_tri(m, a, e, b); }
    else { add_tri(m, a, c, b); add_tri(m, b, c, e); }
  }

  /* Soup: 90 triangles over 14 vertices, some degenerate. */
  m = &M[5]; m->name = "soup"; m->single = 1; m->nv = 14; m->nt = 0;
  for (int k = 0; k < 14; k++) for (int c = 0; c < 3; c++) m->v[k][c] = srnd(1000) / 400.0;
  for (int t = 0; t < 90; t++) { int a = srnd(14), b = srnd(14), c = srnd(14); add_tri(m, a, b, c); }

  /* The closed cube of side 2. */
  m = &M[6]; m->name = "cube"; m->single = 1;
  dGeomTriMeshDataDestroy(tm_cube(1.0f));
  m->nv = 8; m->nt = 0;
  for (int k = 0; k < 8; k++) for (int c = 0; c < 3; c++) m->v[k][c] = cube_v[k][c];
  for (int t = 0; t < 12; t++) add_tri(m, cube_i[3 * t], cube_i[3 * t + 1], cube_i[3 * t + 2]);

  /* A gentle terrain with the triangles in a shuffled order and rotated
   * corners (the sort then pairs edges in another order). */
  m = &M[7]; m->name = "shuffled"; m->single = 1;
  *m = M[3]; m->name = "shuffled";
  for (int t = m->nt - 1; t > 0; t--) {
    int j = srnd(t + 1), r = srnd(3), tmp[3];
    for (int c = 0; c < 3; c++) tmp[c] = m->i[3 * t + c];
    for (int c = 0; c < 3; c++) m->i[3 * t + c] = m->i[3 * j + (c + r) % 3];
    for (int c = 0; c < 3; c++) m->i[3 * j + c] = tmp[c];
  }

  for (int k = 0; k < NMESH; k++) {
    m = &M[k];
    for (int p = 0; p < m->nv; p++) {
      for (int c = 0; c < 3; c++) {
        m->vf[p][c] = (float)m->v[p][c];
        if (m->single) m->v[p][c] = m->vf[p][c];
      }
    }
    for (int t = 0; t < m->nt; t++) {
      const double *a = m->v[m->i[3 * t]], *b = m->v[m->i[3 * t + 1]], *c = m->v[m->i[3 * t + 2]];
      double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
      double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      if (!(l > 1e-12)) { n[0] = 0; n[1] = 0; n[2] = 1; l = 1; }
      for (int q = 0; q < 3; q++) m->geo_n[t][q] = n[q] / l;
      /* Tilt about an axis across the normal. */
      double s[3] = {0.3 + 0.1 * (t % 5), 1.0 - 0.2 * (t % 3), 0.5 - 0.25 * (t % 4)};
      double ax[3] = {n[1] * s[2] - n[2] * s[1], n[2] * s[0] - n[0] * s[2], n[0] * s[1] - n[1] * s[0]};
      double al = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
      double ang = 0.02 + 0.15 * ((t * 37) % 11) / 10.0;
      double g[3];
      for (int q = 0; q < 3; q++) g[q] = m->geo_n[t][q];
      if (al > 1e-9) {
        for (int q = 0; q < 3; q++) ax[q] /= al;
        double cr[3] = {ax[1] * g[2] - ax[2] * g[1], ax[2] * g[0] - ax[0] * g[2], ax[0] * g[1] - ax[1] * g[0]};
        for (int q = 0; q < 3; q++) g[q] = g[q] * cos(ang) + cr[q] * sin(ang);
      }
      double gl = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
      for (int q = 0; q < 3; q++) m->tilt_n[t][q] = g[q] / gl;
    }
  }
}

static dTriMeshDataID make_data(struct mesh *m, int normals) {
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  if (normals == 1) {
    if (m->single)
      dGeomTriMeshDataBuildSingle1(d, m->vf, 3 * sizeof(float), m->nv, m->i, 3 * m->nt, 3 * sizeof(int), m->geo_n);
    else
      dGeomTriMeshDataBuildDouble1(d, m->v, 3 * sizeof(double), m->nv, m->i, 3 * m->nt, 3 * sizeof(int), m->geo_n);
  } else {
    if (m->single)
      dGeomTriMeshDataBuildSingle(d, m->vf, 3 * sizeof(float), m->nv, m->i, 3 * m->nt, 3 * sizeof(int));
    else
      dGeomTriMeshDataBuildDouble(d, m->v, 3 * sizeof(double), m->nv, m->i, 3 * m->nt, 3 * sizeof(int));
    if (normals == 2) dGeomTriMeshDataSet(d, dTRIMESHDATA_FACE_NORMALS, m->tilt_n);
  }
  return d;
}

/* Convex shapes: a box (convex_box.h) and an octahedron. */
static dReal oct_planes[32], oct_points[18];
static unsigned oct_polys[32];

static dGeomID make_octahedron(double r) {
  /* Points: +x, -x, +y, -y, +z, -z. */
  for (int k = 0; k < 18; k++) oct_points[k] = 0;
  for (int a = 0; a < 3; a++) { oct_points[6 * a + a] = r; oct_points[6 * a + 3 + a] = -r; }
  int n = 0;
  for (int f = 0; f < 8; f++) {
    double sx = f & 1 ? -1 : 1, sy = f & 2 ? -1 : 1, sz = f & 4 ? -1 : 1;
    double inv = 1.0 / sqrt(3.0);
    oct_planes[4 * f] = sx * inv; oct_planes[4 * f + 1] = sy * inv; oct_planes[4 * f + 2] = sz * inv;
    oct_planes[4 * f + 3] = r * inv;
    int px = sx > 0 ? 0 : 1, py = sy > 0 ? 2 : 3, pz = sz > 0 ? 4 : 5;
    oct_polys[n++] = 3;
    /* Counter-clockwise seen from outside. */
    if (sx * sy * sz > 0) { oct_polys[n++] = px; oct_polys[n++] = py; oct_polys[n++] = pz; }
    else { oct_polys[n++] = px; oct_polys[n++] = pz; oct_polys[n++] = py; }
  }
  return dCreateConvex(0, oct_planes, 8, oct_points, 6, oct_polys);
}

static void print_contacts(int n, const dContactGeom *c) {
  printf("n %d\n", n);
  for (int k = 0; k < n; k++)
    printf("c %a %a %a %a %a %a %a %d %d\n", c[k].pos[0], c[k].pos[1], c[k].pos[2], c[k].normal[0], c[k].normal[1],
           c[k].normal[2], c[k].depth, c[k].side1, c[k].side2);
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 40;
  dInitODE();
  (void)tm_icosphere; (void)tm_bowl; /* shared helpers this test does not use */
  setup_meshes();
  static const char *nname[3] = {"none", "unit", "tilted"};
  static const char *fname[4] = {"null+edges", "byte-positive", "byte-all", "word-all"};
  dGeomID ray = dCreateRay(0, 100);
  dGeomRaySet(ray, 0, 0, 50, 0, 0, -1);
  for (int mi = 0; mi < NMESH; mi++) {
    struct mesh *m = &M[mi];
    for (int nv = 0; nv < 3; nv++) {
      for (int f = 0; f < 4; f++) {
        dTriMeshDataID d = make_data(m, nv);
        dintptr extra[dTRIDATAPREPROCESS_BUILD__MAX] = {0};
        int ok;
        if (f == 0)
          ok = dGeomTriMeshDataPreprocess2(
              d, (1u << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES) | (1u << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES), NULL);
        else {
          extra[dTRIDATAPREPROCESS_BUILD_FACE_ANGLES] = f - 1;
          ok = dGeomTriMeshDataPreprocess2(d, 1u << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, extra);
        }
        dGeomID g = dCreateTriMesh(0, d, 0, 0, 0);
        dReal aabb[6];
        dGeomGetAABB(g, aabb);
        printf("mesh %s normals %s format %s preprocess %d\n", m->name, nname[nv], fname[f], ok);
        /* The same placements for every normals/format variant of a mesh. */
        lcg = 0x9E3779B97F4A7C15ULL + (unsigned long long)mi * 7919ULL;
        for (int trial = 0; trial < N; trial++) {
          double x = rr(aabb[0] + 0.05, aabb[1] - 0.05), y = rr(aabb[2] + 0.05, aabb[3] - 0.05);
          int shape = trial & 1;
          double size = rr(0.15, 0.45);
          double q[4] = {rr(-1, 1), rr(-1, 1), rr(-1, 1), rr(-1, 1)};
          double dz = rr(-0.4, 0.9);
          double s2 = rr(0.6, 1.0), s3 = rr(0.6, 1.0);
          dGeomRaySet(ray, x, y, aabb[5] + 1, 0, 0, -1);
          dGeomRaySetLength(ray, aabb[5] - aabb[4] + 2);
          dContactGeom c[32];
          int nh = dCollide(ray, g, 32, c, sizeof(dContactGeom));
          if (nh <= 0) { printf("t %d miss\n", trial); continue; }
          double top = c[0].pos[2];
          for (int k = 1; k < nh; k++) if (c[k].pos[2] > top) top = c[k].pos[2];
          dGeomID cv = shape ? make_octahedron(size * 1.3) : convex_box(size, size * s2, size * s3);
          double ql = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
          dQuaternion Q = {q[0] / ql, q[1] / ql, q[2] / ql, q[3] / ql};
          dGeomSetQuaternion(cv, Q);
          dGeomSetPosition(cv, x, y, top + dz * size);
          dReal cb[6];
          dGeomGetAABB(cv, cb); /* dCollide reads the stored box: refresh it */
          printf("t %d %d\n", trial, shape);
          print_contacts(dCollide(cv, g, 16, c, sizeof(dContactGeom)), c);
          print_contacts(dCollide(cv, g, 2, c, sizeof(dContactGeom)), c);
          dGeomDestroy(cv);
        }
        dGeomDestroy(g);
        dGeomTriMeshDataDestroy(d);
      }
    }
  }
  dGeomDestroy(ray);
  dCloseODE();
  printf("done\n");
  return 0;
}
