/* DIFF-TOL rel=0 abs=0 */
/*
 * Collision argument checks at ODE's own boundaries (issue 9 §1): every
 * call here is one Debian's ODE 0.16.2 accepts and proceeds with, so ours
 * must accept it and give the same numbers.
 *
 *  - zero-sized spheres, boxes, capsules and cylinders (and a radius of -0)
 *    colliding with a plane, a box and each other;
 *  - a ray direction of (6e-309, 0, 0), just above the size ODE's
 *    normalisation overflows on;
 *  - dBoxBox and dBoxTouchesBox with negative sides (ODE does not check
 *    them), dBoxBox with a contact stride of 0 and of 8 bytes (ODE writes
 *    record i at i * skip, overlapping);
 *  - trimesh data with double vertices 12 and 16 bytes apart (records
 *    overlap: ODE's limit is 12 bytes, not the size of a vertex);
 *  - a heightfield 1e-300 wide; planes with zero, tiny and huge normals;
 *  - a non-unit quaternion on a geom without body (ODE converts it as is);
 *  - dGeomLowLevelControl on a trimesh: the "any" code, reading and
 *    setting the sphere-contact merge option, wrong data sizes (the merge
 *    modes at work: diff_checks_boundaries_trimesh_merge.c).
 * Prints %.17g: identical text.
 */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <math.h>

static void p3(const char *label, const dReal *v) { printf("%s %.17g %.17g %.17g\n", label, v[0], v[1], v[2]); }

static void contacts(const char *label, dGeomID a, dGeomID b)
{
    dContactGeom c[8];
    int i, n = dCollide(a, b, 8, c, sizeof c[0]);
    printf("%s: %d\n", label, n);
    for (i = 0; i < n; i++)
        printf("  pos %.17g %.17g %.17g n %.17g %.17g %.17g depth %.17g\n", c[i].pos[0], c[i].pos[1], c[i].pos[2],
               c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth);
}

static void zero_sizes(void)
{
    dGeomID plane = dCreatePlane(0, 0, 0, 1, 0);
    dGeomID box = dCreateBox(0, 1, 1, 1);
    dGeomID g[6];
    const char *names[6] = {"sphere 0", "sphere -0", "box 0", "box 0x1x0", "capsule 0,0", "cylinder 0,0"};
    int i;
    dGeomSetPosition(box, 0, 0, 0.4);
    g[0] = dCreateSphere(0, 0);
    g[1] = dCreateSphere(0, -0.0);
    g[2] = dCreateBox(0, 0, 0, 0);
    g[3] = dCreateBox(0, 0, 1, 0);
    g[4] = dCreateCapsule(0, 0, 0);
    g[5] = dCreateCylinder(0, 0, 0);
    for (i = 0; i < 6; i++) {
        char label[64];
        dReal aabb[6];
        dMatrix3 R;
        dRFromAxisAndAngle(R, 1, 1, 0, 0.3);
        dGeomSetRotation(g[i], R);
        dGeomSetPosition(g[i], 0.1, -0.2, 0.1);
        dGeomGetAABB(g[i], aabb);
        printf("%s aabb %.17g %.17g %.17g %.17g %.17g %.17g\n", names[i], aabb[0], aabb[1], aabb[2], aabb[3], aabb[4], aabb[5]);
        sprintf(label, "%s vs plane (inside)", names[i]);
        contacts(label, g[i], plane);
        sprintf(label, "%s vs box (inside)", names[i]);
        contacts(label, g[i], box);
        dGeomSetPosition(g[i], 0.1, -0.2, 0);
        sprintf(label, "%s vs plane (on it)", names[i]);
        contacts(label, g[i], plane);
    }
    printf("sphere radius -0 reads %.17g\n", dGeomSphereGetRadius(g[1]));
    printf("sphere 0 point depth %.17g\n", dGeomSpherePointDepth(g[0], 0.1, -0.2, 0.3));
    printf("box 0 point depth %.17g\n", dGeomBoxPointDepth(g[2], 0.1, -0.2, 0.3));
    for (i = 0; i < 6; i++) dGeomDestroy(g[i]);
    dGeomDestroy(plane);
    dGeomDestroy(box);
}

static void ray_direction(void)
{
    dGeomID ray = dCreateRay(0, 10), sphere = dCreateSphere(0, 1);
    dVector3 p, d;
    dGeomSetPosition(sphere, 5, 0, 0);
    dGeomRaySet(ray, 0, 0, 0, 6e-309, 0, 0);
    dGeomRayGet(ray, p, d);
    p3("ray (6e-309, 0, 0) start", p);
    p3("ray (6e-309, 0, 0) dir", d);
    contacts("ray (6e-309, 0, 0) vs sphere", ray, sphere);
    dGeomRaySet(ray, 0, 0, 0, 1e-300, 2e-300, -1e-310);
    dGeomRayGet(ray, p, d);
    p3("ray (1e-300, 2e-300, -1e-310) dir", d);
    dGeomDestroy(ray);
    dGeomDestroy(sphere);
}

static void box_box(void)
{
    static const dReal sides[][3] = {{1, -0.5, 1}, {-1, 1, 1}, {-1, -1, -1}, {0.8, 1.2, -0.1}, {3, -0.2, 2}};
    static const dReal at[][3] = {{0.5, 0, 0}, {0.2, 0.3, -0.1}, {0, 0, 0.9}};
    dMatrix3 R1, R2;
    unsigned i, k;
    int skip;
    dRFromAxisAndAngle(R1, 0.2, 1, 0.1, 0.4);
    dRFromAxisAndAngle(R2, 1, 0, 0.3, -0.7);
    for (i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        for (k = 0; k < sizeof at / sizeof at[0]; k++) {
            dVector3 p1 = {0, 0, 0}, s2 = {1, 1.5, 0.5}, n = {7, 7, 7};
            dContactGeom c[4];
            dReal depth = 7;
            int code = 7, m, t, j;
            memset(c, 0, sizeof c);
            m = dBoxBox(p1, R1, sides[i], at[k], R2, s2, n, &depth, &code, 4, c, sizeof c[0]);
            t = dBoxTouchesBox(p1, R1, sides[i], at[k], R2, s2);
            printf("negative sides %u at %u: touches %d, %d contacts, code %d depth %.17g n %.17g %.17g %.17g\n", i, k, t, m,
                   code, depth, n[0], n[1], n[2]);
            for (j = 0; j < m; j++) printf("  %.17g %.17g %.17g %.17g\n", c[j].pos[0], c[j].pos[1], c[j].pos[2], c[j].depth);
        }
    }
    /* contact strides below sizeof(dContactGeom): records overlap */
    for (skip = 0; skip <= 16; skip += 8) {
        dVector3 p1 = {0, 0, 0}, p2 = {0.3, 0.1, 0.6}, s1 = {1, 1, 1}, s2 = {2, 2, 0.5}, n = {7, 7, 7};
        double buf[64];
        dReal depth = 7;
        int code = 7, m, j;
        memset(buf, 0, sizeof buf);
        m = dBoxBox(p1, R1, s1, p2, R1, s2, n, &depth, &code, 4, (dContactGeom *)buf, skip);
        printf("skip %d: %d contacts, code %d, depth %.17g\n", skip, m, code, depth);
        for (j = 0; j < 16; j++) printf(" %.17g", buf[j]);
        printf("\n");
    }
}

static const double dverts[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.2, 2, 0.5, 0.1, 2, 1.5, -0.1};
static const dTriIndex strip[] = {0, 1, 2, 3, 4, 5};

static void print_mesh(const char *label, dTriMeshDataID d, int with_aabb)
{
    dGeomID g = dCreateTriMesh(0, d, 0, 0, 0), s = dCreateSphere(0, 0.4);
    int i, n = dGeomTriMeshGetTriangleCount(g);
    dReal aabb[6];
    printf("%s: %d triangles\n", label, n);
    for (i = 0; i < n; i++) {
        dVector3 a, b, c;
        dGeomTriMeshGetTriangle(g, i, &a, &b, &c);
        printf("  %d: %.9g %.9g %.9g | %.9g %.9g %.9g | %.9g %.9g %.9g\n", i, a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1],
               c[2]);
    }
    if (with_aabb) {
        dGeomGetAABB(g, aabb);
        printf("  aabb %.17g %.17g %.17g %.17g %.17g %.17g\n", aabb[0], aabb[1], aabb[2], aabb[3], aabb[4], aabb[5]);
    }
    /* a sphere resting over the first triangle only: one contact */
    dGeomSetPosition(s, 0.2, 0.2, 0.3);
    contacts("  sphere over the first triangle", s, g);
    dGeomDestroy(s);
    dGeomDestroy(g);
}

static void trimesh_strides(void)
{
    dTriMeshDataID d = dGeomTriMeshDataCreate();
    /* double vertices 12 and 16 bytes apart: overlapping records, which
     * OPCODE and ODE both read with the stride given (below 12 bytes OPCODE
     * ignores the stride: refused, see t_checks_boundaries_refused.c) */
    dGeomTriMeshDataBuildDouble(d, dverts, 12, 6, strip, 6, 3 * sizeof(dTriIndex));
    /* (no bounding box: ODE's reads these misaligned doubles at full
     * precision, the triangles go through OPCODE's floats) */
    print_mesh("double vertex stride 12", d, 0);
    dGeomTriMeshDataBuildDouble(d, dverts, 16, 6, strip, 6, 3 * sizeof(dTriIndex));
    print_mesh("double vertex stride 16", d, 1);
    dGeomTriMeshDataDestroy(d);
}

static void low_level_control(void)
{
    static const float v[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    static const dTriIndex ix[] = {0, 1, 2};
    dTriMeshDataID d = dGeomTriMeshDataCreate();
    dGeomID g;
    int value, size, r;
    dGeomTriMeshDataBuildSingle(d, v, 12, 3, ix, 3, 12);
    g = dCreateTriMesh(0, d, 0, 0, 0);
    /* "any" code: always 1, the size set to 0 */
    size = 4; r = dGeomLowLevelControl(g, dGeomColliderControlClass, dGeomCommonAnyControlCode, &value, &size);
    printf("control any: %d size %d\n", r, size);
    size = 0; r = dGeomLowLevelControl(g, dGeomColliderControlClass, dGeomCommonAnyControlCode, 0, &size);
    printf("control any, no value: %d size %d\n", r, size);
    /* the merge option: ODE's default is no merging */
    size = sizeof(int); value = -5;
    r = dGeomLowLevelControl(g, dGeomColliderControlClass, dGeomColliderGetMergeSphereContactsControlCode, &value, &size);
    printf("get merge: %d value %d size %d\n", r, value, size);
    size = sizeof(int); value = dGeomColliderMergeContactsValue_None;
    r = dGeomLowLevelControl(g, dGeomColliderControlClass, dGeomColliderSetMergeSphereContactsControlCode, &value, &size);
    printf("set merge none: %d size %d\n", r, size);
    size = sizeof(int); value = dGeomColliderMergeContactsValue__Default;
    r = dGeomLowLevelControl(g, dGeomColliderControlClass, dGeomColliderSetMergeSphereContactsControlCode, &value, &size);
    printf("set merge default: %d size %d\n", r, size);
    size = sizeof(int); value = -5;
    r = dGeomLowLevelControl(g, dGeomColliderControlClass, dGeomColliderGetMergeSphereContactsControlCode, &value, &size);
    printf("get merge: %d value %d size %d\n", r, value, size);
    /* wrong sizes: answered 0 with the size needed */
    size = 8; value = dGeomColliderMergeContactsValue_Full;
    r = dGeomLowLevelControl(g, dGeomColliderControlClass, dGeomColliderSetMergeSphereContactsControlCode, &value, &size);
    printf("set merge, size 8: %d size %d\n", r, size);
    size = sizeof(int);
    r = dGeomLowLevelControl(g, dGeomColliderControlClass, dGeomColliderGetMergeSphereContactsControlCode, 0, &size);
    printf("get merge, no value: %d size %d\n", r, size);
    dGeomDestroy(g);
    dGeomTriMeshDataDestroy(d);
}

static void heightfield_tiny(void)
{
    static const double h[9] = {0, 1, 0, 1, 2, 1, 0, 1, 0};
    dHeightfieldDataID d = dGeomHeightfieldDataCreate();
    dGeomID g;
    dReal aabb[6];
    dGeomHeightfieldDataBuildDouble(d, h, 0, 1e-300, 2e-300, 3, 3, 1, 0, 1, 0);
    g = dCreateHeightfield(0, d, 1);
    dGeomGetAABB(g, aabb);
    printf("heightfield 1e-300 wide: aabb %.17g %.17g %.17g %.17g %.17g %.17g\n", aabb[0], aabb[1], aabb[2], aabb[3],
           aabb[4], aabb[5]);
    dGeomDestroy(g);
    dGeomHeightfieldDataDestroy(d);
}

static void plane_normals(void)
{
    static const dReal n[][4] = {{0, 0, 0, 1}, {1e-200, 0, 0, 2}, {1e-160, -3e-160, 0, 0.5}, {0, 1e300, 1e300, -1}};
    unsigned i;
    for (i = 0; i < sizeof n / sizeof n[0]; i++) {
        dVector4 r;
        dGeomID g = dCreatePlane(0, n[i][0], n[i][1], n[i][2], n[i][3]);
        dGeomPlaneGetParams(g, r);
        printf("plane %u: %.17g %.17g %.17g %.17g\n", i, r[0], r[1], r[2], r[3]);
        dGeomDestroy(g);
    }
}

static void bodiless_quaternion(void)
{
    dGeomID g = dCreateBox(0, 1, 1, 1);
    dQuaternion q = {2, 0, 0, 0}, q2 = {0.5, 0.5, 0, 0}, back;
    const dReal *R;
    int i;
    dGeomSetQuaternion(g, q);
    R = dGeomGetRotation(g);
    printf("geom quaternion (2, 0, 0, 0) R");
    for (i = 0; i < 12; i++) printf(" %.17g", R[i]);
    printf("\n");
    dGeomSetQuaternion(g, q2);
    R = dGeomGetRotation(g);
    printf("geom quaternion (0.5, 0.5, 0, 0) R");
    for (i = 0; i < 12; i++) printf(" %.17g", R[i]);
    printf("\n");
    dGeomGetQuaternion(g, back);
    printf("  read back %.17g %.17g %.17g %.17g\n", back[0], back[1], back[2], back[3]);
    dGeomDestroy(g);
}

int main(void)
{
    dInitODE2(0);
    zero_sizes();
    ray_direction();
    box_box();
    trimesh_strides();
    low_level_control();
    plane_normals();
    heightfield_tiny();
    bodiless_quaternion();
    dCloseODE();
    return 0;
}
