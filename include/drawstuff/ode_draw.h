/* Draws an ODE space with drawstuff: odexDrawCallbacks (ode/ode_ext.h)
 * implemented with drawstuff's dsDraw* functions. Header only (static
 * inline functions); needs this project's libode (odexSpaceDraw) and a
 * drawstuff library (ours, or any with ODE 0.16.2's drawstuff API).
 *
 * In a drawstuff step callback:
 *
 *     dsSetColor(1, 0.8, 0.3);
 *     dsodeDrawSpace(space);          // every geom, in the current colour
 *
 * Shapes use the current colour, texture and draw mode, so a program can
 * colour per geom with its own odexDrawCallbacks table built from the
 * dsode* functions below, or by drawing sub-spaces one at a time.
 * - box, sphere, capsule, cylinder, convex: dsDraw{Box,Sphere,Capsule,
 *   Cylinder,Convex} at the geom's world placement;
 * - trimesh and heightfield: dsDrawTriangles (solid);
 * - ray: a line from its start to its end (dsDrawLine);
 * - plane: the plane z = 0 with normal +z is not drawn (drawstuff's ground
 *   is already there); any other plane is drawn as a thin square box,
 *   DSODE_PLANE_SIZE (default 10) wide and DSODE_PLANE_THICKNESS (default
 *   0.01) thick, whose upper face lies in the plane, centred on the plane's
 *   point nearest to the origin. Define DSODE_PLANE_SIZE as 0 to draw no
 *   planes.
 * Disabled geoms are drawn like the others (odexSpaceDraw's rule).
 */
#ifndef _DRAWSTUFF_ODE_DRAW_H_
#define _DRAWSTUFF_ODE_DRAW_H_

#include <math.h>
#include <ode/ode.h>
#include <ode/ode_ext.h>
#include <drawstuff/drawstuff.h>

#ifndef DSODE_PLANE_SIZE
#define DSODE_PLANE_SIZE 10.0
#endif
#ifndef DSODE_PLANE_THICKNESS
#define DSODE_PLANE_THICKNESS 0.01
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* dReal is double in a dDOUBLE build (this library's), float otherwise. */
#ifdef dDOUBLE
#define DSODE_(name) name##D
#else
#define DSODE_(name) name
#endif

static inline void dsodeBox(void *user, dGeomID g, const dReal *pos, const dReal *R, const dReal *sides)
{
  (void)user; (void)g;
  DSODE_(dsDrawBox)(pos, R, sides);
}

static inline void dsodeSphere(void *user, dGeomID g, const dReal *pos, const dReal *R, dReal radius)
{
  (void)user; (void)g;
  DSODE_(dsDrawSphere)(pos, R, (float)radius);
}

static inline void dsodeCapsule(void *user, dGeomID g, const dReal *pos, const dReal *R, dReal length, dReal radius)
{
  (void)user; (void)g;
  DSODE_(dsDrawCapsule)(pos, R, (float)length, (float)radius);
}

static inline void dsodeCylinder(void *user, dGeomID g, const dReal *pos, const dReal *R, dReal length, dReal radius)
{
  (void)user; (void)g;
  DSODE_(dsDrawCylinder)(pos, R, (float)length, (float)radius);
}

static inline void dsodePlane(void *user, dGeomID g, const dReal *p)
{
  dReal a[3], u[3], v[3], pos[3], R[12], sides[3], len;
  const dReal h = (dReal)DSODE_PLANE_THICKNESS / 2;
  (void)user; (void)g;
  if (!(DSODE_PLANE_SIZE > 0)) return;
  if (p[0] == 0 && p[1] == 0 && p[2] == 1 && p[3] == 0) return; /* drawstuff's ground */
  /* u, v: two unit vectors in the plane; the box's z axis is the normal. */
  a[0] = 0; a[1] = 0; a[2] = 1;
  if (fabs(p[2]) > 0.9) { a[0] = 1; a[2] = 0; }
  u[0] = a[1] * p[2] - a[2] * p[1];
  u[1] = a[2] * p[0] - a[0] * p[2];
  u[2] = a[0] * p[1] - a[1] * p[0];
  len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  u[0] /= len; u[1] /= len; u[2] /= len;
  v[0] = p[1] * u[2] - p[2] * u[1];
  v[1] = p[2] * u[0] - p[0] * u[2];
  v[2] = p[0] * u[1] - p[1] * u[0];
  R[0] = u[0]; R[1] = v[0]; R[2] = p[0]; R[3] = 0;
  R[4] = u[1]; R[5] = v[1]; R[6] = p[1]; R[7] = 0;
  R[8] = u[2]; R[9] = v[2]; R[10] = p[2]; R[11] = 0;
  pos[0] = p[0] * (p[3] - h); pos[1] = p[1] * (p[3] - h); pos[2] = p[2] * (p[3] - h);
  sides[0] = sides[1] = (dReal)DSODE_PLANE_SIZE;
  sides[2] = (dReal)DSODE_PLANE_THICKNESS;
  DSODE_(dsDrawBox)(pos, R, sides);
}

static inline void dsodeRay(void *user, dGeomID g, const dReal *start, const dReal *dir, dReal length)
{
  dReal end[3];
  (void)user; (void)g;
  end[0] = start[0] + dir[0] * length;
  end[1] = start[1] + dir[1] * length;
  end[2] = start[2] + dir[2] * length;
  DSODE_(dsDrawLine)(start, end);
}

static inline void dsodeConvex(void *user, dGeomID g, const dReal *pos, const dReal *R, const dReal *planes,
                               unsigned int plane_count, const dReal *points, unsigned int point_count,
                               const unsigned int *polygons)
{
  (void)user; (void)g;
  DSODE_(dsDrawConvex)(pos, R, planes, plane_count, points, point_count, polygons);
}

static inline void dsodeTriangles(void *user, dGeomID g, const dReal *pos, const dReal *R, const dReal *v, int n)
{
  (void)user; (void)g;
  if (n > 0) DSODE_(dsDrawTriangles)(pos, R, v, n, 1);
}

/* The table (one per translation unit). */
static inline const odexDrawCallbacks *dsodeDrawCallbacks(void)
{
  static const odexDrawCallbacks cb = {
    dsodeBox, dsodeSphere, dsodeCapsule, dsodeCylinder, dsodePlane,
    dsodeRay, dsodeConvex, dsodeTriangles, dsodeTriangles
  };
  return &cb;
}

/* Draws every geom of `space` and its nested spaces; returns how many. */
static inline int dsodeDrawSpace(dSpaceID space)
{
  return odexSpaceDraw(space, dsodeDrawCallbacks(), 0);
}

/* Draws one geom (a space: its whole tree); returns how many shapes. */
static inline int dsodeDrawGeom(dGeomID geom)
{
  return odexGeomDraw(geom, dsodeDrawCallbacks(), 0);
}

#undef DSODE_

#ifdef __cplusplus
}
#endif

#endif /* _DRAWSTUFF_ODE_DRAW_H_ */
