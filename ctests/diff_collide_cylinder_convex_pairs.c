/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* Differential test of the cylinder and convex pair colliders through the
 * public API (dCreateCylinder, dCreateConvex, dCollide in both argument
 * orders, CONTACTS_UNIMPORTANT, small contact limits, a dContact-strided
 * buffer). Needs the geom objects and dCollide dispatch of our library;
 * the pure colliders are checked against the same placements by
 * tests/collide_cyl_*.rs. Prints every contact; compared between Debian's
 * libode.so.8 and ours. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static double urand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static double srand1(double s) { return (2.0 * urand() - 1.0) * s; }

static void place(dGeomID g, double spread) {
    if (dGeomGetClass(g) == dPlaneClass) return;
    dQuaternion q = { srand1(1), srand1(1), srand1(1), srand1(1) };
    if (urand() < 0.15) { q[0] = 1; q[1] = q[2] = q[3] = 0; }
    dNormalize4(q);
    dGeomSetQuaternion(g, q);
    dGeomSetPosition(g, srand1(spread), srand1(spread), srand1(spread));
}

/* box 1 x 0.8 x 0.6 and an octahedron, as convex shapes */
static dReal box_planes[] = { 0,0,-1,0.3, 0,0,1,0.3, 0,-1,0,0.4, 0,1,0,0.4, -1,0,0,0.5, 1,0,0,0.5 };
static dReal box_points[24];
static unsigned int box_poly[] = { 4,0,2,3,1, 4,4,5,7,6, 4,0,1,5,4, 4,2,6,7,3, 4,0,4,6,2, 4,1,3,7,5 };
static dReal oct_points[] = { 0.5,0,0, -0.5,0,0, 0,0.5,0, 0,-0.5,0, 0,0,0.8, 0,0,-0.8 };
static unsigned int oct_poly[] = { 3,0,2,4, 3,2,1,4, 3,1,3,4, 3,3,0,4, 3,2,0,5, 3,1,2,5, 3,3,1,5, 3,0,3,5 };
static dReal oct_planes[32];

static void init_shapes(void) {
    for (int i = 0; i < 8; i++) {
        box_points[3*i] = (i & 1) ? 0.5 : -0.5; box_points[3*i+1] = (i & 2) ? 0.4 : -0.4; box_points[3*i+2] = (i & 4) ? 0.3 : -0.3;
    }
    for (int f = 0; f < 8; f++) {
        const dReal *a = oct_points + 3 * oct_poly[4*f+1], *b = oct_points + 3 * oct_poly[4*f+2], *c = oct_points + 3 * oct_poly[4*f+3];
        dVector3 u = { b[0]-a[0], b[1]-a[1], b[2]-a[2] }, v = { c[0]-a[0], c[1]-a[1], c[2]-a[2] }, n;
        dCalcVectorCross3(n, u, v);
        dSafeNormalize3(n);
        oct_planes[4*f] = n[0]; oct_planes[4*f+1] = n[1]; oct_planes[4*f+2] = n[2];
        oct_planes[4*f+3] = dCalcVectorDot3(n, a);
    }
}

static dGeomID make(int kind) {
    switch (kind) {
    case 0: return dCreateCylinder(0, 0.1 + 0.8 * urand(), 0.1 + 1.5 * urand());
    case 1: return dCreateSphere(0, 0.1 + urand());
    case 2: return dCreateBox(0, 0.1 + 1.5 * urand(), 0.1 + 1.5 * urand(), 0.1 + 1.5 * urand());
    case 3: return dCreateCapsule(0, 0.1 + 0.6 * urand(), 0.1 + 1.5 * urand());
    case 4: return dCreatePlane(0, srand1(1), srand1(1), 1, srand1(0.5));
    case 5: return dCreateRay(0, 0.2 + 3 * urand());
    case 6: return urand() < 0.5 ? dCreateConvex(0, box_planes, 6, box_points, 8, box_poly)
                                 : dCreateConvex(0, oct_planes, 8, oct_points, 6, oct_poly);
    }
    return 0;
}

static void run(int ka, int kb, int n) {
    dContact c[16];
    for (int i = 0; i < n; i++) {
        dGeomID a = make(ka), b = make(kb);
        place(a, 0.3); place(b, 0.8);
        if (ka == 5) dGeomRaySet(a, srand1(1.5), srand1(1.5), srand1(1.5), srand1(1), srand1(1), srand1(1) + 0.01);
        int flags = (i % 7 == 0) ? 1 : (i % 7 == 1) ? 2 : 16;
        for (int order = 0; order < 2; order++) {
            dGeomID g1 = order ? b : a, g2 = order ? a : b;
            memset(c, 0, sizeof c);
            int k = dCollide(g1, g2, flags, &c[0].geom, sizeof(dContact));
            printf("pair %d %d #%d order %d flags %d -> %d\n", ka, kb, i, order, flags, k);
            for (int j = 0; j < k; j++) {
                dContactGeom *g = &c[j].geom;
                printf("  %.12g %.12g %.12g  n %.12g %.12g %.12g  d %.12g  g %d %d  s %d %d\n",
                       g->pos[0], g->pos[1], g->pos[2], g->normal[0], g->normal[1], g->normal[2], g->depth,
                       g->g1 == g1 ? 1 : g->g1 == g2 ? 2 : 0, g->g2 == g2 ? 2 : g->g2 == g1 ? 1 : 0,
                       g->side1, g->side2);
            }
        }
        /* CONTACTS_UNIMPORTANT: only the count is defined for the libccd pairs */
        int k = dCollide(a, b, 1 | CONTACTS_UNIMPORTANT, &c[0].geom, sizeof(dContact));
        printf("  unimportant -> %d\n", k);
        dGeomDestroy(a); dGeomDestroy(b);
    }
}

int main(void) {
    dInitODE2(0);
    init_shapes();
    /* cylinder with sphere, box, plane, ray, capsule; convex with plane,
     * ray, sphere, box, capsule, cylinder, convex */
    static const int pairs[][2] = { {0,1}, {0,2}, {0,4}, {5,0}, {3,0}, {6,4}, {5,6}, {6,1}, {6,2}, {6,3}, {6,0}, {6,6} };
    for (unsigned p = 0; p < sizeof pairs / sizeof pairs[0]; p++) run(pairs[p][0], pairs[p][1], 150);
    dCloseODE();
    return 0;
}
