/* odexSpaceDraw / odexGeomDraw (ode/ode_ext.h): one geom of each class,
 * a transform, an offset geom on a body and a nested space; every callback
 * must receive the world placement ODE's own getters give (a transform's
 * child: the composition computed here), the right sizes and counts; NULL
 * entries are skipped; bad handles and a callback that tries to destroy a
 * geom during the walk are reported on the debug channel. */
#include <ode/ode_ext.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int failures = 0, reports = 0;
static char last[512];
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); failures++; } } while (0)

static void on_debug(int num, const char *msg, va_list ap)
{
  (void)num;
  vsnprintf(last, sizeof last, msg, ap);
  reports++;
}

#define EXPECT_REPORT(func, stmt) do { int r0 = reports; last[0] = 0; stmt; \
    CHECK(reports == r0 + 1 && strstr(last, func), "%s: expected one report, got %d: %s", func, reports - r0, last); } while (0)

/* The scene. */
static dGeomID box, sphere, capsule, cylinder, plane, ray, convex, trimesh, hfield, xform, xchild, offs, inner_cap;
static dBodyID body, body2;

enum { C_BOX, C_SPHERE, C_CAPSULE, C_CYLINDER, C_PLANE, C_RAY, C_CONVEX, C_TRIMESH, C_HFIELD, C_N };
static int calls[C_N];
static int seen_box, seen_child, seen_offs, seen_sphere, seen_inner;

/* Expected placement: what dGeomGetPosition/Rotation give for g. */
static void check_placement(const char *what, dGeomID g, const dReal *pos, const dReal *R)
{
  const dReal *p = dGeomGetPosition(g), *r = dGeomGetRotation(g);
  int i;
  for (i = 0; i < 3; i++) CHECK(pos[i] == p[i], "%s: pos[%d] %.17g != %.17g", what, i, pos[i], p[i]);
  for (i = 0; i < 12; i++)
    if (i % 4 != 3) CHECK(R[i] == r[i], "%s: R[%d] %.17g != %.17g", what, i, R[i], r[i]);
}

/* The child of `xform`: transform pose times the child's own pose. */
static void check_child_placement(const dReal *pos, const dReal *R)
{
  const dReal *tp = dGeomGetPosition(xform), *tr = dGeomGetRotation(xform);
  const dReal *cp = dGeomGetPosition(xchild), *cr = dGeomGetRotation(xchild);
  dVector3 p;
  dMatrix3 r;
  int i;
  dMultiply0_331(p, tr, cp);
  dMultiply0_333(r, tr, cr);
  for (i = 0; i < 3; i++)
    CHECK(fabs(pos[i] - (p[i] + tp[i])) < 1e-12, "child pos[%d] %.17g != %.17g", i, pos[i], p[i] + tp[i]);
  for (i = 0; i < 12; i++)
    if (i % 4 != 3) CHECK(fabs(R[i] - r[i]) < 1e-12, "child R[%d] %.17g != %.17g", i, R[i], r[i]);
}

static void cb_box(void *user, dGeomID g, const dReal *pos, const dReal *R, const dReal *sides)
{
  dVector3 s;
  CHECK(user == (void *)&calls, "user pointer");
  calls[C_BOX]++;
  dGeomBoxGetLengths(g, s);
  CHECK(sides[0] == s[0] && sides[1] == s[1] && sides[2] == s[2], "box sides");
  if (g == box) { seen_box++; check_placement("box", g, pos, R); }
  else if (g == xchild) { seen_child++; check_child_placement(pos, R); }
  else CHECK(0, "box callback for an unknown geom %p", (void *)g);
}

static void cb_sphere(void *user, dGeomID g, const dReal *pos, const dReal *R, dReal radius)
{
  (void)user;
  calls[C_SPHERE]++;
  CHECK(radius == dGeomSphereGetRadius(g), "sphere radius");
  if (g == sphere) seen_sphere++;
  else if (g == offs) seen_offs++;
  else CHECK(0, "sphere callback for an unknown geom");
  check_placement(g == offs ? "offset sphere" : "sphere", g, pos, R);
}

static void cb_capsule(void *user, dGeomID g, const dReal *pos, const dReal *R, dReal length, dReal radius)
{
  dReal r, l;
  (void)user;
  calls[C_CAPSULE]++;
  dGeomCapsuleGetParams(g, &r, &l);
  CHECK(radius == r && length == l, "capsule params");
  if (g == inner_cap) seen_inner++;
  check_placement("capsule", g, pos, R);
}

static void cb_cylinder(void *user, dGeomID g, const dReal *pos, const dReal *R, dReal length, dReal radius)
{
  dReal r, l;
  (void)user;
  calls[C_CYLINDER]++;
  dGeomCylinderGetParams(g, &r, &l);
  CHECK(g == cylinder && radius == r && length == l, "cylinder params");
  check_placement("cylinder", g, pos, R);
}

static void cb_plane(void *user, dGeomID g, const dReal *params)
{
  dVector4 p;
  (void)user;
  calls[C_PLANE]++;
  dGeomPlaneGetParams(g, p);
  CHECK(g == plane && params[0] == p[0] && params[1] == p[1] && params[2] == p[2] && params[3] == p[3], "plane");
}

static void cb_ray(void *user, dGeomID g, const dReal *start, const dReal *dir, dReal length)
{
  dVector3 s, d;
  int i;
  (void)user;
  calls[C_RAY]++;
  dGeomRayGet(g, s, d);
  CHECK(g == ray && length == dGeomRayGetLength(g), "ray length");
  for (i = 0; i < 3; i++) CHECK(start[i] == s[i] && dir[i] == d[i], "ray start/dir [%d]", i);
}

static dReal cvx_planes[] = {1, 0, 0, 0.5, -1, 0, 0, 0.5, 0, 1, 0, 0.5, 0, -1, 0, 0.5, 0, 0, 1, 0.5, 0, 0, -1, 0.5};
static dReal cvx_points[] = {0.5, 0.5, 0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, 0.5,
                             0.5, 0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, -0.5, 0.5, -0.5, -0.5};
static unsigned int cvx_polys[] = {4, 0, 3, 7, 4, 4, 1, 5, 6, 2, 4, 0, 4, 5, 1, 4, 3, 2, 6, 7, 4, 0, 1, 2, 3, 4, 4, 7, 6, 5};

static void cb_convex(void *user, dGeomID g, const dReal *pos, const dReal *R, const dReal *planes,
                      unsigned int plane_count, const dReal *points, unsigned int point_count,
                      const unsigned int *polygons)
{
  (void)user;
  calls[C_CONVEX]++;
  CHECK(g == convex && planes == cvx_planes && plane_count == 6 && points == cvx_points && point_count == 8 &&
        polygons == cvx_polys, "convex arrays");
  check_placement("convex", g, pos, R);
}

/* Two triangles, coordinates exact in single precision. */
static const double tm_verts[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5};
static const dTriIndex tm_idx[] = {0, 1, 2, 1, 3, 2};

static void cb_trimesh(void *user, dGeomID g, const dReal *pos, const dReal *R, const dReal *v, int n)
{
  int t, k, i;
  (void)user;
  calls[C_TRIMESH]++;
  CHECK(g == trimesh && n == 2, "trimesh: n = %d", n);
  for (t = 0; t < n && t < 2; t++)
    for (k = 0; k < 3; k++)
      for (i = 0; i < 3; i++)
        CHECK(v[9 * t + 3 * k + i] == tm_verts[3 * tm_idx[3 * t + k] + i], "trimesh vertex %d.%d.%d", t, k, i);
  check_placement("trimesh", g, pos, R);
}

/* 3 x 4 samples over 2 m x 3 m, scale 0.5, offset 1. */
static const double hf_samples[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};

static void cb_hfield(void *user, dGeomID g, const dReal *pos, const dReal *R, const dReal *v, int n)
{
  int i, found_max = 0;
  (void)user;
  calls[C_HFIELD]++;
  CHECK(g == hfield && n == 2 * 2 * 3, "heightfield: n = %d", n);
  /* Every vertex is a sample: x = i - 1 (sample width 1), z = j - 1.5
   * (sample depth 1), y = 0.5 * sample(i, j) + 1. */
  for (i = 0; i < 3 * n; i++) {
    double x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2];
    int xi = (int)lround(x + 1), zi = (int)lround(z + 1.5);
    CHECK(fabs(x - (xi - 1)) < 1e-12 && fabs(z - (zi - 1.5)) < 1e-12 && xi >= 0 && xi < 3 && zi >= 0 && zi < 4,
          "heightfield vertex %d off the grid: %g %g", i, x, z);
    if (xi >= 0 && xi < 3 && zi >= 0 && zi < 4)
      CHECK(fabs(y - (0.5 * hf_samples[xi + 3 * zi] + 1)) < 1e-12, "heightfield height at %d,%d: %g", xi, zi, y);
    if (xi == 2 && zi == 3) found_max++;
  }
  CHECK(found_max >= 1, "the far corner sample is drawn");
  /* Triangles face +y (counter-clockwise seen from above). */
  for (i = 0; i < n; i++) {
    const dReal *a = v + 9 * i, *b = a + 3, *c = a + 6;
    double ux = b[0] - a[0], uz = b[2] - a[2], wx = c[0] - a[0], wz = c[2] - a[2];
    CHECK(uz * wx - ux * wz > 0, "heightfield triangle %d faces down", i);
  }
  check_placement("heightfield", g, pos, R);
}

static const odexDrawCallbacks all_cb = {cb_box, cb_sphere, cb_capsule, cb_cylinder, cb_plane,
                                         cb_ray, cb_convex, cb_trimesh, cb_hfield};

/* A callback that tries to destroy geoms and spaces during the walk. */
static dSpaceID victim_space;
static int vandal_calls;
static void cb_vandal(void *user, dGeomID g, const dReal *pos, const dReal *R, dReal radius)
{
  (void)user; (void)pos; (void)R; (void)radius;
  vandal_calls++;
  EXPECT_REPORT("dGeomDestroy", dGeomDestroy(g));
  EXPECT_REPORT("dGeomDestroy", dGeomDestroy(box));
  EXPECT_REPORT("dSpaceDestroy", dSpaceDestroy(victim_space));
}

/* A callback that draws again from inside a walk. */
static int nested_inner;
static void cb_reenter(void *user, dGeomID g, const dReal *pos, const dReal *R, dReal radius)
{
  (void)user; (void)pos; (void)R; (void)radius;
  if (g == sphere) nested_inner += odexGeomDraw(box, &all_cb, (void *)&calls);
}

int main(void)
{
  dWorldID w;
  dSpaceID space, inner;
  dMatrix3 R;
  dTriMeshDataID tmd;
  dHeightfieldDataID hfd;
  int n, i, total;

  dInitODE2(0);
  dSetDebugHandler(on_debug);
  w = dWorldCreate();
  space = dHashSpaceCreate(0);
  inner = dSimpleSpaceCreate(space);

  box = dCreateBox(space, 1, 2, 3);
  dGeomSetPosition(box, 1, 2, 3);
  dRFromAxisAndAngle(R, 1, 2, 3, 0.7);
  dGeomSetRotation(box, R);
  dGeomDisable(box); /* disabled geoms are drawn too */

  sphere = dCreateSphere(space, 0.25);
  dGeomSetPosition(sphere, -1, 0.5, 2);

  capsule = dCreateCapsule(space, 0.2, 0.8);
  dGeomSetPosition(capsule, 0, -2, 1);
  dRFromAxisAndAngle(R, 0, 1, 0, 1.1);
  dGeomSetRotation(capsule, R);

  cylinder = dCreateCylinder(space, 0.3, 0.6);
  dGeomSetPosition(cylinder, 2, -1, 0.5);

  plane = dCreatePlane(space, 0, 0.6, 0.8, 0.25);

  ray = dCreateRay(space, 4);
  dGeomRaySet(ray, 1, 1, 1, 0, 0.6, -0.8);

  convex = dCreateConvex(space, cvx_planes, 6, cvx_points, 8, cvx_polys);
  dGeomSetPosition(convex, 3, 3, 1);
  dRFromEulerAngles(R, 0.1, 0.2, 0.3);
  dGeomSetRotation(convex, R);

  tmd = dGeomTriMeshDataCreate();
  dGeomTriMeshDataBuildDouble(tmd, tm_verts, 3 * sizeof(double), 4, tm_idx, 6, 3 * sizeof(dTriIndex));
  trimesh = dCreateTriMesh(space, tmd, 0, 0, 0);
  dGeomSetPosition(trimesh, -3, 1, 0.2);
  dRFromAxisAndAngle(R, 0, 0, 1, 0.4);
  dGeomSetRotation(trimesh, R);

  hfd = dGeomHeightfieldDataCreate();
  dGeomHeightfieldDataBuildDouble(hfd, hf_samples, 0, 2, 3, 3, 4, 0.5, 1, 0, 0);
  hfield = dCreateHeightfield(space, hfd, 1);
  dGeomSetPosition(hfield, 5, 5, 0);
  dRFromAxisAndAngle(R, 1, 0, 0, 1.5707963267948966); /* y up -> z up */
  dGeomSetRotation(hfield, R);

  /* A transform on a body, holding a box placed and turned in it. */
  body = dBodyCreate(w);
  dBodySetPosition(body, 0.5, -0.5, 2.5);
  dRFromAxisAndAngle(R, 0.3, 1, 0.2, 0.9);
  dBodySetRotation(body, R);
  xform = dCreateGeomTransform(space);
  dGeomTransformSetCleanup(xform, 1);
  xchild = dCreateBox(0, 0.4, 0.5, 0.6);
  dGeomSetPosition(xchild, 0.1, 0.2, 0.3);
  dRFromAxisAndAngle(R, 0, 0, 1, 0.5);
  dGeomSetRotation(xchild, R);
  dGeomTransformSetGeom(xform, xchild);
  dGeomSetBody(xform, body);

  /* A sphere on a second body with an offset. */
  body2 = dBodyCreate(w);
  dBodySetPosition(body2, -2, -2, 3);
  dRFromAxisAndAngle(R, 1, 1, 0, 0.6);
  dBodySetRotation(body2, R);
  offs = dCreateSphere(space, 0.15);
  dGeomSetBody(offs, body2);
  dGeomSetOffsetPosition(offs, 0.3, -0.2, 0.1);
  dRFromAxisAndAngle(R, 0, 1, 0, 0.3);
  dGeomSetOffsetRotation(offs, R);

  /* A capsule in a nested space. */
  inner_cap = dCreateCapsule(inner, 0.1, 0.3);
  dGeomSetPosition(inner_cap, 7, 0, 1);

  /* Move the body after the offset was set: the walk must see the new
   * placement (the offset pose is recomputed lazily). */
  dBodySetPosition(body2, -2.5, -2, 3.2);

  /* The whole tree. */
  memset(calls, 0, sizeof calls);
  n = odexSpaceDraw(space, &all_cb, (void *)&calls);
  total = 0;
  for (i = 0; i < C_N; i++) total += calls[i];
  CHECK(n == 12 && total == 12, "odexSpaceDraw drew %d (%d callbacks), expected 12", n, total);
  CHECK(calls[C_BOX] == 2 && calls[C_SPHERE] == 2 && calls[C_CAPSULE] == 2 && calls[C_CYLINDER] == 1 &&
        calls[C_PLANE] == 1 && calls[C_RAY] == 1 && calls[C_CONVEX] == 1 && calls[C_TRIMESH] == 1 &&
        calls[C_HFIELD] == 1, "per-class counts");
  CHECK(seen_box == 1 && seen_child == 1 && seen_offs == 1 && seen_sphere == 1 && seen_inner == 1,
        "each geom once (box %d, child %d, offset %d, sphere %d, nested %d)", seen_box, seen_child, seen_offs,
        seen_sphere, seen_inner);

  /* Again after the world moved (a warm walk), with NULL entries. */
  {
    odexDrawCallbacks some = all_cb;
    some.box = 0;
    some.trimesh = 0;
    some.heightfield = 0;
    dWorldStep(w, 0.01);
    memset(calls, 0, sizeof calls);
    seen_offs = 0;
    n = odexSpaceDraw(space, &some, (void *)&calls);
    CHECK(n == 8, "with NULL entries: %d drawn, expected 8", n);
    CHECK(calls[C_BOX] == 0 && seen_offs == 1, "NULL entries are skipped");
  }

  /* One geom; a transform gives its child; a nested space its tree. */
  memset(calls, 0, sizeof calls);
  seen_child = 0;
  CHECK(odexGeomDraw(xform, &all_cb, (void *)&calls) == 1 && seen_child == 1, "odexGeomDraw(transform)");
  CHECK(odexGeomDraw(sphere, &all_cb, (void *)&calls) == 1, "odexGeomDraw(sphere)");
  CHECK(odexGeomDraw((dGeomID)inner, &all_cb, (void *)&calls) == 1, "odexGeomDraw(nested space)");
  CHECK(odexSpaceDraw(inner, &all_cb, (void *)&calls) == 1, "odexSpaceDraw(nested space)");

  /* A walk from inside a callback. */
  {
    odexDrawCallbacks re = {0};
    re.sphere = cb_reenter;
    CHECK(odexSpaceDraw(space, &re, 0) == 2 && nested_inner == 1, "re-entrant walk (%d)", nested_inner);
  }

  /* Callbacks may not destroy: refused and reported, the walk goes on. */
  {
    odexDrawCallbacks vd = {0};
    vd.sphere = cb_vandal;
    victim_space = inner;
    n = odexSpaceDraw(space, &vd, 0);
    CHECK(n == 2 && vandal_calls == 2, "vandal walk: %d drawn, %d calls", n, vandal_calls);
    CHECK(dGeomGetClass(sphere) == dSphereClass && dGeomGetClass(box) == dBoxClass &&
          dSpaceGetNumGeoms(inner) == 1, "geoms survived");
    /* The lock is released afterwards. */
    dGeomSetPosition(sphere, -1, 0.5, 2.5);
    CHECK(dGeomGetPosition(sphere)[2] == 2.5, "space unlocked after the walk");
  }

  /* Bad input. */
  EXPECT_REPORT("odexSpaceDraw", CHECK(odexSpaceDraw(0, &all_cb, 0) == 0, "NULL space"));
  EXPECT_REPORT("odexSpaceDraw", CHECK(odexSpaceDraw((dSpaceID)box, &all_cb, 0) == 0, "geom as space"));
  EXPECT_REPORT("odexSpaceDraw", CHECK(odexSpaceDraw(space, 0, 0) == 0, "NULL callbacks"));
  EXPECT_REPORT("odexGeomDraw", CHECK(odexGeomDraw(0, &all_cb, 0) == 0, "NULL geom"));
  EXPECT_REPORT("odexGeomDraw", CHECK(odexGeomDraw(box, 0, 0) == 0, "NULL callbacks"));
  {
    dGeomID dead = dCreateSphere(0, 1);
    dSpaceID dead_space = dSimpleSpaceCreate(0);
    dGeomDestroy(dead);
    dSpaceDestroy(dead_space);
    EXPECT_REPORT("odexGeomDraw", CHECK(odexGeomDraw(dead, &all_cb, 0) == 0, "destroyed geom"));
    EXPECT_REPORT("odexSpaceDraw", CHECK(odexSpaceDraw(dead_space, &all_cb, 0) == 0, "destroyed space"));
  }

  dSpaceDestroy(space);
  dGeomTriMeshDataDestroy(tmd);
  dGeomHeightfieldDataDestroy(hfd);
  dWorldDestroy(w);
  dCloseODE();
  if (failures) {
    printf("%d failure(s)\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
