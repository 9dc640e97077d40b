/* DIFF-TOL rel=0 abs=0 */
/* Which contacts a collider keeps when the caller's contact limit (the low
 * 16 bits of dCollide's flags) is below the full set. Every ordered pair
 * of sphere, box, capsule, cylinder, plane, ray, convex (box-shaped and an
 * octahedron) and heightfield (double, byte, short, float and callback
 * data, placeable or not) is collided at random placements with limits 1,
 * 2, 3, 4, 8 and 64 (the full set), and 1 and 4 with CONTACTS_UNIMPORTANT.
 * A third of the placements are "resting": the second geom sits on a face
 * of the first with parallel axes, where boxes, cylinders and heightfields
 * produce many contacts and the limit decides which survive; half of the
 * placements attach the geoms to bodies, and geom transforms on bodies
 * hold a cylinder, convex or capsule. Every contact
 * is printed in full precision (and in which order); the trace must be
 * Debian's, bit for bit. Trimesh pairs are in ref_collide_capped_trimesh.c.
 * Argument (optional): placements per pair. */
#include "ref_prim_common.h"
#include <stdlib.h>

/* Geom transforms are deprecated but still exported. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

enum { SPHERE, BOX, CAPSULE, CYLINDER, PLANE, RAY, CONVEX, HFIELD, NKIND };
static const char *kind_name[NKIND] = {"sphere", "box", "capsule", "cylinder", "plane", "ray", "convex", "hfield"};

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

/* Heightfields: 5 data kinds over about 6 x 6 (x, z), heights around 0 (y). */
#define NHF 5
static dHeightfieldDataID hdata[NHF];
static double hd_double[9 * 9];
static unsigned char hd_byte[7 * 7];
static short hd_short[8 * 6];
static float hd_single[7 * 7];
static double hlo[NHF], hhi[NHF], hw[NHF], hdp[NHF];

static dReal wave(void *user, int x, int z)
{
    (void)user;
    return 0.4 * sin(0.9 * x) * cos(0.6 * z) + 0.05 * x;
}

static void build_hfields(void)
{
    int i;
    for (i = 0; i < 9 * 9; i++) hd_double[i] = urand(0, 0.8);
    for (i = 0; i < 7 * 7; i++) hd_byte[i] = (unsigned char)irand(256);
    for (i = 0; i < 8 * 6; i++) hd_short[i] = (short)(irand(1201) - 600);
    /* a flat floor with one raised row: large flat zones produce many
     * equally deep contacts under a resting box */
    for (i = 0; i < 7 * 7; i++) hd_single[i] = (i / 7 == 3) ? 0.3f : 0.0f;
    for (i = 0; i < NHF; i++) hdata[i] = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildDouble(hdata[0], hd_double, 0, 6, 6, 9, 9, 1.0, 0, 0.5, 0);
    hw[0] = 6; hdp[0] = 6; hlo[0] = 0; hhi[0] = 0.8;
    dGeomHeightfieldDataBuildByte(hdata[1], hd_byte, 1, 6, 6, 7, 7, 0.003, -0.4, 0.4, 0);
    hw[1] = 6; hdp[1] = 6; hlo[1] = -0.4; hhi[1] = 0.37;
    dGeomHeightfieldDataBuildShort(hdata[2], hd_short, 1, 7, 5, 8, 6, 0.001, 0, 1.0, 1);
    hw[2] = 7; hdp[2] = 5; hlo[2] = -0.6; hhi[2] = 0.6;
    dGeomHeightfieldDataBuildSingle(hdata[3], hd_single, 0, 6, 6, 7, 7, 1, 0, 0.2, 0);
    hw[3] = 6; hdp[3] = 6; hlo[3] = 0; hhi[3] = 0.3;
    dGeomHeightfieldDataBuildCallback(hdata[4], 0, wave, 6, 6, 11, 11, 1, 0, 0.3, 0);
    dGeomHeightfieldDataSetBounds(hdata[4], -0.7, 0.7);
    hw[4] = 6; hdp[4] = 6; hlo[4] = -0.7; hhi[4] = 0.7;
}

/* A geom of `kind`; *size is a bounding radius, *hz the half extent along
 * the local z axis (what "resting on a face" uses). */
static dGeomID make(int kind, double *size, double *hz)
{
    switch (kind) {
    case SPHERE: *size = *hz = urand(0.1, 1.0); return dCreateSphere(0, *size);
    case BOX: {
        double a = urand(0.1, 2.0), b = urand(0.1, 2.0), c = urand(0.1, 1.5);
        *size = 0.5 * sqrt(a * a + b * b + c * c);
        *hz = 0.5 * c;
        return dCreateBox(0, a, b, c);
    }
    case CAPSULE: {
        double r = urand(0.05, 0.6), l = urand(0, 2.0);
        *size = r + 0.5 * l;
        *hz = *size;
        return dCreateCapsule(0, r, l);
    }
    case CYLINDER: {
        double r = urand(0.1, 1.0), l = urand(0.1, 1.5);
        *size = sqrt(r * r + 0.25 * l * l);
        *hz = 0.5 * l;
        return dCreateCylinder(0, r, l);
    }
    case RAY: *size = *hz = urand(0.2, 3.0); return dCreateRay(0, *size);
    case CONVEX:
        if (irand(2)) { *size = 0.71; *hz = 0.3; return dCreateConvex(0, box_planes, 6, box_points, 8, box_poly); }
        *size = *hz = 0.8;
        return dCreateConvex(0, oct_planes, 8, oct_points, 6, oct_poly);
    }
    return 0;
}

static const int caps[] = {1, 2, 3, 4, 8, 64, (int)(1 | CONTACTS_UNIMPORTANT), (int)(4 | CONTACTS_UNIMPORTANT)};
#define NCAPS 8

/* Set for the pairs ODE hands to libccd's generic MPR path, where
 * CONTACTS_UNIMPORTANT only runs the intersection test: ODE then returns 1
 * without writing the record (its content is whatever the caller's buffer
 * held), while ours fills it; only the count is compared there. */
static int count_only_unimportant;

static void print_contacts(const char *tag, int flags, int n, dContactGeom *c, dGeomID a, dGeomID b)
{
    int i, j;
    printf("%s %d %d", tag, flags & 0xffff, n);
    if (flags & CONTACTS_UNIMPORTANT) {
        printf(" u");
        if (count_only_unimportant) { printf("\n"); return; }
    }
    for (i = 0; i < n; i++) {
        for (j = 0; j < 3; j++) printf(" %.17g", c[i].pos[j]);
        for (j = 0; j < 3; j++) printf(" %.17g", c[i].normal[j]);
        printf(" %.17g %d %d %d %d", c[i].depth, c[i].side1, c[i].side2, c[i].g1 == a, c[i].g2 == b);
    }
    printf("\n");
}

static void collide_all(dGeomID a, dGeomID b)
{
    dContactGeom c[64];
    int f, n;
    for (f = 0; f < NCAPS; f++) {
        memset(c, 0, sizeof c);
        n = dCollide(a, b, caps[f], c, sizeof(dContactGeom));
        print_contacts("F", caps[f], n, c, a, b);
        memset(c, 0, sizeof c);
        n = dCollide(b, a, caps[f], c, sizeof(dContactGeom));
        print_contacts("R", caps[f], n, c, b, a);
    }
}

/* Half the placements put the geoms on bodies: ODE's libccd glue (convex
 * pairs, capsule-cylinder, cylinder-cylinder) and cylinder-trimesh then
 * read the body's own quaternion, which differs in its last bits from one
 * recomputed from the rotation matrix. */
static dWorldID world;
static int use_bodies;

static void put(dGeomID g, const double p[3], const dMatrix3 R)
{
    if (use_bodies) {
        dQuaternion q;
        dMatrix3 M;
        dBodyID body = dBodyCreate(world);
        memcpy(M, R, sizeof M);
        M[3] = M[7] = M[11] = 0; /* dMultiply0_333 leaves the padding unset */
        dRtoQ(M, q);
        dBodySetPosition(body, p[0], p[1], p[2]);
        dBodySetQuaternion(body, q);
        dGeomSetBody(g, body);
    } else {
        place(g, p, R);
    }
}

static void destroy(dGeomID g)
{
    dBodyID body = dGeomGetClass(g) == dPlaneClass ? 0 : dGeomGetBody(g);
    dGeomDestroy(g);
    if (body) dBodyDestroy(body);
}

/* A random rotation, or with `resting` an exact one (axes parallel) with
 * sometimes a small tilt. */
static void rotation(dMatrix3 R, int resting)
{
    if (!resting) { rand_rotation(R); return; }
    exact_rotation(R, irand(8));
    if (irand(3) == 0) {
        dMatrix3 T, S;
        dRFromAxisAndAngle(T, urand(-1, 1), urand(-1, 1), 0.1, urand(-0.05, 0.05));
        dMultiply0_333(S, R, T);
        memcpy(R, S, sizeof(dMatrix3));
    }
}

/* First geom (not a plane or heightfield) at a random pose near the
 * origin; the second one either anywhere around it or resting on its
 * local +z face. */
static void place_pair(dGeomID a, double sa, double hza, dGeomID b, double sb, double hzb, int resting)
{
    dMatrix3 Ra, Rl, Rb;
    double pa[3], off[3], pb[3];
    int i;
    for (i = 0; i < 3; i++) pa[i] = urand(-0.5, 0.5);
    rotation(Ra, 0);
    put(a, pa, Ra);
    if (resting) {
        rotation(Rl, 1);
        off[0] = urand(-0.6, 0.6) * sa;
        off[1] = urand(-0.6, 0.6) * sa;
        off[2] = hza + hzb - urand(-0.02, 0.15) * (hza + hzb);
        dMultiply0_333(Rb, Ra, Rl);
    } else {
        rand_offset(off, (double[3]){sa + sb, sa + sb, sa + sb}, 0.8);
        rotation(Rb, 0);
        memcpy(Rl, Rb, sizeof Rl);
        dMultiply0_333(Rb, Ra, Rl);
    }
    local_to_world(pb, pa, Ra, off);
    put(b, pb, Rb);
}

static void run_pair(int ka, int kb, int n)
{
    int k;
    for (k = 0; k < n; k++) {
        int resting = irand(3) == 0;
        use_bodies = irand(2);
        double sa = 1, hza = 0, sb = 1, hzb = 0;
        dGeomID a = 0, b = 0;
        if (ka == HFIELD) {
            /* the other geom over the terrain (y up), resting on it or not */
            int v = irand(NHF), placeable = irand(3) == 0, i;
            double loc[3], wpos[3], hpos[3];
            dMatrix3 Rh, Ro, Rw, X;
            a = dCreateHeightfield(0, hdata[v], placeable);
            b = make(kb, &sb, &hzb);
            loc[0] = urand(-0.6, 0.6) * hw[v];
            loc[2] = urand(-0.6, 0.6) * hdp[v];
            if (resting) {
                /* local z of the geom along the heightfield's up (y) */
                dRFromAxisAndAngle(X, 1, 0, 0, -M_PI / 2);
                rotation(Ro, 1);
                dMultiply0_333(Rw, X, Ro);
                memcpy(Ro, Rw, sizeof Ro);
                loc[1] = urand(hlo[v], hhi[v]) + hzb - urand(0, 0.1);
            } else {
                rand_rotation(Ro);
                loc[1] = urand(hlo[v] - 0.8 * sb, hhi[v] + 0.6 * sb);
            }
            if (kb == RAY && irand(2)) {
                double d[3];
                rand_unit(d);
                if (d[1] > 0) d[1] = -d[1];
                loc[1] = hhi[v] + urand(-0.3, 1.0);
                dGeomRaySet(b, 0, 0, 0, d[0], d[1] - 1, d[2]);
                memcpy(Ro, dGeomGetRotation(b), sizeof(dMatrix3));
            }
            if (placeable) {
                rand_rotation(Rh);
                for (i = 0; i < 3; i++) hpos[i] = urand(-2, 2);
                dGeomSetPosition(a, hpos[0], hpos[1], hpos[2]);
                dGeomSetRotation(a, Rh);
                local_to_world(wpos, hpos, Rh, loc);
                dMultiply0_333(Rw, Rh, Ro);
            } else {
                memcpy(wpos, loc, sizeof wpos);
                memcpy(Rw, Ro, sizeof Rw);
            }
            put(b, wpos, Rw);
            printf("P %s %s %d hf%d placeable %d\n", kind_name[ka], kind_name[kb], k, v, placeable);
        } else if (ka == PLANE) {
            double nrm[3], p[3];
            dMatrix3 R;
            int i;
            b = make(kb, &sb, &hzb);
            rand_unit(nrm);
            if (irand(4) == 0) { nrm[0] = nrm[1] = 0; nrm[2] = 1; }
            a = dCreatePlane(0, nrm[0], nrm[1], nrm[2], urand(-0.5, 0.5));
            /* the geom near the plane; resting: its local z against the normal */
            if (resting) {
                dMatrix3 F, T;
                /* a frame whose z is the plane normal */
                dRFromZAxis(F, nrm[0], nrm[1], nrm[2]);
                rotation(T, 1);
                dMultiply0_333(R, F, T);
            } else {
                rand_rotation(R);
            }
            {
                dVector4 pl;
                double h = resting ? hzb - urand(-0.02, 0.15) * hzb : urand(-sb, sb);
                dGeomPlaneGetParams(a, pl);
                for (i = 0; i < 3; i++) p[i] = pl[i] * (pl[3] + h) + urand(-1, 1) * (1 - fabs(pl[i]));
            }
            put(b, p, R);
            printf("P %s %s %d\n", kind_name[ka], kind_name[kb], k);
        } else {
            a = make(ka, &sa, &hza);
            b = make(kb, &sb, &hzb);
            place_pair(a, sa, hza, b, sb, hzb, resting);
            printf("P %s %s %d %d\n", kind_name[ka], kind_name[kb], k, resting);
        }
        count_only_unimportant = (ka == CONVEX && kb != RAY) || (kb == CONVEX && ka != PLANE && ka != HFIELD && ka != RAY)
            || (ka == CAPSULE && kb == CYLINDER) || (ka == CYLINDER && kb == CYLINDER);
        printf("B %d\n", use_bodies);
        collide_all(a, b);
        destroy(a);
        destroy(b);
    }
}

/* A geom transform on a body holding a rotated, offset cylinder, convex or
 * capsule, against a capsule, cylinder or convex: while the transform
 * collides, ODE puts its child on the transform's body, so libccd's glue
 * reads the body's quaternion for the child (not the child's composed
 * rotation); the contacts follow that. */
static void run_transforms(int n)
{
    int k;
    for (k = 0; k < n; k++) {
        double sc, hc, so, ho, p[3], off[3];
        int i, inner = irand(3), outer = irand(3);
        dMatrix3 R;
        dQuaternion q;
        dBodyID body = dBodyCreate(world);
        dGeomID t = dCreateGeomTransform(0);
        dGeomID c = make(inner == 0 ? CYLINDER : inner == 1 ? CONVEX : CAPSULE, &sc, &hc);
        dGeomID o = make(outer == 0 ? CAPSULE : outer == 1 ? CYLINDER : CONVEX, &so, &ho);
        dGeomTransformSetGeom(t, c);
        dGeomTransformSetCleanup(t, 1);
        rand_rotation(R);
        for (i = 0; i < 3; i++) off[i] = urand(-0.3, 0.3);
        place(c, off, R);
        dGeomSetBody(t, body);
        for (i = 0; i < 4; i++) q[i] = urand(-1, 1);
        dNormalize4(q);
        dBodySetQuaternion(body, q);
        dBodySetPosition(body, urand(-0.3, 0.3), urand(-0.3, 0.3), urand(-0.3, 0.3));
        rand_rotation(R);
        rand_offset(p, (double[3]){sc + so, sc + so, sc + so}, 0.7);
        place(o, p, R);
        printf("P transform %d %d %d\n", inner, outer, k);
        /* every combination but capsule-capsule goes through libccd */
        count_only_unimportant = !(inner == 2 && outer == 0);
        collide_all(t, o);
        dGeomDestroy(o);
        dGeomDestroy(t);
        dBodyDestroy(body);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400, ka, kb;
    dInitODE2(0);
    world = dWorldCreate();
    init_convex();
    build_hfields();
    /* each unordered pair once, first geom the "ground" one; both argument
     * orders are collided */
    for (ka = NKIND - 1; ka >= 0; ka--)
        for (kb = 0; kb < NKIND; kb++) {
            if (kb == PLANE || kb == HFIELD) continue;
            if (ka != PLANE && ka != HFIELD && kb < ka) continue;
            run_pair(ka, kb, n);
        }
    run_transforms(n);
    for (ka = 0; ka < NHF; ka++) dGeomHeightfieldDataDestroy(hdata[ka]);
    dWorldDestroy(world);
    dCloseODE();
    printf("done\n");
    return 0;
}
