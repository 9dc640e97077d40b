/* DIFF-TOL rel=0 abs=0 */
/* Differential test of dCollide's dispatch, independent of the built-in
 * colliders: host colliders of user classes (looked up lazily, possibly
 * only from the other class), dSetColliderOverride, argument swapping
 * (normals negated, g1/g2 and side1/side2 exchanged), the contact count
 * limit and stride, same-geom and same-body pairs, geoms against spaces
 * (contacts of every member, room shrinking), geom transforms (child pose
 * composed, info mode), and user-class AABB tests in spaces. The host
 * colliders write contacts that encode their arguments, so any mix-up
 * shows. Geoms are printed by index. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

#define MAXG 64
static dGeomID reg[MAXG];
static int nreg;
static int idx(dGeomID g) {
    if (!g) return -1;
    for (int i = 0; i < nreg; i++) if (reg[i] == g) return i;
    reg[nreg] = g; return nreg++;
}

/* Writes min(n, 3) contacts: position = o1's position, normal encodes the
 * classes, depth the contact number, sides 10+i and 20+i. */
static int host_collide(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip) {
    int max = flags & 0xffff, n = max < 3 ? max : 3;
    for (int i = 0; i < n; i++) {
        dContactGeom *k = (dContactGeom *)((char *)c + i * skip);
        const dReal *p = dGeomIsSpace(o1) || dGeomGetClass(o1) == dPlaneClass ? 0 : dGeomGetPosition(o1);
        k->pos[0] = p ? p[0] : 0; k->pos[1] = p ? p[1] : 0; k->pos[2] = p ? p[2] : 0;
        k->normal[0] = dGeomGetClass(o1); k->normal[1] = dGeomGetClass(o2); k->normal[2] = 0.5;
        k->depth = i + (flags & 0x80000000u ? 100 : 0);
        k->g1 = o1; k->g2 = o2; k->side1 = 10 + i; k->side2 = 20 + i;
    }
    return n;
}
static int cls_a, cls_b;
static dColliderFn *collider_a(int num) { return num == dSphereClass || num == cls_b ? host_collide : 0; }
static dColliderFn *collider_b(int num) { (void)num; return 0; }
static void aabb_a(dGeomID g, dReal a[6]) {
    const dReal *p = dGeomGetPosition(g);
    for (int i = 0; i < 3; i++) { a[2 * i] = p[i] - 1; a[2 * i + 1] = p[i] + 1; }
}
static int test_calls;
static int aabb_test_b(dGeomID o1, dGeomID o2, dReal aabb[6]) {
    (void)o1; (void)aabb; test_calls++;
    return dGeomGetClass(o2) != dBoxClass;
}

static void show(const char *tag, int n, dContact *c) {
    printf("%s n %d\n", tag, n);
    for (int i = 0; i < n; i++) {
        dContactGeom *k = &c[i].geom;
        printf("  pos %.17g %.17g %.17g normal %.17g %.17g %.17g depth %.17g g%d g%d sides %d %d\n", k->pos[0], k->pos[1],
               k->pos[2], k->normal[0], k->normal[1], k->normal[2], k->depth, idx(k->g1), idx(k->g2), k->side1, k->side2);
    }
}

static void near(void *data, dGeomID a, dGeomID b) { (void)data; printf(" %d-%d", idx(a), idx(b)); }

int main(void) {
    dInitODE2(0);
    dWorldID w = dWorldCreate();
    dGeomClass ca, cb;
    memset(&ca, 0, sizeof ca); memset(&cb, 0, sizeof cb);
    ca.bytes = 8; ca.collider = collider_a; ca.aabb = aabb_a;
    cb.bytes = 0; cb.collider = collider_b; cb.aabb = aabb_a; cb.aabb_test = aabb_test_b;
    cls_a = dCreateGeomClass(&ca);
    cls_b = dCreateGeomClass(&cb);
    printf("classes %d %d\n", cls_a, cls_b);

    dGeomID ua = dCreateGeom(cls_a), ub = dCreateGeom(cls_b), sph = dCreateSphere(0, 1), bx = dCreateBox(0, 1, 1, 1);
    idx(ua); idx(ub); idx(sph); idx(bx);
    dGeomSetPosition(ua, 1, 2, 3); dGeomSetPosition(ub, -1, 0.5, 2); dGeomSetPosition(sph, 0.25, 0.5, 0.75);
    dContact c[8];
    memset(c, 0, sizeof c);
    show("a-sphere", dCollide(ua, sph, 8, &c[0].geom, sizeof(dContact)), c);
    show("sphere-a", dCollide(sph, ua, 8, &c[0].geom, sizeof(dContact)), c);
    show("a-b", dCollide(ua, ub, 2, &c[0].geom, sizeof(dContact)), c);
    show("b-a", dCollide(ub, ua, 2 | CONTACTS_UNIMPORTANT, &c[0].geom, sizeof(dContact)), c);
    show("b-sphere (none)", dCollide(ub, sph, 8, &c[0].geom, sizeof(dContact)), c);
    show("a-box (none)", dCollide(ua, bx, 8, &c[0].geom, sizeof(dContact)), c);
    show("a-a (same)", dCollide(ua, ua, 8, &c[0].geom, sizeof(dContact)), c);
    /* stride of a plain dContactGeom array */
    {
        dContactGeom g[4]; memset(g, 0, sizeof g);
        int n = dCollide(sph, ua, 4, g, sizeof(dContactGeom));
        printf("packed n %d depth %.17g %.17g sides %d %d\n", n, g[0].depth, g[1].depth, g[1].side1, g[1].side2);
    }
    /* same body: nothing */
    {
        dBodyID b = dBodyCreate(w);
        dGeomSetBody(ua, b); dGeomSetBody(sph, b);
        show("samebody", dCollide(ua, sph, 8, &c[0].geom, sizeof(dContact)), c);
        dGeomSetBody(ua, 0); dGeomSetBody(sph, 0);
        dBodyDestroy(b);
    }
    /* an override for a built-in pair, and its reverse */
    dSetColliderOverride(dBoxClass, dCylinderClass, host_collide);
    dGeomID cyl = dCreateCylinder(0, 1, 1); idx(cyl);
    dGeomSetPosition(bx, 5, 6, 7); dGeomSetPosition(cyl, 5, 6, 7.5);
    show("box-cyl override", dCollide(bx, cyl, 8, &c[0].geom, sizeof(dContact)), c);
    show("cyl-box override", dCollide(cyl, bx, 8, &c[0].geom, sizeof(dContact)), c);

    /* geoms against spaces: every member's contacts, room shrinking */
    dSpaceID s = dSimpleSpaceCreate(0); idx((dGeomID)s);
    dGeomID m[4];
    for (int i = 0; i < 4; i++) { m[i] = dCreateGeom(cls_a); idx(m[i]); dSpaceAdd(s, m[i]); dGeomSetPosition(m[i], 0.5 * i, 0, 0); }
    show("space-sphere", dCollide((dGeomID)s, sph, 8, &c[0].geom, sizeof(dContact)), c);
    show("sphere-space", dCollide(sph, (dGeomID)s, 5, &c[0].geom, sizeof(dContact)), c);
    dSpaceID s2 = dHashSpaceCreate(0); idx((dGeomID)s2);
    dGeomID m2 = dCreateSphere(s2, 1); idx(m2);
    show("space-space", dCollide((dGeomID)s, (dGeomID)s2, 8, &c[0].geom, sizeof(dContact)), c);
    show("space2-space", dCollide((dGeomID)s2, (dGeomID)s, 8, &c[0].geom, sizeof(dContact)), c);

    /* user AABB test inside a space */
    {
        dSpaceID t = dSimpleSpaceCreate(0);
        dGeomID u = dCreateGeom(cls_b), b1 = dCreateBox(t, 1, 1, 1), s1 = dCreateSphere(t, 1);
        idx(u); idx(b1); idx(s1); dSpaceAdd(t, u);
        printf("aabbtest pairs:"); dSpaceCollide(t, 0, near); printf(" calls %d\n", test_calls);
        dSpaceDestroy(t);
        nreg -= 3; /* forget them: their addresses may be reused */
    }

    /* transforms: the child at the composed pose, g1 = child or transform */
    {
        dGeomID tr = dCreateGeomTransform(0), child = dCreateGeom(cls_a);
        idx(tr); idx(child);
        dGeomSetPosition(child, 1, 0, 0);
        dMatrix3 R; dRFromAxisAndAngle(R, 0, 0, 1, 0.5);
        dGeomSetRotation(child, R);
        dGeomTransformSetGeom(tr, child);
        dGeomSetPosition(tr, 2, 3, 4);
        dRFromAxisAndAngle(R, 1, 1, 0, 0.7);
        dGeomSetRotation(tr, R);
        dReal aabb[6]; dGeomGetAABB(tr, aabb);
        printf("tr aabb %.17g %.17g %.17g %.17g %.17g %.17g\n", aabb[0], aabb[1], aabb[2], aabb[3], aabb[4], aabb[5]);
        show("tr-sphere", dCollide(tr, sph, 8, &c[0].geom, sizeof(dContact)), c);
        show("sphere-tr", dCollide(sph, tr, 8, &c[0].geom, sizeof(dContact)), c);
        dGeomTransformSetInfo(tr, 1);
        show("tr-sphere info", dCollide(tr, sph, 8, &c[0].geom, sizeof(dContact)), c);
        show("sphere-tr info", dCollide(sph, tr, 8, &c[0].geom, sizeof(dContact)), c);
        const dReal *p = dGeomGetPosition(child);
        printf("child pos after %.17g %.17g %.17g\n", p[0], p[1], p[2]);
        dGeomTransformSetCleanup(tr, 1);
        dGeomDestroy(tr);
    }

    dSpaceDestroy(s);
    dSpaceDestroy(s2);
    dWorldDestroy(w);
    dCloseODE();
    printf("done\n");
    return 0;
}
