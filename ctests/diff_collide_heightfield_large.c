/* DIFF-TOL rel=0 abs=0 */
/* Heightfields against geoms much larger than a cell: wrapped fields under
 * spheres, boxes, capsules and cylinders of size 30 to 400 lying entirely
 * above or below the terrain or cutting a flat field (zones of up to
 * ~600 x 600 samples, where the library answers without building the
 * zone's triangles), and geoms of size 4 to 14 cutting uneven terrain
 * (zones up to ~30 x 30 samples, collided triangle by triangle). A height
 * callback counts its calls: the samples must be read as often as ODE
 * reads them. Run against Debian's libode.so.8 and ours, every contact and
 * count must agree exactly. Argument (optional): placements per field. */
#include "ref_prim_common.h"
#include <stdlib.h>

static double rough[10 * 10];
static double flat[8 * 8];
static double big[120 * 120];
static long calls;

static dReal wave(void *user, int x, int z)
{
    (void)user;
    calls++;
    return 0.7 * sin(0.9 * x) * cos(0.6 * z) + 0.05 * ((x * 7 + z * 3) % 5);
}

static void print_contacts(const char *tag, int n, dContactGeom *c)
{
    printf("%s %d", tag, n);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < 3; j++) printf(" %.17g", c[i].pos[j]);
        for (int j = 0; j < 3; j++) printf(" %.17g", c[i].normal[j]);
        printf(" %.17g %d %d", c[i].depth, c[i].side1, c[i].side2);
    }
    printf("\n");
}

static dGeomID make(int kind, double size)
{
    switch (kind) {
    case 0: return dCreateSphere(0, size);
    case 1: return dCreateBox(0, 2 * size, urand(0.5, 2) * size, urand(0.2, 2) * size);
    case 2: return dCreateCapsule(0, 0.5 * size, size);
    default: return dCreateCylinder(0, 0.6 * size, size);
    }
}

/* where: 0 above the terrain, 1 below it, 2 near the surface */
static void place_geom(dGeomID hf, double lo, double hi, int kind, double size, int where, double span)
{
    dGeomID o = make(kind, size);
    dMatrix3 R;
    rand_rotation(R);
    dGeomSetRotation(o, R);
    dReal aabb[6];
    dGeomGetAABB(o, aabb);
    double x = urand(-span, span), z = urand(-span, span), y;
    double half = 0.5 * (aabb[3] - aabb[2]);
    if (where == 0) y = hi + half + urand(0.01, 3);
    else if (where == 1) y = lo - half - urand(0.01, 3);
    else y = urand(lo, hi) + urand(-0.8, 0.8) * half;
    dGeomSetPosition(o, x, y, z);
    printf("P %d %d %.17g %.17g %.17g %.17g\n", kind, where, size, x, y, z);
    dContactGeom c[16];
    calls = 0;
    memset(c, 0, sizeof c);
    int n = dCollide(hf, o, 16, c, sizeof(dContactGeom));
    print_contacts("F", n, c);
    memset(c, 0, sizeof c);
    n = dCollide(o, hf, 3, c, sizeof(dContactGeom));
    print_contacts("R", n, c);
    printf("C %ld\n", calls);
    dGeomDestroy(o);
}

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 25;
    dInitODE2(0);
    for (int i = 0; i < 100; i++) rough[i] = urand(0, 1);
    for (int i = 0; i < 64; i++) flat[i] = 0.5;
    for (int i = 0; i < 120 * 120; i++) big[i] = urand(0, 2);

    dHeightfieldDataID d[4];
    for (int i = 0; i < 4; i++) d[i] = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildDouble(d[0], rough, 0, 9, 9, 10, 10, 1, 0, 0, 1);
    dGeomHeightfieldDataBuildDouble(d[1], flat, 0, 3.5, 3.5, 8, 8, 1, 0, 0.2, 1);
    dGeomHeightfieldDataBuildCallback(d[2], 0, wave, 6, 6, 13, 13, 1, 0, 0, 1);
    dGeomHeightfieldDataSetBounds(d[2], -0.7, 0.9);
    dGeomHeightfieldDataBuildDouble(d[3], big, 0, 119, 119, 120, 120, 1, 0, 0.5, 0);
    const double lo[4] = {0, 0.5, -0.7, 0}, hi[4] = {1, 0.5, 0.9, 2};

    for (int f = 0; f < 4; f++) {
        dGeomID hf = dCreateHeightfield(0, d[f], f != 2);
        if (f == 1) {
            dMatrix3 R;
            dRFromAxisAndAngle(R, 0, 1, 0, 0.3);
            dGeomSetRotation(hf, R);
        }
        printf("HF %d\n", f);
        for (int i = 0; i < count; i++) {
            int kind = irand(4);
            /* above or below (or anywhere on the flat field): large */
            int where = irand(f == 1 ? 3 : 2);
            place_geom(hf, lo[f], hi[f], kind, urand(30, f == 3 ? 60 : 200), where, 50);
            /* cutting uneven terrain: moderate */
            place_geom(hf, lo[f], hi[f], irand(4), urand(4, f == 3 ? 8 : 14), 2, 20);
        }
        dGeomDestroy(hf);
    }
    for (int i = 0; i < 4; i++) dGeomHeightfieldDataDestroy(d[i]);
    dCloseODE();
    printf("done\n");
    return 0;
}
