/* Which contacts the trimesh colliders keep when the caller's contact
 * limit is below the full set: the terrain, a flat 10 x 10 grid, the cube,
 * the icosphere and the bowl of tmesh_meshes.h, and a large two-triangle
 * quad where every shape meets one triangle only (each with and without
 * dGeomTriMeshDataPreprocess2 use flags and face angles) against spheres,
 * boxes, capsules, cylinders, rays, planes, convexes and a second mesh, at
 * random placements (a third of them resting on the terrain or the grid,
 * half of them with the other geom on a body),
 * collided in both argument orders with limits 1, 2, 3, 4, 8 and 64, and
 * 1 and 4 with CONTACTS_UNIMPORTANT. Prints every contact; run with
 * Debian's library and ours, compared by tests/collide_capped_contacts.rs.
 *
 * Output per case:
 *   case <index> <mesh> <flags?> <other kind> <resting?>
 *   n <order: 0 mesh first, 1 other first> <limit> <u?> <count>
 *   c pos[3] normal[3] depth side1 side2      (count lines)
 * Argument (optional): placements per mesh and kind. */
#include <stdio.h>
#include <stdlib.h>
#include "tmesh_meshes.h"
#include "convex_box.h"

#ifndef CONTACTS_UNIMPORTANT
#define CONTACTS_UNIMPORTANT 0x80000000
#endif

static unsigned long long lcg = 0x51ED2701F3A5C3B7ULL;
static double rnd(void) { lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL; return (double)(lcg >> 11) / 9007199254740992.0; }
static double rr(double a, double b) { return a + (b - a) * rnd(); }
static int ri(int n) { return (int)(rnd() * n) % n; }

/* Flat grid: 11 x 11 vertices over [-5, 5]^2 at z = 0, 200 triangles. */
static float grid_v[121][3];
static int grid_i[200 * 3];
static dTriMeshDataID tm_grid(void) {
  for (int j = 0; j <= 10; j++)
    for (int i = 0; i <= 10; i++) {
      grid_v[j * 11 + i][0] = (float)(i - 5);
      grid_v[j * 11 + i][1] = (float)(j - 5);
      grid_v[j * 11 + i][2] = 0;
    }
  int n = 0;
  for (int j = 0; j < 10; j++)
    for (int i = 0; i < 10; i++) {
      int a = j * 11 + i, b = a + 1, c = a + 11, d = c + 1;
      int T[6] = {a, b, d, a, d, c};
      for (int k = 0; k < 6; k++) grid_i[n++] = T[k];
    }
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(d, grid_v, 3 * sizeof(float), 121, grid_i, n, 3 * sizeof(int));
  return d;
}

/* Quad: two triangles over [-20, 20]^2 at z = 0, split along y = x. Shapes
 * placed far from the diagonal meet one triangle only, so which contacts
 * are kept does not depend on the order triangles are visited in. */
static float quad_v[4][3] = {{-20, -20, 0}, {20, -20, 0}, {20, 20, 0}, {-20, 20, 0}};
static int quad_i[6] = {0, 1, 2, 0, 2, 3};
static dTriMeshDataID tm_quad(void) {
  dTriMeshDataID d = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildSingle(d, quad_v, 3 * sizeof(float), 4, quad_i, 6, 3 * sizeof(int));
  return d;
}

enum { K_SPHERE, K_BOX, K_CAPSULE, K_CYLINDER, K_RAY, K_PLANE, K_CONVEX, K_MESH, NK };
static const char *kname[NK] = {"sphere", "box", "capsule", "cylinder", "ray", "plane", "convex", "mesh"};

static const int caps[] = {1, 2, 3, 4, 8, 64, (int)(1 | CONTACTS_UNIMPORTANT), (int)(4 | CONTACTS_UNIMPORTANT)};
#define NCAPS 8

static void run(dGeomID mesh, dGeomID o) {
  dContactGeom c[64];
  dReal aabb[6];
  dGeomGetAABB(mesh, aabb);
  dGeomGetAABB(o, aabb);
  for (int order = 0; order < 2; order++)
    for (int l = 0; l < NCAPS; l++) {
      memset(c, 0, sizeof c);
      int n = order ? dCollide(o, mesh, caps[l], c, sizeof(dContactGeom)) : dCollide(mesh, o, caps[l], c, sizeof(dContactGeom));
      printf("n %d %d %s %d\n", order, caps[l] & 0xffff, caps[l] & CONTACTS_UNIMPORTANT ? "u" : "-", n);
      for (int i = 0; i < n; i++)
        printf("c %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %d\n", c[i].pos[0], c[i].pos[1], c[i].pos[2],
               c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth, c[i].side1, c[i].side2);
    }
}

/* Surface height of mesh m under (x, y) for the resting placements. */
static double ground(int m, double x, double y) {
  if (m == 0) return tm_height(x, y);
  return 0;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 40;
  dInitODE();
  dWorldID world = dWorldCreate();
  enum { NM = 6 };
  static const char *mname[NM] = {"terrain", "grid", "cube", "icosphere", "bowl", "quad"};
  dTriMeshDataID data[2][NM];
  dGeomID mesh[2][NM];
  for (int f = 0; f < 2; f++) {
    data[f][0] = tm_terrain();
    data[f][1] = tm_grid();
    data[f][2] = tm_cube(1.0f);
    data[f][3] = tm_icosphere();
    data[f][4] = tm_bowl();
    data[f][5] = tm_quad();
    for (int m = 0; m < NM; m++) {
      if (f) dGeomTriMeshDataPreprocess2(data[f][m], (1u << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES) | (1u << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES), NULL);
      else dGeomTriMeshDataPreprocess2(data[f][m], 1u << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, NULL);
      mesh[f][m] = dCreateTriMesh(0, data[f][m], 0, 0, 0);
    }
  }
  /* the second mesh of mesh-mesh cases: a small icosphere body */
  dTriMeshDataID odata = tm_icosphere();
  const double ext[NM][3] = {{5, 5, 0.6}, {4.5, 4.5, 0.5}, {1.5, 1.5, 1.5}, {1.4, 1.4, 1.4}, {1.8, 1.8, 1.6}, {8, 8, 0.5}};
  int idx = 0;
  for (int m = 0; m < NM; m++)
    for (int f = 0; f < 2; f++)
      for (int k = 0; k < NK; k++)
        for (int i = 0; i < N; i++) {
          int resting = (m < 2 || m == 5) && ri(3) == 0 && k != K_PLANE && k != K_RAY;
          double p[3];
          dMatrix3 R;
          for (int j = 0; j < 3; j++) p[j] = rr(-ext[m][j], ext[m][j]);
          if (m == 0) p[2] += tm_height(p[0], p[1]);
          if (m == 4) p[2] += 0.24 * (p[0] * p[0] + p[1] * p[1]);
          if (m == 5) {
            /* at least 3 away from the diagonal y = x */
            p[1] = p[0] + (ri(2) ? 1 : -1) * rr(3, 10);
            if (fabs(p[1]) > 15) p[1] = p[1] > 0 ? 15 : -15;
          }
          dRFromAxisAndAngle(R, rr(-1, 1), rr(-1, 1), rr(-1, 1) + 1e-3, rr(-3.14, 3.14));
          double hz = 0;
          dGeomID o = 0;
          switch (k) {
          case K_SPHERE: hz = rr(0.1, 0.7); o = dCreateSphere(0, hz); break;
          case K_BOX: {
            double l[3] = {rr(0.2, 1.4), rr(0.2, 1.4), rr(0.2, 1.0)};
            hz = 0.5 * l[2];
            o = dCreateBox(0, l[0], l[1], l[2]);
            break;
          }
          case K_CAPSULE: {
            double r = rr(0.1, 0.5), l = rr(0.2, 1.5);
            hz = r;
            o = dCreateCapsule(0, r, l);
            break;
          }
          case K_CYLINDER: {
            double r = rr(0.15, 0.6), l = rr(0.2, 1.2);
            hz = 0.5 * l;
            o = dCreateCylinder(0, r, l);
            break;
          }
          case K_RAY:
            o = dCreateRay(0, rr(0.5, 4));
            dGeomRaySetFirstContact(o, ri(2));
            dGeomRaySetBackfaceCull(o, ri(2));
            dGeomRaySetClosestHit(o, ri(3) == 0);
            break;
          case K_PLANE: {
            double nz = rr(0.3, 1), nx = rr(-1, 1), ny = rr(-1, 1), l = sqrt(nx * nx + ny * ny + nz * nz);
            if (ri(2)) nz = -nz;
            o = dCreatePlane(0, nx / l, ny / l, nz / l, rr(-1, 1));
            break;
          }
          case K_CONVEX: hz = 0.25; o = convex_box(0.4, 0.3, 0.25); break;
          case K_MESH: hz = 1; o = dCreateTriMesh(0, odata, 0, 0, 0); break;
          }
          if (resting) {
            /* flat on the surface (yawed, sometimes slightly tilted), sunk a little */
            double yaw = rr(-3.14, 3.14), sink = rr(0, 0.03) * (ri(4) ? 1 : 0);
            if (k == K_CAPSULE) dRFromEulerAngles(R, 1.5707963267948966, rr(-0.05, 0.05) * ri(2), yaw);
            else dRFromEulerAngles(R, rr(-0.05, 0.05) * ri(2), rr(-0.05, 0.05) * ri(2), yaw);
            p[2] = ground(m, p[0], p[1]) + hz - sink;
          }
          dBodyID body = 0;
          if (k != K_PLANE) {
            dGeomSetPosition(o, p[0], p[1], p[2]);
            dGeomSetRotation(o, R);
            /* half on a body: colliders that read the geom's quaternion
             * (cylinder, convex) then get the body's own */
            if (ri(2)) {
              dQuaternion q;
              body = dBodyCreate(world);
              dRtoQ(R, q);
              dBodySetPosition(body, p[0], p[1], p[2]);
              dBodySetQuaternion(body, q);
              dGeomSetBody(o, body);
            }
          }
          printf("case %d %s %d %s %d\n", idx++, mname[m], f, kname[k], resting);
          run(mesh[f][m], o);
          dGeomDestroy(o);
          if (body) dBodyDestroy(body);
        }
  printf("done\n");
  dWorldDestroy(world);
  dCloseODE();
  return 0;
}
