/* DIFF-TOL rel=0 abs=0 */
/* Differential test of the broad phase: the pairs each space reports from
 * dSpaceCollide, in callback order (g1, g2 by index), for random scenes of
 * spheres, boxes and capsules (some on shared bodies, some disabled, some
 * degenerate, some with restricted category/collide bits), before and
 * after the bodies move; then dSpaceCollide2 for geom/geom, geom/space and
 * space/space (sublevels), nested spaces, dSpaceGetGeom order, and
 * dCollide through a space. Geoms are printed by index. */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static double urand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static double srand1(double s) { return (2.0 * urand() - 1.0) * s; }

#define NG 300
static dGeomID geoms[NG + 64];
static int ngeoms;
static int idx(dGeomID g) {
    for (int i = 0; i < ngeoms; i++) if (geoms[i] == g) return i;
    geoms[ngeoms] = g; return ngeoms++;
}
static long npairs;
static void near(void *data, dGeomID a, dGeomID b) {
    (void)data;
    printf(" %d-%d", idx(a), idx(b));
    npairs++;
}
static void collide_print(const char *tag, dSpaceID s) {
    npairs = 0;
    printf("%s:", tag);
    dSpaceCollide(s, 0, near);
    printf("\n%s count %ld\n", tag, npairs);
}
static void collide2_print(const char *tag, dGeomID a, dGeomID b) {
    npairs = 0;
    printf("%s:", tag);
    dSpaceCollide2(a, b, 0, near);
    printf("\n%s count %ld\n", tag, npairs);
}

static void rand_q(dQuaternion q) {
    double a = srand1(1), b = srand1(1), c = srand1(1), d = srand1(1);
    double l = sqrt(a * a + b * b + c * c + d * d);
    q[0] = a / l; q[1] = b / l; q[2] = c / l; q[3] = d / l;
}

/* One scene per space kind. */
static void scene(const char *name, dSpaceID s, dWorldID w) {
    printf("== %s class %d\n", name, dSpaceGetClass(s));
    ngeoms = 0;
    dBodyID bodies[40];
    for (int i = 0; i < 40; i++) {
        bodies[i] = dBodyCreate(w);
        dBodySetPosition(bodies[i], srand1(8), srand1(8), srand1(8));
        dQuaternion q; rand_q(q); dBodySetQuaternion(bodies[i], q);
        dBodySetLinearVel(bodies[i], srand1(3), srand1(3), srand1(3));
        dBodySetAngularVel(bodies[i], srand1(2), srand1(2), srand1(2));
    }
    for (int i = 0; i < 120; i++) {
        dGeomID g;
        int k = i % 3;
        if (k == 0) g = dCreateSphere(s, 0.2 + urand());
        else if (k == 1) g = dCreateBox(s, 0.2 + urand(), 0.2 + urand(), 0.2 + 2 * urand());
        else g = dCreateCapsule(s, 0.1 + 0.5 * urand(), urand() * 2);
        idx(g);
        if (i < 60) {
            dGeomSetBody(g, bodies[i % 40]);
            if (i % 7 == 0) dGeomSetOffsetPosition(g, srand1(1), srand1(1), srand1(1));
        } else {
            dGeomSetPosition(g, srand1(8), srand1(8), srand1(8));
            dQuaternion q; rand_q(q); dGeomSetQuaternion(g, q);
        }
        if (i % 17 == 3) dGeomDisable(g);
        if (i % 13 == 5) { dGeomSetCategoryBits(g, 2); dGeomSetCollideBits(g, 2); }
        if (i % 29 == 11 && k == 0) dGeomSphereSetRadius(g, 0);
    }
    /* a few big geoms (above the hash levels) */
    dGeomID big = dCreateBox(s, 3000, 1, 1); idx(big);
    dGeomID big2 = dCreateSphere(s, 1500); idx(big2);
    dGeomSetPosition(big2, 0, 0, 1400);
    printf("numgeoms %d\n", dSpaceGetNumGeoms(s));
    if (dSpaceGetClass(s) != dQuadTreeSpaceClass) {
        printf("order:");
        for (int i = 0; i < dSpaceGetNumGeoms(s); i++) printf(" %d", idx(dSpaceGetGeom(s, i)));
        printf("\n");
    }
    collide_print("first", s);
    collide_print("again", s);
    for (int step = 0; step < 3; step++) {
        dWorldStep(w, 0.05);
        collide_print("stepped", s);
    }
    if (dSpaceGetClass(s) != dQuadTreeSpaceClass) {
        printf("order:");
        for (int i = 0; i < dSpaceGetNumGeoms(s); i++) printf(" %d", idx(dSpaceGetGeom(s, i)));
        printf("\n");
    }
    /* geom against the space, and against single geoms */
    collide2_print("geom-space", geoms[70], (dGeomID)s);
    collide2_print("space-geom", (dGeomID)s, geoms[3]);
    collide2_print("geom-geom", geoms[70], geoms[71]);
    /* remove some, move some, collide again */
    for (int i = 0; i < 120; i += 9) dSpaceRemove(s, geoms[i]);
    for (int i = 61; i < 120; i += 5) dGeomSetPosition(geoms[i], srand1(8), srand1(8), srand1(8));
    printf("numgeoms %d query %d %d\n", dSpaceGetNumGeoms(s), dSpaceQuery(s, geoms[0]), dSpaceQuery(s, geoms[1]));
    collide_print("after-remove", s);
    /* (ODE keeps a re-added geom clean; moving it keeps ODE's dirty-first
     * list invariant, without which ODE asserts.) */
    for (int i = 0; i < 120; i += 9) { dSpaceAdd(s, geoms[i]); dGeomSetPosition(geoms[i], srand1(8), srand1(8), srand1(8)); }
    collide_print("after-readd", s);
    for (int i = 0; i < 40; i++) dBodyDestroy(bodies[i]);
    collide_print("bodies-gone", s);
}

int main(void) {
    dInitODE2(0);
    dWorldID w = dWorldCreate();

    dSpaceID simple = dSimpleSpaceCreate(0);
    scene("simple", simple, w);
    dSpaceDestroy(simple);

    dSpaceID hash = dHashSpaceCreate(0);
    { int lo, hi; dHashSpaceGetLevels(hash, &lo, &hi); printf("levels %d %d\n", lo, hi); }
    scene("hash", hash, w);
    dHashSpaceSetLevels(hash, -1, 3);
    { int lo, hi; dHashSpaceGetLevels(hash, &lo, &hi); printf("levels %d %d\n", lo, hi); }
    collide_print("hash-levels", hash);
    dSpaceDestroy(hash);

    int orders[] = {dSAP_AXES_XYZ, dSAP_AXES_ZYX, dSAP_AXES_YZX};
    for (int o = 0; o < 3; o++) {
        dSpaceID sap = dSweepAndPruneSpaceCreate(0, orders[o]);
        scene("sap", sap, w);
        dSpaceDestroy(sap);
    }

    dVector3 c = {0, 0, 0}, e = {10, 10, 10};
    dSpaceID qt = dQuadTreeSpaceCreate(0, c, e, 4);
    scene("quadtree", qt, w);
    dSpaceDestroy(qt);

    /* ---- nested spaces, sublevels, space vs space ---- */
    {
        ngeoms = 0;
        dSpaceID top = dHashSpaceCreate(0);
        dSpaceID a = dSimpleSpaceCreate(top), b = dHashSpaceCreate(top);
        dSpaceID inner = dSimpleSpaceCreate(a);
        idx((dGeomID)top); idx((dGeomID)a); idx((dGeomID)b); idx((dGeomID)inner);
        for (int i = 0; i < 30; i++) {
            dSpaceID s = i % 3 == 0 ? a : i % 3 == 1 ? b : inner;
            dGeomID g = dCreateSphere(s, 0.5 + urand());
            dGeomSetPosition(g, srand1(4), srand1(4), srand1(4));
            idx(g);
        }
        printf("classes %d %d %d isspace %d %d\n", dSpaceGetClass(top), dSpaceGetClass(a), dSpaceGetClass(b), dGeomIsSpace((dGeomID)a), dGeomIsSpace(geoms[5]));
        collide_print("top", top);
        collide2_print("a-b", (dGeomID)a, (dGeomID)b);
        collide2_print("b-a", (dGeomID)b, (dGeomID)a);
        collide2_print("a-a", (dGeomID)a, (dGeomID)a);
        dSpaceSetSublevel(a, 1);
        printf("sublevel %d %d\n", dSpaceGetSublevel(a), dSpaceGetSublevel(b));
        collide2_print("a-b-sub", (dGeomID)a, (dGeomID)b);
        collide2_print("b-a-sub", (dGeomID)b, (dGeomID)a);
        collide2_print("inner-b", (dGeomID)inner, (dGeomID)b);
        dSpaceSetCleanup(b, 0);
        printf("cleanup %d %d manual %d\n", dSpaceGetCleanup(a), dSpaceGetCleanup(b), dSpaceGetManualCleanup(b));
        dSpaceSetManualCleanup(b, 7);
        printf("manual %d\n", dSpaceGetManualCleanup(b));
        dGeomID survivor = geoms[5];
        dSpaceDestroy(b);
        printf("survivor space null %d class %d\n", dGeomGetSpace(survivor) == 0, dGeomGetClass(survivor));
        dReal aabb[6]; dGeomGetAABB((dGeomID)top, aabb);
        printf("top aabb %.17g %.17g %.17g %.17g %.17g %.17g\n", aabb[0], aabb[1], aabb[2], aabb[3], aabb[4], aabb[5]);
        dSpaceDestroy(top);
        dGeomDestroy(survivor);
    }

    /* ---- geoms on the same body never pair; a space with <2 geoms ---- */
    {
        ngeoms = 0;
        dSpaceID s = dSimpleSpaceCreate(0);
        dBodyID b = dBodyCreate(w);
        dGeomID g1 = dCreateSphere(s, 1), g2 = dCreateSphere(s, 1), g3 = dCreateSphere(s, 1);
        idx(g1); idx(g2); idx(g3);
        dGeomSetBody(g1, b); dGeomSetBody(g2, b);
        collide_print("samebody", s);
        collide2_print("samebody2", g1, g2);
        dSpaceDestroy(s);
        dBodyDestroy(b);
    }

    dWorldDestroy(w);
    dCloseODE();
    printf("done\n");
    return 0;
}
