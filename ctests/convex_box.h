/* A box of half sizes a, b, c as a convex geom (dCreateConvex), for the
 * tests that collide convexes with meshes. ODE keeps pointers to the
 * planes, points and polygons rather than copies, so they live in these
 * static arrays: each call refills them, and every box made earlier takes
 * the new sizes (the tests use one box at a time). */
#ifndef CTESTS_CONVEX_BOX_H
#define CTESTS_CONVEX_BOX_H

#include <ode/ode.h>

static dReal convex_box_planes[24];
static dReal convex_box_points[24];
/* Six quads; point i has coordinate k at +h[k] when bit k of i is set. */
static unsigned convex_box_polys[30] = {4, 1, 3, 7, 5, 4, 0, 4, 6, 2, 4, 2, 6, 7, 3, 4, 0, 1, 5, 4, 4, 4, 5, 7, 6, 4, 0, 2, 3, 1};

static dGeomID convex_box(double a, double b, double c) {
  double h[3] = {a, b, c};
  for (int i = 0; i < 8; i++)
    for (int k = 0; k < 3; k++) convex_box_points[3 * i + k] = (i >> k) & 1 ? h[k] : -h[k];
  for (int f = 0; f < 6; f++) {
    int k = f / 2;
    for (int j = 0; j < 3; j++) convex_box_planes[4 * f + j] = 0;
    convex_box_planes[4 * f + k] = f % 2 ? -1 : 1;
    convex_box_planes[4 * f + 3] = h[k];
  }
  return dCreateConvex(0, convex_box_planes, 6, convex_box_points, 8, convex_box_polys);
}

#endif
