/* include/drawstuff/ode_draw.h maps odexSpaceDraw's callbacks to the right
 * dsDraw* calls with the right arguments. The dsDraw* functions are
 * recorded here instead of drawn (no libdrawstuff, no GL): sizes and
 * argument order, a ray as a line to its end, the ground plane left out,
 * any other plane as a thin box whose upper face lies in the plane. */
#include <drawstuff/ode_draw.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); failures++; } } while (0)

/* The recorded calls. */
static int n_box, n_sphere, n_capsule, n_cylinder, n_line, n_tris, n_convex;
static double box_pos[3], box_R[12], box_sides[3], line_a[3], line_b[3], cap_len, cap_rad, cyl_len, cyl_rad;
static int tris_n, tris_solid;

void dsDrawBoxD(const double pos[3], const double R[12], const double sides[3])
{
  n_box++;
  memcpy(box_pos, pos, sizeof box_pos);
  memcpy(box_R, R, sizeof box_R);
  memcpy(box_sides, sides, sizeof box_sides);
}
void dsDrawSphereD(const double pos[3], const double R[12], const float radius)
{
  (void)pos; (void)R;
  n_sphere++;
  CHECK(radius == 0.25f, "sphere radius %g", radius);
}
void dsDrawCapsuleD(const double pos[3], const double R[12], float length, float radius)
{
  (void)pos; (void)R;
  n_capsule++; cap_len = length; cap_rad = radius;
}
void dsDrawCylinderD(const double pos[3], const double R[12], float length, float radius)
{
  (void)pos; (void)R;
  n_cylinder++; cyl_len = length; cyl_rad = radius;
}
void dsDrawLineD(const double a[3], const double b[3])
{
  n_line++;
  memcpy(line_a, a, sizeof line_a);
  memcpy(line_b, b, sizeof line_b);
}
void dsDrawTrianglesD(const double pos[3], const double R[12], const double *v, const int n, int solid)
{
  (void)pos; (void)R; (void)v;
  n_tris++; tris_n = n; tris_solid = solid;
}
void dsDrawConvexD(const double pos[3], const double R[12], const double *planes, unsigned int planecount,
                   const double *points, unsigned int pointcount, const unsigned int *polygons)
{
  (void)pos; (void)R; (void)planes; (void)points; (void)polygons;
  n_convex++;
  CHECK(planecount == 1 && pointcount == 3, "convex counts");
}

int main(void)
{
  dSpaceID space;
  dGeomID ground, tilted, ray, g;
  dTriMeshDataID tmd;
  static const double verts[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  static const dTriIndex idx[] = {0, 1, 2};
  static dReal planes[] = {0, 0, 1, 0};
  static dReal points[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  static unsigned int polys[] = {3, 0, 1, 2};
  int i, n;

  dInitODE2(0);
  space = dSimpleSpaceCreate(0);
  ground = dCreatePlane(space, 0, 0, 1, 0);
  dCreateSphere(space, 0.25);
  dCreateCapsule(space, 0.1, 0.7);   /* radius, length */
  dCreateCylinder(space, 0.2, 0.9);
  ray = dCreateRay(space, 2);
  dGeomRaySet(ray, 1, 2, 3, 0, 0.6, 0.8);
  dCreateConvex(space, planes, 1, points, 3, polys);
  tmd = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildDouble(tmd, verts, 3 * sizeof(double), 3, idx, 3, 3 * sizeof(dTriIndex));
  dCreateTriMesh(space, tmd, 0, 0, 0);

  n = dsodeDrawSpace(space);
  CHECK(n == 7, "%d geoms drawn, expected 7", n);
  CHECK(n_box == 0, "the ground plane is drawstuff's: no box for it");
  CHECK(n_sphere == 1 && n_capsule == 1 && n_cylinder == 1 && n_line == 1 && n_tris == 1 && n_convex == 1,
        "one call per geom");
  CHECK(fabs(cap_len - 0.7) < 1e-6 && fabs(cap_rad - 0.1) < 1e-6, "capsule length %g radius %g", cap_len, cap_rad);
  CHECK(fabs(cyl_len - 0.9) < 1e-6 && fabs(cyl_rad - 0.2) < 1e-6, "cylinder length %g radius %g", cyl_len, cyl_rad);
  CHECK(line_a[0] == 1 && line_a[1] == 2 && line_a[2] == 3, "ray start");
  CHECK(fabs(line_b[0] - 1) < 1e-12 && fabs(line_b[1] - 3.2) < 1e-12 && fabs(line_b[2] - 4.6) < 1e-12,
        "ray end %g %g %g", line_b[0], line_b[1], line_b[2]);
  CHECK(tris_n == 1 && tris_solid == 1, "trimesh: %d triangles, solid %d", tris_n, tris_solid);

  /* A tilted plane: a thin box, z axis along the normal, upper face in
   * the plane, centred on the plane's point nearest the origin. */
  tilted = dCreatePlane(0, 0, 0.6, 0.8, 2);
  g = tilted;
  n_box = 0;
  CHECK(dsodeDrawGeom(g) == 1 && n_box == 1, "tilted plane drawn as one box");
  {
    const double nrm[3] = {0, 0.6, 0.8};
    double top[3], dot_uv, len_u, len_v;
    CHECK(box_sides[0] == DSODE_PLANE_SIZE && box_sides[1] == DSODE_PLANE_SIZE &&
          box_sides[2] == DSODE_PLANE_THICKNESS, "plane box sides");
    for (i = 0; i < 3; i++) CHECK(fabs(box_R[4 * i + 2] - nrm[i]) < 1e-12, "box z axis = normal (%d)", i);
    dot_uv = len_u = len_v = 0;
    for (i = 0; i < 3; i++) {
      dot_uv += box_R[4 * i] * box_R[4 * i + 1];
      len_u += box_R[4 * i] * box_R[4 * i];
      len_v += box_R[4 * i + 1] * box_R[4 * i + 1];
    }
    CHECK(fabs(dot_uv) < 1e-12 && fabs(len_u - 1) < 1e-12 && fabs(len_v - 1) < 1e-12, "in-plane axes orthonormal");
    CHECK(fabs(box_R[0] * nrm[0] + box_R[4] * nrm[1] + box_R[8] * nrm[2]) < 1e-12, "x axis in the plane");
    /* Right-handed: det(R) = 1. */
    CHECK(fabs(box_R[0] * (box_R[5] * box_R[10] - box_R[6] * box_R[9]) -
               box_R[1] * (box_R[4] * box_R[10] - box_R[6] * box_R[8]) +
               box_R[2] * (box_R[4] * box_R[9] - box_R[5] * box_R[8]) - 1) < 1e-12, "rotation");
    for (i = 0; i < 3; i++) top[i] = box_pos[i] + nrm[i] * DSODE_PLANE_THICKNESS / 2;
    CHECK(fabs(top[0] * nrm[0] + top[1] * nrm[1] + top[2] * nrm[2] - 2) < 1e-12, "upper face in the plane");
    CHECK(fabs(box_pos[0]) < 1e-12 && fabs(box_pos[1] / box_pos[2] - 0.75) < 1e-12, "centred on the normal");
  }
  (void)ground;

  dGeomDestroy(tilted);
  dSpaceDestroy(space);
  dGeomTriMeshDataDestroy(tmd);
  dCloseODE();
  if (failures) {
    printf("%d failure(s)\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
