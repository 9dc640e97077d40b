/* DIFF-TOL rel=0 abs=0 */
/* Differential test of the geom API: every class's create/set/get, AABBs
 * at random poses, point depths, frames, bits, enable flags, body
 * attachment (a geom follows its body through setters and steps), offsets
 * (local and world, position/rotation/quaternion, clear), geom setters on
 * body geoms, detaching, body destruction, the body's geom list, rays,
 * transforms, heightfield data and user classes. Geoms are printed by
 * index, never by address. Exact comparison: everything here is plain
 * arithmetic that must match ODE bit for bit. */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static double urand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static double srand1(double s) { return (2.0 * urand() - 1.0) * s; }

static void pv(const char *label, const dReal *v, int n) {
    printf("%s", label);
    for (int i = 0; i < n; i++) printf(" %.17g", v[i]);
    printf("\n");
}
static void pm(const char *label, const dReal *R) {
    printf("%s", label);
    for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) printf(" %.17g", R[i * 4 + j]);
    printf("\n");
}
static void rand_q(dQuaternion q) {
    double a = srand1(1), b = srand1(1), c = srand1(1), d = srand1(1);
    double l = sqrt(a * a + b * b + c * c + d * d);
    q[0] = a / l; q[1] = b / l; q[2] = c / l; q[3] = d / l;
}
static void rand_rot(dMatrix3 R) { dQuaternion q; rand_q(q); dRfromQ(R, q); }

#define MAXG 256
static dGeomID reg[MAXG];
static int nreg;
static int idx(dGeomID g) {
    if (!g) return -1;
    for (int i = 0; i < nreg; i++) if (reg[i] == g) return i;
    reg[nreg] = g; return nreg++;
}

static void aabb(const char *label, dGeomID g) {
    dReal a[6]; dGeomGetAABB(g, a); pv(label, a, 6);
}
static void pose(const char *tag, dGeomID g) {
    printf("-- %s g%d class %d\n", tag, idx(g), dGeomGetClass(g));
    pv("pos", dGeomGetPosition(g), 3);
    pm("R", dGeomGetRotation(g));
    dQuaternion q; dGeomGetQuaternion(g, q); pv("q", q, 4);
    dVector3 v; dMatrix3 R;
    dGeomCopyPosition(g, v); pv("cpos", v, 3);
    dGeomCopyRotation(g, R); pm("cR", R);
    aabb("aabb", g);
}
static void offsets(dGeomID g) {
    printf("isoffset %d\n", dGeomIsOffset(g));
    pv("opos", dGeomGetOffsetPosition(g), 3);
    pm("oR", dGeomGetOffsetRotation(g));
    dQuaternion q; dGeomGetOffsetQuaternion(g, q); pv("oq", q, 4);
    dVector3 v; dMatrix3 R; dGeomCopyOffsetPosition(g, v); pv("copos", v, 3);
    dGeomCopyOffsetRotation(g, R); pm("coR", R);
}
static void frames(dGeomID g) {
    dVector3 r;
    double x = srand1(3), y = srand1(3), z = srand1(3);
    dGeomGetRelPointPos(g, x, y, z, r); pv("relpointpos", r, 3);
    dGeomGetPosRelPoint(g, x, y, z, r); pv("posrelpoint", r, 3);
    dGeomVectorToWorld(g, x, y, z, r); pv("vec2world", r, 3);
    dGeomVectorFromWorld(g, x, y, z, r); pv("vecfromworld", r, 3);
}
static void place(dGeomID g) {
    dMatrix3 R; rand_rot(R);
    dGeomSetPosition(g, srand1(5), srand1(5), srand1(5));
    dGeomSetRotation(g, R);
}

/* user class */
static int user_class;
static void user_aabb(dGeomID g, dReal aabb[6]) {
    const dReal *p = dGeomGetPosition(g);
    double *r = (double *)dGeomGetClassData(g);
    for (int i = 0; i < 3; i++) { aabb[2 * i] = p[i] - r[0]; aabb[2 * i + 1] = p[i] + r[0]; }
}
static dColliderFn *user_collider(int num) { (void)num; return 0; }

static dReal hf_cb(void *data, int x, int z) { return (dReal)(x * 0.25 - z * 0.125) * (data ? 2.0 : 1.0); }

static dReal cube_planes[] = {1, 0, 0, 0.5, -1, 0, 0, 0.5, 0, 1, 0, 0.5, 0, -1, 0, 0.5, 0, 0, 1, 0.5, 0, 0, -1, 0.5};
static dReal cube_points[] = {0.5, 0.5, 0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, 0.5,
                              0.5, 0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, -0.5, 0.5, -0.5, -0.5};
static unsigned int cube_polys[] = {4, 0, 3, 7, 4, 4, 1, 5, 6, 2, 4, 0, 4, 5, 1, 4, 3, 2, 6, 7, 4, 0, 1, 2, 3, 4, 4, 7, 6, 5};

int main(void) {
    dInitODE2(0);
    dWorldID w = dWorldCreate();
    dSpaceID sp = dSimpleSpaceCreate(0);

    /* ---- every class at random poses ---- */
    dGeomID prim[6];
    prim[0] = dCreateSphere(sp, 0.7);
    prim[1] = dCreateBox(sp, 0.3, 1.2, 2.1);
    prim[2] = dCreateCapsule(sp, 0.4, 1.7);
    prim[3] = dCreateCylinder(sp, 0.6, 1.3);
    prim[4] = dCreateRay(sp, 2.5);
    prim[5] = dCreateConvex(sp, cube_planes, 6, cube_points, 8, cube_polys);
    for (int k = 0; k < 6; k++) idx(prim[k]);
    for (int round = 0; round < 20; round++) {
        for (int k = 0; k < 6; k++) {
            place(prim[k]);
            printf("class %d placeable-space %d enabled %d\n", dGeomGetClass(prim[k]), dGeomIsSpace(prim[k]), dGeomIsEnabled(prim[k]));
            aabb("aabb", prim[k]);
        }
        double x = srand1(4), y = srand1(4), z = srand1(4);
        printf("depths %.17g %.17g %.17g\n", dGeomSpherePointDepth(prim[0], x, y, z), dGeomBoxPointDepth(prim[1], x, y, z),
               dGeomCapsulePointDepth(prim[2], x, y, z));
        frames(prim[round % 6]);
    }
    /* axis-aligned rotations exercise exact zeros */
    for (int k = 0; k < 6; k++) {
        dMatrix3 R; dRFromAxisAndAngle(R, 0, 0, 1, M_PI / 2);
        dGeomSetRotation(prim[k], R); aabb("aligned", prim[k]);
    }
    /* shape setters */
    dGeomSphereSetRadius(prim[0], 1.5); printf("radius %.17g\n", dGeomSphereGetRadius(prim[0])); aabb("sphere", prim[0]);
    dGeomBoxSetLengths(prim[1], 1, 2, 3); { dVector3 l; dGeomBoxGetLengths(prim[1], l); pv("lengths", l, 3); } aabb("box", prim[1]);
    dGeomCapsuleSetParams(prim[2], 0.25, 3); { dReal r, l; dGeomCapsuleGetParams(prim[2], &r, &l); printf("capsule %.17g %.17g\n", r, l); } aabb("capsule", prim[2]);
    dGeomCylinderSetParams(prim[3], 0.5, 0.25); { dReal r, l; dGeomCylinderGetParams(prim[3], &r, &l); printf("cyl %.17g %.17g\n", r, l); } aabb("cyl", prim[3]);
    dGeomRaySetLength(prim[4], 7); printf("raylen %.17g\n", dGeomRayGetLength(prim[4])); aabb("ray", prim[4]);

    /* ---- rays ---- */
    dGeomRaySet(prim[4], 1, 2, 3, 0.3, -4, 2);
    { dVector3 s, d; dGeomRayGet(prim[4], s, d); pv("raystart", s, 3); pv("raydir", d, 3); pose("ray", prim[4]); }
    dGeomRaySetParams(prim[4], 1, 0);
    { int f, b; dGeomRayGetParams(prim[4], &f, &b); printf("rayparams %d %d\n", f, b); }
    dGeomRaySetBackfaceCull(prim[4], 5); dGeomRaySetClosestHit(prim[4], 1); dGeomRaySetFirstContact(prim[4], 0);
    printf("rayflags %d %d %d\n", dGeomRayGetFirstContact(prim[4]), dGeomRayGetBackfaceCull(prim[4]), dGeomRayGetClosestHit(prim[4]));

    /* ---- planes ---- */
    double planes[][4] = {{0, 0, 1, 0.5}, {0, 0, -2, 1}, {3, 0, 0, -1}, {0, -1, 0, 2}, {1, 1, 1, 1}, {0, 0, 0, 3}, {1e-20, 0, 1, 0}};
    for (int i = 0; i < 7; i++) {
        dGeomID p = dCreatePlane(0, planes[i][0], planes[i][1], planes[i][2], planes[i][3]);
        dVector4 r; dGeomPlaneGetParams(p, r); pv("plane", r, 4); aabb("planeaabb", p);
        printf("planedepth %.17g\n", dGeomPlanePointDepth(p, 0.5, -1, 2));
        dVector3 v; dGeomGetRelPointPos(p, 1, 2, 3, v); pv("plane-relpoint", v, 3);
        dGeomPlaneSetParams(p, 0, 2, 0, 4); dGeomPlaneGetParams(p, r); pv("plane2", r, 4); aabb("planeaabb2", p);
        dGeomDestroy(p);
    }

    /* ---- bits, enable, data ---- */
    dGeomSetCategoryBits(prim[0], 0x5); dGeomSetCollideBits(prim[0], 0xffffffff00ULL);
    printf("bits %lx %lx %lx\n", dGeomGetCategoryBits(prim[0]), dGeomGetCollideBits(prim[0]), dGeomGetCategoryBits(prim[1]));
    dGeomDisable(prim[2]); printf("enabled %d", dGeomIsEnabled(prim[2])); dGeomEnable(prim[2]); printf(" %d\n", dGeomIsEnabled(prim[2]));
    dGeomSetData(prim[3], &rng); printf("data %d\n", dGeomGetData(prim[3]) == &rng);
    printf("space %d %d\n", dGeomGetSpace(prim[0]) == sp, dGeomGetSpace((dGeomID)sp) == 0);

    /* ---- body attachment and offsets ---- */
    dBodyID b = dBodyCreate(w);
    dBodyID b2 = dBodyCreate(w);
    dBodySetPosition(b, 1, 2, 3);
    { dQuaternion q; rand_q(q); dBodySetQuaternion(b, q); }
    dGeomID gb[4];
    gb[0] = dCreateBox(sp, 1, 2, 3); gb[1] = dCreateSphere(sp, 0.5); gb[2] = dCreateCapsule(sp, 0.3, 1); gb[3] = dCreateCylinder(0, 0.3, 1);
    for (int k = 0; k < 4; k++) { idx(gb[k]); place(gb[k]); dGeomSetBody(gb[k], b); }
    printf("shares body pos %d\n", dGeomGetPosition(gb[0]) == dBodyGetPosition(b));
    for (dGeomID g = dBodyGetFirstGeom(b); g; g = dBodyGetNextGeom(g)) printf("bodygeom g%d\n", idx(g));
    for (int k = 0; k < 4; k++) { printf("body %d\n", dGeomGetBody(gb[k]) == b); pose("onbody", gb[k]); offsets(gb[k]); }
    dGeomSetOffsetPosition(gb[1], 0.5, -0.25, 1);
    { dQuaternion q; rand_q(q); dGeomSetOffsetQuaternion(gb[2], q); }
    { dMatrix3 R; rand_rot(R); dGeomSetOffsetRotation(gb[0], R); dGeomSetOffsetPosition(gb[0], -1, 0, 2); }
    dGeomSetOffsetWorldPosition(gb[3], 4, 5, 6);
    for (int k = 0; k < 4; k++) { pose("offset", gb[k]); offsets(gb[k]); frames(gb[k]); }
    { dMatrix3 R; rand_rot(R); dGeomSetOffsetWorldRotation(gb[1], R); }
    { dQuaternion q; rand_q(q); dGeomSetOffsetWorldQuaternion(gb[2], q); }
    for (int k = 1; k < 3; k++) { pose("worldoffset", gb[k]); offsets(gb[k]); }
    /* the body moves: geoms follow */
    dBodySetPosition(b, -2, 0.5, 1);
    { dMatrix3 R; rand_rot(R); dBodySetRotation(b, R); }
    for (int k = 0; k < 4; k++) pose("bodymoved", gb[k]);
    dBodySetLinearVel(b, 1, -2, 0.5); dBodySetAngularVel(b, 0.3, 0.2, -1);
    for (int s = 0; s < 5; s++) dWorldStep(w, 0.01);
    for (int k = 0; k < 4; k++) pose("stepped", gb[k]);
    /* geom setters move the body */
    dGeomSetPosition(gb[1], 3, 3, 3); pv("body after geom setpos (offset)", dBodyGetPosition(b), 3); pose("g1", gb[1]);
    { dMatrix3 R; rand_rot(R); dGeomSetRotation(gb[2], R); } pv("bodypos", dBodyGetPosition(b), 3); pm("bodyR", dBodyGetRotation(b)); pose("g2", gb[2]);
    { dQuaternion q; rand_q(q); dGeomSetQuaternion(gb[0], q); } pv("bodypos", dBodyGetPosition(b), 3); pv("bodyq", dBodyGetQuaternion(b), 4); pose("g0", gb[0]);
    dGeomClearOffset(gb[0]); offsets(gb[0]); pose("cleared", gb[0]);
    dGeomSetPosition(gb[0], 0.25, 0.5, 0.75); pv("bodypos", dBodyGetPosition(b), 3);
    { dQuaternion q; rand_q(q); dGeomSetQuaternion(gb[0], q); } pv("bodyq", dBodyGetQuaternion(b), 4);
    { dMatrix3 R; rand_rot(R); dGeomSetRotation(gb[0], R); } pm("bodyR", dBodyGetRotation(b));
    /* detach keeps the pose; moving to another body drops the offset */
    dGeomSetBody(gb[1], 0); printf("detached body %d\n", dGeomGetBody(gb[1]) == 0); pose("detached", gb[1]); offsets(gb[1]);
    pose("before-switch", gb[2]); /* (ODE asserts if an offset pose is stale here) */
    dGeomSetBody(gb[2], b2); pose("otherbody", gb[2]); offsets(gb[2]);
    for (dGeomID g = dBodyGetFirstGeom(b); g; g = dBodyGetNextGeom(g)) printf("bodygeom g%d\n", idx(g));
    dBodyDestroy(b);
    for (int k = 0; k < 4; k++) { printf("afterdestroy body %d\n", dGeomGetBody(gb[k]) == 0); pose("afterdestroy", gb[k]); }

    /* ---- transforms ---- */
    dGeomID tr = dCreateGeomTransform(sp); idx(tr);
    printf("tr empty geom %d cleanup %d info %d\n", idx(dGeomTransformGetGeom(tr)), dGeomTransformGetCleanup(tr), dGeomTransformGetInfo(tr));
    aabb("tr-empty", tr);
    dGeomID child = dCreateBox(0, 1, 0.5, 0.25); idx(child);
    dGeomSetPosition(child, 1, 0, 0); { dMatrix3 R; rand_rot(R); dGeomSetRotation(child, R); }
    dGeomTransformSetGeom(tr, child); dGeomTransformSetCleanup(tr, 3); dGeomTransformSetInfo(tr, 1);
    printf("tr geom %d cleanup %d info %d\n", idx(dGeomTransformGetGeom(tr)), dGeomTransformGetCleanup(tr), dGeomTransformGetInfo(tr));
    place(tr); pose("tr", tr); aabb("child-after", child);

    /* ---- heightfields ---- */
    {
        unsigned char bytes[12]; short shorts[12]; float floats[12]; double doubles[12];
        for (int i = 0; i < 12; i++) { bytes[i] = (unsigned char)(i * 7 % 13); shorts[i] = (short)(i * 5 - 20); floats[i] = (float)(i * 0.3 - 1); doubles[i] = i * 0.7 - 2; }
        dHeightfieldDataID d = dGeomHeightfieldDataCreate();
        for (int mode = 0; mode < 5; mode++) {
            for (int wrap = 0; wrap < 2; wrap++) {
                if (mode == 0) dGeomHeightfieldDataBuildCallback(d, 0, hf_cb, 4, 3, 4, 3, 1.5, 0.25, 0.5, wrap);
                if (mode == 1) dGeomHeightfieldDataBuildByte(d, bytes, 1, 4, 3, 4, 3, 0.5, 1, 2, wrap);
                if (mode == 2) dGeomHeightfieldDataBuildShort(d, shorts, 0, 4, 3, 4, 3, 0.5, 1, 2, wrap);
                if (mode == 3) dGeomHeightfieldDataBuildSingle(d, floats, 1, 4, 3, 4, 3, 2, -1, 0.5, wrap);
                if (mode == 4) dGeomHeightfieldDataBuildDouble(d, doubles, 0, 4, 3, 4, 3, 2, -1, 0.5, wrap);
                for (int placeable = 0; placeable < 2; placeable++) {
                    dGeomID h = dCreateHeightfield(sp, d, placeable);
                    if (placeable) place(h);
                    printf("hf mode %d wrap %d placeable %d ", mode, wrap, placeable); aabb("aabb", h);
                    if (mode == 0) { dGeomHeightfieldDataSetBounds(d, -2, 3); dGeomID h2 = dCreateHeightfield(0, d, placeable); if (placeable) place(h2); aabb("bounded", h2); dGeomDestroy(h2); }
                    printf("hfdata same %d\n", dGeomHeightfieldGetHeightfieldData(h) == d);
                    dGeomDestroy(h);
                }
            }
        }
        dHeightfieldDataID d2 = dGeomHeightfieldDataCreate();
        dGeomID h = dCreateHeightfield(0, d, 1);
        dGeomHeightfieldSetHeightfieldData(h, d2);
        printf("after set: data is d %d, d2 %d; user data is d2 %d\n", dGeomHeightfieldGetHeightfieldData(h) == d,
               dGeomHeightfieldGetHeightfieldData(h) == d2, dGeomGetData(h) == d2);
        dGeomDestroy(h);
        dGeomHeightfieldDataDestroy(d2);
        dGeomHeightfieldDataDestroy(d);
    }

    /* ---- user class ---- */
    {
        dGeomClass c; memset(&c, 0, sizeof c);
        c.bytes = sizeof(double); c.collider = user_collider; c.aabb = user_aabb;
        user_class = dCreateGeomClass(&c);
        printf("userclass %d\n", user_class);
        dGeomID u = dCreateGeom(user_class);
        double *r = (double *)dGeomGetClassData(u);
        printf("userdata zero %d\n", r[0] == 0.0);
        r[0] = 0.75; place(u);
        printf("userclass of geom %d\n", dGeomGetClass(u)); aabb("user", u);
        dReal inf[6]; dInfiniteAABB(u, inf); pv("infinite", inf, 6);
        dGeomDestroy(u);
    }

    /* ODE's creation-time messages for a badly wound polygon / plane */
    {
        static dReal bad_planes[24];
        static unsigned int rev[30];
        memcpy(bad_planes, cube_planes, sizeof cube_planes); bad_planes[3] = -0.5;
        memcpy(rev, cube_polys, sizeof cube_polys); rev[1] = 4; rev[2] = 7; rev[3] = 3; rev[4] = 0;
        fflush(stdout);
        dGeomDestroy(dCreateConvex(0, bad_planes, 6, cube_points, 8, rev));
        fflush(stdout);
    }

    dSpaceDestroy(sp);
    dWorldDestroy(w);
    dCloseODE();
    printf("done\n");
    return 0;
}
