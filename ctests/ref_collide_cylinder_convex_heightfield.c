/* Reference generator for the cylinder/convex/heightfield pair colliders.
 * Usage: ref_collide_cylinder_convex_heightfield <pair> <count> [seed]
 * Places two geoms at pseudo-random poses (own xorshift RNG, plus edge
 * cases: identity and right-angle rotations, axes parallel to planes and
 * to each other, centres on axes), calls Debian's dCollide and prints the
 * exact placements ODE used and the contacts it returned:
 *   A <class> <params...> | pos(3) R(12)
 *   B <class> <params...> | pos(3) R(12)
 *   N <flags> <count>
 *   c pos(3) normal(3) depth side1 side2     (count lines)
 * Convex shapes and heightfields are described once in a header
 * ("S ..." / "H ..." lines) and referred to by index. */
#include <ode/ode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static double srand1(double s) { return (2.0 * urand() - 1.0) * s; }
static int irand(int n) { return (int)(urand() * n); }

/* A random rotation; every 8th is the identity, every 8th a right-angle turn. */
static void rand_rot(dMatrix3 R) {
    int m = irand(8);
    if (m == 0) { dRSetIdentity(R); return; }
    if (m == 1) {
        static const double ax[3][3] = {{1,0,0},{0,1,0},{0,0,1}};
        int a = irand(3), k = 1 + irand(3);
        dRFromAxisAndAngle(R, ax[a][0], ax[a][1], ax[a][2], k * M_PI / 2);
        return;
    }
    dQuaternion q = { srand1(1), srand1(1), srand1(1), srand1(1) };
    if (dCalcVectorLength3(q + 1) == 0) q[1] = 1;
    dNormalize4(q);
    dQtoR(q, R);
}

static void place(dGeomID g, double spread) {
    dMatrix3 R;
    rand_rot(R);
    dGeomSetRotation(g, R);
    dGeomSetPosition(g, srand1(spread), srand1(spread), srand1(spread));
}

static void pose(dGeomID g) {
    const dReal *p = dGeomGetPosition(g), *R = dGeomGetRotation(g);
    printf(" | %.17g %.17g %.17g", p[0], p[1], p[2]);
    for (int i = 0; i < 12; i++) printf(" %.17g", R[i]);
    printf("\n");
}

static void desc(const char *tag, dGeomID g, int shape) {
    printf("%s", tag);
    switch (dGeomGetClass(g)) {
    case dSphereClass: printf(" sphere %.17g", dGeomSphereGetRadius(g)); break;
    case dBoxClass: { dVector3 s; dGeomBoxGetLengths(g, s); printf(" box %.17g %.17g %.17g", s[0], s[1], s[2]); break; }
    case dCapsuleClass: { dReal r, l; dGeomCapsuleGetParams(g, &r, &l); printf(" capsule %.17g %.17g", r, l); break; }
    case dCylinderClass: { dReal r, l; dGeomCylinderGetParams(g, &r, &l); printf(" cylinder %.17g %.17g", r, l); break; }
    case dPlaneClass: { dVector4 p; dGeomPlaneGetParams(g, p); printf(" plane %.17g %.17g %.17g %.17g\n", p[0], p[1], p[2], p[3]); return; }
    case dRayClass: printf(" ray %.17g %d %d %d", dGeomRayGetLength(g), dGeomRayGetFirstContact(g), dGeomRayGetBackfaceCull(g), dGeomRayGetClosestHit(g)); break;
    case dConvexClass: printf(" convex %d", shape); break;
    case dHeightfieldClass: printf(" heightfield %d", shape); break;
    default: printf(" ?"); break;
    }
    pose(g);
}

#define MAXC 40
static void collide(dGeomID a, dGeomID b, int sa, int sb) {
    dContactGeom c[MAXC];
    memset(c, 0, sizeof c);
    int r = irand(10);
    int flags = r == 0 ? 1 : r == 1 ? 2 : r == 2 ? 3 : MAXC;
    desc("A", a, sa);
    desc("B", b, sb);
    int n = dCollide(a, b, flags, c, sizeof(dContactGeom));
    printf("N %d %d\n", flags, n);
    for (int i = 0; i < n; i++)
        printf("c %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %d\n", c[i].pos[0], c[i].pos[1], c[i].pos[2],
               c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth, c[i].side1, c[i].side2);
}

/* ---- convex shapes (planes a,b,c,d with n.x = d on the face) ---- */
typedef struct { int np, nv; dReal planes[4 * 16]; dReal pts[3 * 16]; unsigned int poly[128]; } Shape;
static Shape shapes[3];
static int nshapes = 0;

static void add_face(Shape *s, int *pi, const int *idx, int k) {
    /* plane from the first three points, outward = counter-clockwise seen from outside */
    const dReal *a = s->pts + 3 * idx[0], *b = s->pts + 3 * idx[1], *c = s->pts + 3 * idx[2];
    dVector3 u = { b[0]-a[0], b[1]-a[1], b[2]-a[2] }, v = { c[0]-a[0], c[1]-a[1], c[2]-a[2] }, n;
    dCalcVectorCross3(n, u, v);
    dSafeNormalize3(n);
    dReal *p = s->planes + 4 * s->np;
    p[0] = n[0]; p[1] = n[1]; p[2] = n[2]; p[3] = dCalcVectorDot3(n, a);
    s->np++;
    s->poly[(*pi)++] = k;
    for (int i = 0; i < k; i++) s->poly[(*pi)++] = idx[i];
}

static void make_shapes(void) {
    /* 0: box 1 x 0.8 x 0.6 */
    Shape *s = &shapes[nshapes++];
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 8; i++) {
        s->pts[3*i] = (i & 1 ? 0.5 : -0.5); s->pts[3*i+1] = (i & 2 ? 0.4 : -0.4); s->pts[3*i+2] = (i & 4 ? 0.3 : -0.3);
    }
    s->nv = 8;
    int pi = 0;
    static const int bf[6][4] = {{0,2,3,1},{4,5,7,6},{0,1,5,4},{2,6,7,3},{0,4,6,2},{1,3,7,5}};
    for (int f = 0; f < 6; f++) add_face(s, &pi, bf[f], 4);
    /* 1: irregular tetrahedron */
    s = &shapes[nshapes++];
    memset(s, 0, sizeof *s);
    static const dReal tp[4][3] = {{0.6,-0.2,-0.3},{-0.4,0.5,-0.3},{-0.3,-0.5,-0.2},{0.05,0.1,0.7}};
    memcpy(s->pts, tp, sizeof tp);
    s->nv = 4;
    pi = 0;
    static const int tf[4][3] = {{0,2,1},{0,1,3},{1,2,3},{2,0,3}};
    for (int f = 0; f < 4; f++) add_face(s, &pi, tf[f], 3);
    /* 2: octahedron stretched along z */
    s = &shapes[nshapes++];
    memset(s, 0, sizeof *s);
    static const dReal op[6][3] = {{0.5,0,0},{-0.5,0,0},{0,0.5,0},{0,-0.5,0},{0,0,0.8},{0,0,-0.8}};
    memcpy(s->pts, op, sizeof op);
    s->nv = 6;
    pi = 0;
    static const int of[8][3] = {{0,2,4},{2,1,4},{1,3,4},{3,0,4},{2,0,5},{1,2,5},{3,1,5},{0,3,5}};
    for (int f = 0; f < 8; f++) add_face(s, &pi, of[f], 3);
    for (int k = 0; k < nshapes; k++) {
        s = &shapes[k];
        printf("S %d %d %d", k, s->np, s->nv);
        for (int i = 0; i < 4 * s->np; i++) printf(" %.17g", s->planes[i]);
        for (int i = 0; i < 3 * s->nv; i++) printf(" %.17g", s->pts[i]);
        int pi2 = 0;
        for (int f = 0; f < s->np; f++) { int n = s->poly[pi2]; for (int i = 0; i <= n; i++) printf(" %u", s->poly[pi2++]); }
        printf("\n");
    }
}

static dGeomID make_convex(int k) {
    Shape *s = &shapes[k];
    return dCreateConvex(0, s->planes, s->np, s->pts, s->nv, s->poly);
}

static dGeomID random_prim(int cls) {
    switch (cls) {
    case dSphereClass: return dCreateSphere(0, 0.1 + urand());
    case dBoxClass: return dCreateBox(0, 0.1 + 1.5 * urand(), 0.1 + 1.5 * urand(), 0.1 + 1.5 * urand());
    case dCapsuleClass: return dCreateCapsule(0, 0.1 + 0.6 * urand(), 0.1 + 1.5 * urand());
    case dCylinderClass: return dCreateCylinder(0, 0.1 + 0.8 * urand(), 0.1 + 1.5 * urand());
    }
    return 0;
}

/* Edge-case placements for a cylinder against a second geom. */
static void special_cyl(dGeomID cyl, dGeomID other, int k) {
    dMatrix3 I; dRSetIdentity(I);
    dReal r, l; dGeomCylinderGetParams(cyl, &r, &l);
    dGeomSetRotation(cyl, I);
    dGeomSetPosition(cyl, 0, 0, 0);
    if (dGeomGetClass(other) != dPlaneClass) dGeomSetRotation(other, I);
    switch (k % 6) {
    case 0: dGeomSetPosition(other, 0, 0, 0.5 * l + 0.05); break;          /* on the axis above the top */
    case 1: dGeomSetPosition(other, r + 0.05, 0, 0); break;                /* beside the side */
    case 2: dGeomSetPosition(other, r, 0, 0.5 * l); break;                  /* at the rim */
    case 3: dGeomSetPosition(other, 0, 0, 0); break;                        /* concentric */
    case 4: dGeomSetPosition(other, 0.3 * r, -0.2 * r, -0.5 * l - 0.01); break;
    case 5: { dMatrix3 R; dRFromAxisAndAngle(R, 1, 0, 0, M_PI / 2); dGeomSetRotation(other, R);
              dGeomSetPosition(other, 0.1, r, 0.1); break; }
    }
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s pair count [seed]\n", argv[0]); return 2; }
    const char *pair = argv[1];
    int count = atoi(argv[2]);
    if (argc > 3) rng ^= strtoull(argv[3], 0, 10) * 0x9E3779B97F4A7C15ULL;
    dInitODE2(0);
    make_shapes();
    for (int i = 0; i < count; i++) {
        int special = i < 24;
        if (!strcmp(pair, "cylsphere") || !strcmp(pair, "cylbox") || !strcmp(pair, "cylcyl") || !strcmp(pair, "capcyl")) {
            int other = !strcmp(pair, "cylsphere") ? dSphereClass : !strcmp(pair, "cylbox") ? dBoxClass
                      : !strcmp(pair, "cylcyl") ? dCylinderClass : dCapsuleClass;
            dGeomID a = !strcmp(pair, "capcyl") ? random_prim(dCapsuleClass) : random_prim(dCylinderClass);
            dGeomID b = !strcmp(pair, "capcyl") ? random_prim(dCylinderClass) : random_prim(other);
            if (special) { if (!strcmp(pair, "capcyl")) special_cyl(b, a, i); else special_cyl(a, b, i); }
            else { place(a, 0.3); place(b, 0.8); }
            collide(a, b, -1, -1);
            dGeomDestroy(a); dGeomDestroy(b);
        } else if (!strcmp(pair, "cylplane")) {
            dGeomID a = random_prim(dCylinderClass);
            dVector3 n = { srand1(1), srand1(1), srand1(1) };
            if (i % 5 == 0) { n[0] = 0; n[1] = 0; n[2] = 1; }
            if (dCalcVectorLength3(n) < 1e-3) n[2] = 1;
            dGeomID b = dCreatePlane(0, n[0], n[1], n[2], srand1(0.5));
            place(a, 0.6);
            if (i % 5 == 0) { dMatrix3 I; dRSetIdentity(I); dGeomSetRotation(a, I); }
            if (i % 10 == 1) { /* axis along the plane normal, exactly */
                dVector4 p; dGeomPlaneGetParams(b, p);
                dMatrix3 R; dRFromZAxis(R, p[0], p[1], p[2]); dGeomSetRotation(a, R);
            }
            collide(a, b, -1, -1);
            dGeomDestroy(a); dGeomDestroy(b);
        } else if (!strcmp(pair, "raycyl") || !strcmp(pair, "raycvx")) {
            int cvx = !strcmp(pair, "raycvx");
            int sk = irand(nshapes);
            dGeomID a = dCreateRay(0, 0.2 + 3 * urand());
            dGeomID b = cvx ? make_convex(sk) : random_prim(dCylinderClass);
            place(b, 0.2);
            if (i % 7 == 0) { dMatrix3 I; dRSetIdentity(I); dGeomSetRotation(b, I); }
            dVector3 o = { srand1(1.5), srand1(1.5), srand1(1.5) };
            dVector3 d = { srand1(1) - 0.5 * o[0], srand1(1) - 0.5 * o[1], srand1(1) - 0.5 * o[2] };
            if (i % 11 == 0) { d[0] = 0; d[1] = 0; d[2] = -1; o[0] = srand1(0.5); o[1] = srand1(0.5); o[2] = 2; }
            if (dCalcVectorLength3(d) < 1e-3) d[0] = 1;
            if (cvx) {
                dGeomRaySetFirstContact(a, irand(2)); dGeomRaySetBackfaceCull(a, irand(2)); dGeomRaySetClosestHit(a, irand(2));
            }
            dGeomRaySet(a, o[0], o[1], o[2], d[0], d[1], d[2]);
            collide(a, b, -1, cvx ? sk : -1);
            dGeomDestroy(a); dGeomDestroy(b);
        } else if (!strcmp(pair, "cvxplane")) {
            int sk = irand(nshapes);
            dGeomID a = make_convex(sk);
            dVector3 n = { srand1(1), srand1(1), srand1(1) };
            if (i % 5 == 0) { n[0] = 0; n[1] = 0; n[2] = 1; }
            if (dCalcVectorLength3(n) < 1e-3) n[2] = 1;
            dGeomID b = dCreatePlane(0, n[0], n[1], n[2], srand1(0.5));
            place(a, 0.6);
            if (i % 5 == 0) { dMatrix3 I; dRSetIdentity(I); dGeomSetRotation(a, I); }
            collide(a, b, sk, -1);
            dGeomDestroy(a); dGeomDestroy(b);
        } else if (!strncmp(pair, "cvx", 3)) {
            /* cvxsphere cvxbox cvxcap cvxcyl cvxcvx */
            int sk = irand(nshapes), sk2 = irand(nshapes);
            dGeomID a = make_convex(sk), b;
            const char *o = pair + 3;
            if (!strcmp(o, "sphere")) b = random_prim(dSphereClass);
            else if (!strcmp(o, "box")) b = random_prim(dBoxClass);
            else if (!strcmp(o, "cap")) b = random_prim(dCapsuleClass);
            else if (!strcmp(o, "cyl")) b = random_prim(dCylinderClass);
            else b = make_convex(sk2);
            place(a, 0.3); place(b, 0.8);
            collide(a, b, sk, !strcmp(o, "cvx") ? sk2 : -1);
            dGeomDestroy(a); dGeomDestroy(b);
        } else { fprintf(stderr, "unknown pair %s\n", pair); return 2; }
    }
    dCloseODE();
    return 0;
}
