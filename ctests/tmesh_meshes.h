/* Meshes shared by the trimesh C tests: a cube (floats, packed), an
 * icosphere (doubles, dVector3 stride), a terrain grid (floats with user
 * data in each vertex and triangle record) and a non-convex open bowl
 * (doubles, packed). Each builder fills static arrays and a data object. */
#include <ode/ode.h>
#include <math.h>
#include <string.h>

static float cube_v[8][3];
static int cube_i[36];
static dTriMeshDataID tm_cube(float h) {
  static const int I[36] = {0,2,1,0,3,2, 4,5,6,4,6,7, 0,1,5,0,5,4, 1,2,6,1,6,5, 2,3,7,2,7,6, 3,0,4,3,4,7};
  for (int i = 0; i < 8; i++) {
    cube_v[i][0] = (i == 1 || i == 2 || i == 5 || i == 6) ? h : -h;
    cube_v[i][1] = (i == 2 || i == 3 || i == 6 || i == 7) ? h : -h;
    cube_v[i][2] = i >= 4 ? h : -h;
  }
  memcpy(cube_i, I, sizeof I);
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(d, cube_v, 3 * sizeof(float), 8, cube_i, 36, 3 * sizeof(int));
  return d;
}

/* Icosphere of radius 1, one subdivision (80 triangles, 42 vertices). */
static dVector3 ico_v[64];
static int ico_i[80 * 3];
static int ico_nv;
static int ico_mid(int a, int b) {
  double p[3];
  for (int k = 0; k < 3; k++) p[k] = 0.5 * (ico_v[a][k] + ico_v[b][k]);
  double l = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  for (int k = 0; k < 3; k++) p[k] /= l;
  for (int i = 0; i < ico_nv; i++)
    if (fabs(ico_v[i][0] - p[0]) < 1e-12 && fabs(ico_v[i][1] - p[1]) < 1e-12 && fabs(ico_v[i][2] - p[2]) < 1e-12) return i;
  for (int k = 0; k < 3; k++) ico_v[ico_nv][k] = p[k];
  ico_v[ico_nv][3] = 0;
  return ico_nv++;
}
static dTriMeshDataID tm_icosphere(void) {
  const double t = (1.0 + sqrt(5.0)) / 2.0;
  const double P[12][3] = {{-1,t,0},{1,t,0},{-1,-t,0},{1,-t,0},{0,-1,t},{0,1,t},{0,-1,-t},{0,1,-t},{t,0,-1},{t,0,1},{-t,0,-1},{-t,0,1}};
  const int F[20][3] = {{0,11,5},{0,5,1},{0,1,7},{0,7,10},{0,10,11},{1,5,9},{5,11,4},{11,10,2},{10,7,6},{7,1,8},
                        {3,9,4},{3,4,2},{3,2,6},{3,6,8},{3,8,9},{4,9,5},{2,4,11},{6,2,10},{8,6,7},{9,8,1}};
  ico_nv = 12;
  for (int i = 0; i < 12; i++) {
    double l = sqrt(P[i][0] * P[i][0] + P[i][1] * P[i][1] + P[i][2] * P[i][2]);
    for (int k = 0; k < 3; k++) ico_v[i][k] = P[i][k] / l;
    ico_v[i][3] = 0;
  }
  int n = 0;
  for (int f = 0; f < 20; f++) {
    int a = F[f][0], b = F[f][1], c = F[f][2];
    int ab = ico_mid(a, b), bc = ico_mid(b, c), ca = ico_mid(c, a);
    int T[4][3] = {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}};
    for (int k = 0; k < 4; k++) for (int j = 0; j < 3; j++) ico_i[n++] = T[k][j];
  }
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildDouble(d, ico_v, sizeof(dVector3), ico_nv, ico_i, 240, 3 * sizeof(int));
  return d;
}

/* Terrain: (G+1)^2 vertices over [-G/2, G/2]^2 (cell 1), rolling heights. */
#define TM_G 12
struct tvert { float p[3]; int user; };
struct ttri { int i[3]; float user; };
static struct tvert ter_v[(TM_G + 1) * (TM_G + 1)];
static struct ttri ter_t[TM_G * TM_G * 2];
static double tm_height(double x, double y) { return 0.35 * sin(0.9 * x) * cos(0.7 * y) + 0.05 * x; }
static dTriMeshDataID tm_terrain(void) {
  for (int j = 0; j <= TM_G; j++)
    for (int i = 0; i <= TM_G; i++) {
      struct tvert *v = &ter_v[j * (TM_G + 1) + i];
      v->p[0] = (float)(i - TM_G / 2);
      v->p[1] = (float)(j - TM_G / 2);
      v->p[2] = (float)tm_height(v->p[0], v->p[1]);
      v->user = -7;
    }
  int n = 0;
  for (int j = 0; j < TM_G; j++)
    for (int i = 0; i < TM_G; i++) {
      int a = j * (TM_G + 1) + i, b = a + 1, c = a + TM_G + 1, d = c + 1;
      ter_t[n].i[0] = a; ter_t[n].i[1] = b; ter_t[n].i[2] = d; ter_t[n++].user = 1.5f;
      ter_t[n].i[0] = a; ter_t[n].i[1] = d; ter_t[n].i[2] = c; ter_t[n++].user = 2.5f;
    }
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(d, ter_v, sizeof(struct tvert), (TM_G + 1) * (TM_G + 1), ter_t, n * 3, sizeof(struct ttri));
  return d;
}

/* Bowl: z = 0.4 r^2 over a 9x9 grid on [-2, 2]^2, faces up (inside). */
#define TM_B 8
static double bowl_v[(TM_B + 1) * (TM_B + 1)][3];
static int bowl_i[TM_B * TM_B * 6];
static dTriMeshDataID tm_bowl(void) {
  for (int j = 0; j <= TM_B; j++)
    for (int i = 0; i <= TM_B; i++) {
      double x = -2.0 + 4.0 * i / TM_B, y = -2.0 + 4.0 * j / TM_B;
      double *v = bowl_v[j * (TM_B + 1) + i];
      v[0] = x; v[1] = y; v[2] = 0.4 * (x * x + y * y);
    }
  int n = 0;
  for (int j = 0; j < TM_B; j++)
    for (int i = 0; i < TM_B; i++) {
      int a = j * (TM_B + 1) + i, b = a + 1, c = a + TM_B + 1, d = c + 1;
      int T[6] = {a, b, d, a, d, c};
      for (int k = 0; k < 6; k++) bowl_i[n++] = T[k];
    }
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildDouble(d, bowl_v, 3 * sizeof(double), (TM_B + 1) * (TM_B + 1), bowl_i, n, 3 * sizeof(int));
  return d;
}
