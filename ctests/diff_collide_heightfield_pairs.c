/* DIFF-TOL rel=0 abs=0 */
/* Heightfield pair colliders through dCollide: heightfields built from
 * double, byte, short, single and callback data (finite and wrapped, with
 * thickness, flat zones, placeable and not) against spheres, boxes,
 * capsules, cylinders, rays and convexes at random placements over the
 * terrain, collided with several contact limits (and CONTACTS_UNIMPORTANT)
 * and in both argument orders. Every contact is printed in full precision;
 * run against Debian's libode.so.8 and ours, the traces must agree.
 * Argument (optional): placements per pair. */
#include "ref_prim_common.h"
#include <stdlib.h>

#define NHF 6

static dHeightfieldDataID hdata[NHF];
static double hd_double[9 * 7];
static unsigned char hd_byte[6 * 6];
static short hd_short[8 * 5];
static float hd_single[5 * 5];
static double hd_steps[10 * 10];
/* local height range of each variant, for placing geoms near the surface */
static double hlo[NHF], hhi[NHF], hw[NHF], hdp[NHF];

static dReal wave(void *user, int x, int z)
{
    (void)user;
    return 0.6 * sin(0.7 * x) * cos(0.5 * z) + 0.1 * x;
}

static void build(void)
{
    int i;
    for (i = 0; i < 9 * 7; i++) hd_double[i] = urand(0, 1);
    hd_double[10] = hd_double[11] = hd_double[19] = hd_double[20] = 0.5; /* a flat patch */
    for (i = 0; i < 6 * 6; i++) hd_byte[i] = (unsigned char)irand(256);
    for (i = 0; i < 8 * 5; i++) hd_short[i] = (short)(irand(2001) - 1000);
    for (i = 0; i < 5 * 5; i++) hd_single[i] = 0.25f; /* flat: one plane */
    for (i = 0; i < 10 * 10; i++) hd_steps[i] = (double)((i % 10) / 3) * 0.5 + ((i / 10) % 2) * 0.25;

    for (i = 0; i < NHF; i++) hdata[i] = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildDouble(hdata[0], hd_double, 0, 8, 6, 9, 7, 1.5, -0.2, 1.0, 0);
    hw[0] = 8; hdp[0] = 6; hlo[0] = -0.2; hhi[0] = 1.3;
    dGeomHeightfieldDataBuildByte(hdata[1], hd_byte, 1, 5, 5, 6, 6, 0.004, -0.5, 0.5, 1);
    hw[1] = 5; hdp[1] = 5; hlo[1] = -0.5; hhi[1] = 0.52;
    dGeomHeightfieldDataBuildShort(hdata[2], hd_short, 1, 7, 4, 8, 5, 0.001, 0, 2.0, 0);
    hw[2] = 7; hdp[2] = 4; hlo[2] = -1; hhi[2] = 1;
    dGeomHeightfieldDataBuildSingle(hdata[3], hd_single, 0, 4, 4, 5, 5, 1, 0, 0.1, 0);
    hw[3] = 4; hdp[3] = 4; hlo[3] = 0.25; hhi[3] = 0.25;
    dGeomHeightfieldDataBuildCallback(hdata[4], 0, wave, 9, 9, 13, 13, 1, 0, 0.5, 0);
    dGeomHeightfieldDataSetBounds(hdata[4], -0.6, 1.8);
    hw[4] = 9; hdp[4] = 9; hlo[4] = -0.6; hhi[4] = 1.8;
    dGeomHeightfieldDataBuildDouble(hdata[5], hd_steps, 1, 4.5, 4.5, 10, 10, 1, 0, 0.3, 0);
    hw[5] = 4.5; hdp[5] = 4.5; hlo[5] = 0; hhi[5] = 1.25;
}

/* box 1 x 0.8 x 0.6 and an octahedron, as convex shapes */
static dReal box_planes[] = { 0,0,-1,0.3, 0,0,1,0.3, 0,-1,0,0.4, 0,1,0,0.4, -1,0,0,0.5, 1,0,0,0.5 };
static dReal box_points[24];
static unsigned int box_poly[] = { 4,0,2,3,1, 4,4,5,7,6, 4,0,1,5,4, 4,2,6,7,3, 4,0,4,6,2, 4,1,3,7,5 };
static dReal oct_points[] = { 0.5,0,0, -0.5,0,0, 0,0.5,0, 0,-0.5,0, 0,0,0.8, 0,0,-0.8 };
static unsigned int oct_poly[] = { 3,0,2,4, 3,2,1,4, 3,1,3,4, 3,3,0,4, 3,2,0,5, 3,1,2,5, 3,3,1,5, 3,0,3,5 };
static dReal oct_planes[32];

static void init_convex(void)
{
    int i, f;
    for (i = 0; i < 8; i++) {
        box_points[3*i] = (i & 1) ? 0.5 : -0.5; box_points[3*i+1] = (i & 2) ? 0.4 : -0.4; box_points[3*i+2] = (i & 4) ? 0.3 : -0.3;
    }
    for (f = 0; f < 8; f++) {
        const dReal *a = oct_points + 3 * oct_poly[4*f+1], *b = oct_points + 3 * oct_poly[4*f+2], *c = oct_points + 3 * oct_poly[4*f+3];
        dVector3 u = { b[0]-a[0], b[1]-a[1], b[2]-a[2] }, v = { c[0]-a[0], c[1]-a[1], c[2]-a[2] }, n;
        dCalcVectorCross3(n, u, v);
        dSafeNormalize3(n);
        oct_planes[4*f] = n[0]; oct_planes[4*f+1] = n[1]; oct_planes[4*f+2] = n[2];
        oct_planes[4*f+3] = dCalcVectorDot3(n, a);
    }
}

static void print_contacts(const char *tag, int flags, int n, dContactGeom *c, dGeomID a, dGeomID b)
{
    int i, j;
    printf("%s %d %d", tag, flags, n);
    for (i = 0; i < n; i++) {
        for (j = 0; j < 3; j++) printf(" %.17g", c[i].pos[j]);
        for (j = 0; j < 3; j++) printf(" %.17g", c[i].normal[j]);
        printf(" %.17g %d %d %d %d", c[i].depth, c[i].side1, c[i].side2, c[i].g1 == a, c[i].g2 == b);
    }
    printf("\n");
}

static const int flag_set[] = {1, 3, 16, (int)(16 | CONTACTS_UNIMPORTANT)};

static void collide_all(dGeomID hf, dGeomID o)
{
    dContactGeom c[16];
    int f, n;
    const dReal *p = dGeomGetPosition(o);
    const dReal *R = dGeomGetRotation(o);
    printf("G %d %.17g %.17g %.17g %.17g %.17g %.17g\n", dGeomGetClass(o), p[0], p[1], p[2], R[0], R[5], R[10]);
    for (f = 0; f < 4; f++) {
        memset(c, 0, sizeof c);
        n = dCollide(hf, o, flag_set[f], c, sizeof(dContactGeom));
        print_contacts("F", flag_set[f], n, c, hf, o);
    }
    memset(c, 0, sizeof c);
    n = dCollide(o, hf, 16, c, sizeof(dContactGeom));
    print_contacts("R", 16, n, c, o, hf);
}

static dGeomID make(int kind, double *size)
{
    switch (kind) {
    case 0: *size = urand(0.05, 1.2); return dCreateSphere(0, *size);
    case 1: {
        double a = urand(0.05, 2.5), b = urand(0.05, 1.5), c = urand(0.05, 2.5);
        *size = 0.5 * sqrt(a * a + b * b + c * c);
        return dCreateBox(0, a, b, c);
    }
    case 2: {
        double r = urand(0.05, 0.7), l = urand(0, 2.5);
        *size = r + 0.5 * l;
        return dCreateCapsule(0, r, l);
    }
    case 3: {
        double r = urand(0.05, 1.0), l = urand(0.05, 2.0);
        *size = sqrt(r * r + 0.25 * l * l);
        return dCreateCylinder(0, r, l);
    }
    case 4: *size = urand(0.2, 3.0); return dCreateRay(0, *size);
    default:
        *size = 0.8;
        return irand(2) ? dCreateConvex(0, box_planes, 6, box_points, 8, box_poly)
                        : dCreateConvex(0, oct_planes, 8, oct_points, 6, oct_poly);
    }
}

static const char *kind_name[] = {"sphere", "box", "capsule", "cylinder", "ray", "convex"};

static void run_pair(int kind, int n)
{
    int k, i;
    for (k = 0; k < n; k++) {
        int v = irand(NHF), placeable = irand(3) == 0;
        double size, loc[3], wpos[3], hpos[3];
        dMatrix3 Rh, Ro, Rw;
        dGeomID hf = dCreateHeightfield(0, hdata[v], placeable);
        dGeomID o = make(kind, &size);
        /* placement in the heightfield's frame (centre at the origin) */
        loc[0] = urand(-0.65, 0.65) * hw[v];
        loc[2] = urand(-0.65, 0.65) * hdp[v];
        loc[1] = urand(hlo[v] - 1.2 * size, hhi[v] + 0.6 * size);
        if (k % 13 == 0) loc[1] = hlo[v] - 3 - size; /* entirely below */
        rand_rotation(Ro);
        if (kind == 4 && irand(4) != 0) {
            /* a ray pointing roughly down */
            double d[3];
            rand_unit(d);
            if (d[1] > 0) d[1] = -d[1];
            loc[1] = hhi[v] + urand(-0.5, 1.0);
            dGeomRaySet(o, 0, 0, 0, d[0], d[1] - 1, d[2]);
            memcpy(Ro, dGeomGetRotation(o), sizeof(dMatrix3));
        }
        if (placeable) {
            rand_rotation(Rh);
            for (i = 0; i < 3; i++) hpos[i] = urand(-3, 3);
            dGeomSetPosition(hf, hpos[0], hpos[1], hpos[2]);
            dGeomSetRotation(hf, Rh);
            local_to_world(wpos, hpos, Rh, loc);
            dMultiply0_333(Rw, Rh, Ro);
        } else {
            memcpy(wpos, loc, sizeof wpos);
            memcpy(Rw, Ro, sizeof Rw);
        }
        place(o, wpos, Rw);
        printf("P %s hf%d placeable %d\n", kind_name[kind], v, placeable);
        collide_all(hf, o);
        dGeomDestroy(o);
        dGeomDestroy(hf);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1500, kind;
    dInitODE2(0);
    init_convex();
    build();
    for (kind = 0; kind < 6; kind++) run_pair(kind, n);
    for (kind = 0; kind < NHF; kind++) dGeomHeightfieldDataDestroy(hdata[kind]);
    dCloseODE();
    printf("done\n");
    return 0;
}
