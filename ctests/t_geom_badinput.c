/* Bad input to the geom and space functions, and changes to a space from
 * inside its own collide callback: each bad call must be reported through
 * the debug handler with the function's name in the message, return the
 * neutral value and leave every observable property of the scene
 * unchanged. Runs against OUR library only (ODE asserts and aborts on
 * these). Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <math.h>

static char last_msg[1024];
static int reports;
static void on_debug(int num, const char *msg, va_list ap) { (void)num; vsnprintf(last_msg, sizeof last_msg, msg, ap); reports++; }

typedef struct { unsigned char bytes[16384]; size_t n; } Snap;
static void put(Snap *s, const void *p, size_t n) { if (s->n + n <= sizeof s->bytes) { memcpy(s->bytes + s->n, p, n); s->n += n; } }
static void puti(Snap *s, long v) { put(s, &v, sizeof v); }
static void putp(Snap *s, const void *p) { put(s, &p, sizeof p); }

static dWorldID w;
static dBodyID body;
static dSpaceID simple, hash, quad, sap, nested;
static dGeomID sph, box, cap, cyl, ray, plane, onbody, tr, child, inner_sph;
static dGeomID all[16];
static int nall;

static void snap_geom(Snap *s, dGeomID g) {
    int cls = dGeomGetClass(g);
    puti(s, cls); putp(s, dGeomGetSpace(g)); putp(s, dGeomGetData(g)); puti(s, dGeomIsEnabled(g));
    puti(s, (long)dGeomGetCategoryBits(g)); puti(s, (long)dGeomGetCollideBits(g));
    dReal a[6]; dGeomGetAABB(g, a); put(s, a, sizeof a);
    if (cls != dPlaneClass && !dGeomIsSpace(g)) {
        putp(s, dGeomGetBody(g)); put(s, dGeomGetPosition(g), 3 * sizeof(dReal)); put(s, dGeomGetRotation(g), 12 * sizeof(dReal));
        puti(s, dGeomIsOffset(g)); put(s, dGeomGetOffsetPosition(g), 3 * sizeof(dReal));
    }
    if (dGeomIsSpace(g)) {
        dSpaceID sg = (dSpaceID)g; int n = dSpaceGetNumGeoms(sg); puti(s, n);
        puti(s, dSpaceGetCleanup(sg)); puti(s, dSpaceGetSublevel(sg));
        if (cls != dQuadTreeSpaceClass) for (int i = 0; i < n; i++) putp(s, dSpaceGetGeom(sg, i));
    }
    if (cls == dSphereClass) { dReal r = dGeomSphereGetRadius(g); put(s, &r, sizeof r); }
    if (cls == dRayClass) { dReal l = dGeomRayGetLength(g); put(s, &l, sizeof l); puti(s, dGeomRayGetClosestHit(g)); }
}
static void snap_all(Snap *s) {
    s->n = 0;
    for (int i = 0; i < nall; i++) snap_geom(s, all[i]);
    put(s, dBodyGetPosition(body), 3 * sizeof(dReal));
    putp(s, dBodyGetFirstGeom(body));
}

/* A host collider that writes min(2, max) contacts and returns
 * override_count. */
static int override_count;
static int overcounting_collider(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip) {
    int max = flags & 0xffff;
    for (int i = 0; i < (max < 2 ? max : 2); i++) {
        dContactGeom *k = (dContactGeom *)((char *)c + i * skip);
        memset(k, 0, sizeof *k);
        k->normal[2] = 1; k->depth = 0.1; k->g1 = o1; k->g2 = o2; k->side1 = k->side2 = -1;
    }
    return override_count;
}

static int checks, failures;
static Snap before, after;
static int r0;
static void pre(void) { snap_all(&before); r0 = reports; last_msg[0] = 0; }
static void post(const char *fn, const char *what, int line) {
    checks++;
    int r1 = reports;
    snap_all(&after);
    const char *why = 0;
    if (r1 != r0 + 1) why = "not reported exactly once";
    else if (!strstr(last_msg, fn)) why = "message does not name the function";
    else if (before.n != after.n || memcmp(before.bytes, after.bytes, before.n)) why = "state changed";
    if (why) { failures++; printf("FAIL line %d: %s(%s): %s [%d reports] msg='%s'\n", line, fn, what, why, r1 - r0, last_msg); }
}
#define BAD(fn, what, ...) do { pre(); __VA_ARGS__; post(#fn, what, __LINE__); } while (0)
#define EXPECT(cond) do { checks++; if (!(cond)) { failures++; printf("FAIL line %d: %s\n", __LINE__, #cond); } } while (0)

static void cb(void *d, dGeomID a, dGeomID b) { (void)d; (void)a; (void)b; }

/* Inside the simple space's collide: every change to it is refused. */
static int in_callback_calls;
static void locked_cb(void *d, dGeomID a, dGeomID b) {
    (void)d; (void)b;
    if (in_callback_calls++) return;
    dGeomID extra = dCreateSphere(0, 1);
    all[nall++] = extra;
    BAD(dSpaceAdd, "locked", dSpaceAdd(simple, extra));
    BAD(dSpaceRemove, "locked", dSpaceRemove(simple, a));
    BAD(dGeomDestroy, "locked", dGeomDestroy(a));
    BAD(dSpaceDestroy, "locked", dSpaceDestroy(simple));
    BAD(dGeomSetPosition, "locked", dGeomSetPosition(a, 9, 9, 9));
    BAD(dGeomSetBody, "locked", dGeomSetBody(a, body));
    BAD(dGeomSetCategoryBits, "locked", dGeomSetCategoryBits(a, 0));
    BAD(dGeomSphereSetRadius, "locked", if (dGeomGetClass(a) == dSphereClass) dGeomSphereSetRadius(a, 3); else dGeomBoxSetLengths(a, 3, 3, 3));
    BAD(dCreateSphere, "locked", EXPECT(dCreateSphere(simple, 1) == 0));
    BAD(dSpaceClean, "locked", dSpaceClean(simple));
    BAD(dSimpleSpaceCreate, "locked", EXPECT(dSimpleSpaceCreate(simple) == 0));
    /* reading is fine */
    EXPECT(dSpaceGetNumGeoms(simple) == 3);
    nall--;
    dGeomDestroy(extra);
    /* moving a member's body is not refused (it is not a space call) but
     * reported; the space sees the move at its next pass */
    int r = reports;
    dBodySetPosition(body, 0.25, 0, 0);
    EXPECT(reports == r + 1 && strstr(last_msg, "locked"));
}

static int pairs;
static void count_cb(void *d, dGeomID a, dGeomID b) { (void)d; (void)a; (void)b; pairs++; }

int main(void) {
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    w = dWorldCreate();
    body = dBodyCreate(w);
    simple = dSimpleSpaceCreate(0); hash = dHashSpaceCreate(0);
    dVector3 c = {0, 0, 0}, e = {5, 5, 5};
    quad = dQuadTreeSpaceCreate(0, c, e, 2); sap = dSweepAndPruneSpaceCreate(0, dSAP_AXES_XZY);
    nested = dSimpleSpaceCreate(hash);
    sph = dCreateSphere(simple, 1); box = dCreateBox(simple, 1, 2, 3); cap = dCreateCapsule(hash, 0.5, 1);
    cyl = dCreateCylinder(quad, 0.5, 1); ray = dCreateRay(sap, 3); plane = dCreatePlane(hash, 0, 0, 1, 0);
    onbody = dCreateSphere(simple, 0.5); dGeomSetBody(onbody, body);
    tr = dCreateGeomTransform(0); child = dCreateSphere(0, 0.5); dGeomTransformSetGeom(tr, child);
    inner_sph = dCreateSphere(nested, 0.3);
    dGeomID list[] = {(dGeomID)simple, (dGeomID)hash, (dGeomID)quad, (dGeomID)sap, (dGeomID)nested, sph, box, cap, cyl, ray, plane, onbody, tr, child, inner_sph};
    nall = 15; memcpy(all, list, sizeof list);

    dGeomID dead = dCreateSphere(0, 1); dGeomDestroy(dead);
    dGeomID bads[3] = {0, dead, (dGeomID)body};
    const char *bad_names[3] = {"NULL", "destroyed", "a body"};
    dVector3 v; dMatrix3 R = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}; dQuaternion q = {1, 0, 0, 0}; dReal aabb[6];
    dContactGeom contacts[4];
    for (int k = 0; k < 3; k++) {
        dGeomID g = bads[k]; const char *what = bad_names[k];
        BAD(dGeomDestroy, what, dGeomDestroy(g));
        BAD(dGeomSetData, what, dGeomSetData(g, &v));
        BAD(dGeomGetData, what, EXPECT(dGeomGetData(g) == 0));
        BAD(dGeomSetBody, what, dGeomSetBody(g, body));
        BAD(dGeomGetBody, what, EXPECT(dGeomGetBody(g) == 0));
        BAD(dGeomSetPosition, what, dGeomSetPosition(g, 1, 2, 3));
        BAD(dGeomSetRotation, what, dGeomSetRotation(g, R));
        BAD(dGeomSetQuaternion, what, dGeomSetQuaternion(g, q));
        BAD(dGeomGetPosition, what, EXPECT(dGeomGetPosition(g) == 0));
        BAD(dGeomGetRotation, what, EXPECT(dGeomGetRotation(g) == 0));
        BAD(dGeomGetQuaternion, what, dGeomGetQuaternion(g, q));
        BAD(dGeomGetAABB, what, dGeomGetAABB(g, aabb));
        BAD(dGeomIsSpace, what, EXPECT(dGeomIsSpace(g) == 0));
        BAD(dGeomGetSpace, what, EXPECT(dGeomGetSpace(g) == 0));
        BAD(dGeomGetClass, what, EXPECT(dGeomGetClass(g) == -1));
        BAD(dGeomSetCategoryBits, what, dGeomSetCategoryBits(g, 1));
        BAD(dGeomEnable, what, dGeomEnable(g));
        BAD(dGeomDisable, what, dGeomDisable(g));
        BAD(dGeomGetRelPointPos, what, dGeomGetRelPointPos(g, 1, 2, 3, v));
        BAD(dGeomSetOffsetPosition, what, dGeomSetOffsetPosition(g, 1, 2, 3));
        BAD(dGeomClearOffset, what, dGeomClearOffset(g));
        BAD(dGeomSphereSetRadius, what, dGeomSphereSetRadius(g, 1));
        BAD(dGeomBoxGetLengths, what, dGeomBoxGetLengths(g, v));
        BAD(dGeomRaySet, what, dGeomRaySet(g, 0, 0, 0, 1, 0, 0));
        BAD(dCollide, what, EXPECT(dCollide(g, sph, 4, contacts, sizeof(dContactGeom)) == 0));
        BAD(dCollide, what, EXPECT(dCollide(sph, g, 4, contacts, sizeof(dContactGeom)) == 0));
        BAD(dSpaceCollide2, what, dSpaceCollide2(g, sph, 0, cb));
        BAD(dSpaceAdd, what, dSpaceAdd(simple, g));
        BAD(dSpaceAdd, what, dSpaceAdd((dSpaceID)g, cyl));
        BAD(dSpaceDestroy, what, dSpaceDestroy((dSpaceID)g));
        BAD(dSpaceGetNumGeoms, what, EXPECT(dSpaceGetNumGeoms((dSpaceID)g) == 0));
        BAD(dSpaceCollide, what, dSpaceCollide((dSpaceID)g, 0, cb));
        if (g) { /* (a NULL space is valid here) */
            BAD(dCreateSphere, what, EXPECT(dCreateSphere((dSpaceID)g, 1) == 0));
            BAD(dSimpleSpaceCreate, what, EXPECT(dSimpleSpaceCreate((dSpaceID)g) == 0));
        }
        BAD(dGeomTransformSetGeom, what, dGeomTransformSetGeom(g, sph));
    }
    /* wrong classes */
    BAD(dGeomSphereSetRadius, "box", dGeomSphereSetRadius(box, 1));
    BAD(dGeomSphereGetRadius, "box", EXPECT(dGeomSphereGetRadius(box) == 0));
    BAD(dGeomBoxSetLengths, "sphere", dGeomBoxSetLengths(sph, 1, 1, 1));
    BAD(dGeomCapsuleSetParams, "cylinder", dGeomCapsuleSetParams(cyl, 1, 1));
    BAD(dGeomCylinderSetParams, "capsule", dGeomCylinderSetParams(cap, 1, 1));
    BAD(dGeomPlaneSetParams, "sphere", dGeomPlaneSetParams(sph, 0, 0, 1, 0));
    BAD(dGeomRaySetLength, "sphere", dGeomRaySetLength(sph, 1));
    BAD(dGeomTransformSetGeom, "sphere", dGeomTransformSetGeom(sph, box));
    BAD(dGeomHeightfieldGetHeightfieldData, "sphere", EXPECT(dGeomHeightfieldGetHeightfieldData(sph) == 0));
    BAD(dGeomGetClassData, "sphere", EXPECT(dGeomGetClassData(sph) == 0));
    BAD(dSpaceAdd, "geom as space", dSpaceAdd((dSpaceID)sph, box));
    BAD(dSpaceGetNumGeoms, "geom as space", EXPECT(dSpaceGetNumGeoms((dSpaceID)sph) == 0));
    BAD(dHashSpaceSetLevels, "simple space", dHashSpaceSetLevels(simple, 0, 1));
    /* non-placeable geoms have no pose */
    BAD(dGeomGetPosition, "plane", EXPECT(dGeomGetPosition(plane) == 0));
    BAD(dGeomSetPosition, "plane", dGeomSetPosition(plane, 1, 1, 1));
    BAD(dGeomGetRotation, "space", EXPECT(dGeomGetRotation((dGeomID)simple) == 0));
    BAD(dGeomSetBody, "plane", dGeomSetBody(plane, body));
    /* offsets need a body */
    BAD(dGeomSetOffsetPosition, "no body", dGeomSetOffsetPosition(sph, 1, 2, 3));
    BAD(dGeomSetOffsetWorldRotation, "no body", dGeomSetOffsetWorldRotation(sph, R));
    BAD(dGeomSetOffsetQuaternion, "no body", dGeomSetOffsetQuaternion(box, q));
    /* values */
    BAD(dCreateSphere, "negative radius", EXPECT(dCreateSphere(0, -1) == 0));
    BAD(dCreateBox, "infinite side", EXPECT(dCreateBox(0, INFINITY, 1, 1) == 0));
    BAD(dCreateCapsule, "NaN length", EXPECT(dCreateCapsule(0, 1, NAN) == 0));
    BAD(dGeomSetPosition, "NaN", dGeomSetPosition(sph, NAN, 0, 0));
    BAD(dGeomSetPosition, "infinite", dGeomSetPosition(onbody, 0, INFINITY, 0));
    { dMatrix3 Rn = {1, 0, NAN, 0, 0, 1, 0, 0, 0, 0, 1, 0}; BAD(dGeomSetRotation, "NaN matrix", dGeomSetRotation(sph, Rn)); }
    { dMatrix3 Rz = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}; BAD(dGeomSetRotation, "zero matrix on body", dGeomSetRotation(onbody, Rz)); }
    { dQuaternion qz = {0, 0, 0, 0}; BAD(dGeomSetQuaternion, "zero quaternion on body", dGeomSetQuaternion(onbody, qz)); }
    BAD(dGeomSetRotation, "NULL", dGeomSetRotation(sph, 0));
    BAD(dGeomGetAABB, "NULL out", dGeomGetAABB(sph, 0));
    BAD(dGeomRaySet, "zero direction", dGeomRaySet(ray, 0, 0, 0, 0, 0, 0));
    BAD(dGeomBoxSetLengths, "negative", dGeomBoxSetLengths(box, 1, -1, 1));
    BAD(dGeomPlaneSetParams, "NaN", dGeomPlaneSetParams(plane, 0, 0, 1, NAN));
    /* dCollide arguments */
    BAD(dCollide, "no contacts", EXPECT(dCollide(sph, box, 0, contacts, sizeof(dContactGeom)) == 0));
    BAD(dCollide, "NULL contact", EXPECT(dCollide(sph, box, 1, 0, sizeof(dContactGeom)) == 0));
    BAD(dCollide, "small skip", EXPECT(dCollide(sph, box, 1, contacts, 8) == 0));
    BAD(dSpaceCollide, "NULL callback", dSpaceCollide(simple, 0, 0));
    /* space membership and structure */
    BAD(dSpaceAdd, "already in a space", dSpaceAdd(hash, sph));
    BAD(dSpaceAdd, "into itself", dSpaceAdd(nested, (dGeomID)nested));
    BAD(dSpaceAdd, "cycle", dSpaceAdd(nested, (dGeomID)hash));
    BAD(dSpaceRemove, "not a member", dSpaceRemove(hash, sph));
    BAD(dSpaceGetGeom, "out of range", EXPECT(dSpaceGetGeom(simple, 3) == 0));
    BAD(dSpaceGetGeom, "negative", EXPECT(dSpaceGetGeom(simple, -1) == 0));
    BAD(dSpaceGetGeom, "quadtree", EXPECT(dSpaceGetGeom(quad, 0) == 0));
    BAD(dHashSpaceSetLevels, "min above max", dHashSpaceSetLevels(hash, 3, 1));
    BAD(dSweepAndPruneSpaceCreate, "axis order", EXPECT(dSweepAndPruneSpaceCreate(0, 63) == 0));
    BAD(dQuadTreeSpaceCreate, "depth", EXPECT(dQuadTreeSpaceCreate(0, c, e, -1) == 0));
    BAD(dQuadTreeSpaceCreate, "NULL center", EXPECT(dQuadTreeSpaceCreate(0, 0, e, 2) == 0));
    BAD(dCreateGeom, "unknown class", EXPECT(dCreateGeom(dFirstUserClass + 3) == 0));
    BAD(dCreateGeom, "built-in class", EXPECT(dCreateGeom(dSphereClass) == 0));
    BAD(dSetColliderOverride, "class range", dSetColliderOverride(dGeomNumClasses, 0, 0));
    BAD(dCreateHeightfield, "NULL data", EXPECT(dCreateHeightfield(0, 0, 1) == 0));
    {
        dHeightfieldDataID d = dGeomHeightfieldDataCreate();
        double h[4] = {0, 1, 2, 3};
        BAD(dGeomHeightfieldDataBuildDouble, "one sample", dGeomHeightfieldDataBuildDouble(d, h, 0, 1, 1, 1, 4, 1, 0, 0, 0));
        BAD(dGeomHeightfieldDataBuildDouble, "zero width", dGeomHeightfieldDataBuildDouble(d, h, 0, 0, 1, 2, 2, 1, 0, 0, 0));
        BAD(dGeomHeightfieldDataBuildDouble, "NULL data", dGeomHeightfieldDataBuildDouble(d, 0, 0, 1, 1, 2, 2, 1, 0, 0, 0));
        BAD(dGeomHeightfieldDataBuildCallback, "NULL callback", dGeomHeightfieldDataBuildCallback(d, 0, 0, 1, 1, 2, 2, 1, 0, 0, 0));
        dGeomHeightfieldDataDestroy(d);
        BAD(dGeomHeightfieldDataSetBounds, "destroyed", dGeomHeightfieldDataSetBounds(d, 0, 1));
    }
    { int dummy = 4; BAD(dGeomLowLevelControl, "unsupported", EXPECT(dGeomLowLevelControl(sph, 1, 1, &dummy, &dummy) == 0)); }

    /* locked space: changes from inside the callback are refused */
    in_callback_calls = 0;
    dGeomSetPosition(sph, 0, 0, 0); dGeomSetPosition(box, 0.5, 0, 0);
    dSpaceCollide(simple, 0, locked_cb);
    EXPECT(in_callback_calls > 0);
    /* and work once the collide is over */
    pairs = 0;
    dSpaceCollide(simple, 0, count_cb);
    EXPECT(pairs == 3);
    int r = reports;
    dGeomID extra = dCreateSphere(simple, 1);
    dGeomSetPosition(sph, 9, 9, 9);
    dGeomDestroy(extra);
    EXPECT(reports == r);

    /* A host collider (dSetColliderOverride) returning a count outside
     * 0..max: ODE passes it on (its callers then read past the contact
     * buffer, or get a negative count); reported, kept within the buffer.
     * Before, it was clamped without a report. */
    {
        dContactGeom cg[4];
        dGeomSetPosition(sph, 0, 0, 0); dGeomSetPosition(box, 0.5, 0, 0);
        dSetColliderOverride(dSphereClass, dBoxClass, overcounting_collider);
        override_count = 7;
        BAD(dCollide, "count above max", EXPECT(dCollide(sph, box, 2, cg, sizeof cg[0]) == 2));
        BAD(dCollide, "count above max, reversed pair", EXPECT(dCollide(box, sph, 3, cg, sizeof cg[0]) == 3));
        EXPECT(cg[0].g1 == box && cg[0].normal[2] == -1); /* reversed as ODE does */
        override_count = -3;
        BAD(dCollide, "negative count", EXPECT(dCollide(sph, box, 2, cg, sizeof cg[0]) == 0));
        override_count = 1;
        r = reports;
        EXPECT(dCollide(sph, box, 2, cg, sizeof cg[0]) == 1);
        EXPECT(reports == r);
        dSetColliderOverride(dSphereClass, dBoxClass, 0);
    }

    dSpaceDestroy(simple); dSpaceDestroy(hash); dSpaceDestroy(quad); dSpaceDestroy(sap);
    dGeomDestroy(tr); dGeomDestroy(child);
    dWorldDestroy(w);
    dCloseODE();
    if (failures) { printf("FAILED %d of %d\n", failures, checks); return 1; }
    printf("PASS %d\n", checks);
    return 0;
}
