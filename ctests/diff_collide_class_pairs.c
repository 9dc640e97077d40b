/* DIFF-TOL rel=0 abs=0 */
/* dCollide's class table against Debian's: one geom of every built-in
 * class (sphere, box, capsule, cylinder, plane, ray, convex, geom
 * transform, trimesh, heightfield, and a simple space holding a sphere),
 * all overlapping around the origin, collided pairwise in both orders
 * (two instances of each class, so same-class pairs are covered too).
 * Only the contact counts (capped at 16) are printed: a pair Debian's ODE
 * has a collider for must give contacts here too, and a pair it has none
 * for must give none. */
#include <ode/ode.h>
#include <stdio.h>

/* geom transforms are deprecated, still registered */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static float cube_v[8][3];
static int cube_i[36] = {0,2,1,0,3,2, 4,5,6,4,6,7, 0,1,5,0,5,4, 1,2,6,1,6,5, 2,3,7,2,7,6, 3,0,4,3,4,7};
static dReal conv_planes[] = { 1,0,0,0.4, -1,0,0,0.4, 0,1,0,0.4, 0,-1,0,0.4, 0,0,1,0.4, 0,0,-1,0.4 };
static dReal conv_points[24];
static unsigned int conv_poly[] = { 4,1,3,7,5, 4,0,4,6,2, 4,2,6,7,3, 4,0,1,5,4, 4,4,5,7,6, 4,0,2,3,1 };
static double hf_heights[25];

#define NK 11
static const char *names[NK] = {"sphere", "box", "capsule", "cylinder", "plane", "ray", "convex",
                                "transform", "trimesh", "heightfield", "space"};

static dGeomID make(int k, int second)
{
    /* the second instance is shifted sideways, so surfaces cross (a
     * sphere deep inside a closed mesh has no contact with it) */
    double s = second ? 0.6 : 0.0;
    dGeomID g = 0;
    switch (k) {
    case 0: g = dCreateSphere(0, 0.5); break;
    case 1: g = dCreateBox(0, 0.8, 0.7, 0.9); break;
    case 2: g = dCreateCapsule(0, 0.35, 0.8); break;
    case 3: g = dCreateCylinder(0, 0.4, 0.8); break;
    case 4: return dCreatePlane(0, 0, 1, 0, 0.1 + 0.2 * second);
    case 5:
        g = dCreateRay(0, 5);
        dGeomRaySet(g, 0.3 + 0.02 * second, 2, 0.03, 0.01, -1, 0.02);
        return g;
    case 6: g = dCreateConvex(0, conv_planes, 6, conv_points, 8, conv_poly); break;
    case 7: {
        dGeomID in = dCreateSphere(0, 0.45);
        g = dCreateGeomTransform(0);
        dGeomTransformSetGeom(g, in);
        dGeomTransformSetCleanup(g, 1);
        dGeomSetPosition(in, 0.02, -0.03, 0.01);
        break;
    }
    case 8: {
        dTriMeshDataID d = dGeomTriMeshDataCreate();
        dGeomTriMeshDataBuildSingle(d, cube_v, 3 * sizeof(float), 8, cube_i, 36, 3 * sizeof(int));
        /* convex-trimesh needs the face angles (Debian's ODE aborts without) */
        dGeomTriMeshDataPreprocess2(d, 1U << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, NULL);
        g = dCreateTriMesh(0, d, 0, 0, 0);
        break;
    }
    case 9: {
        dHeightfieldDataID d = dGeomHeightfieldDataCreate();
        dGeomHeightfieldDataBuildDouble(d, hf_heights, 0, 4, 4, 5, 5, 1, 0.2 * second, 0.5, 0);
        return dCreateHeightfield(0, d, 0);
    }
    case 10: {
        dSpaceID sp = dSimpleSpaceCreate(0);
        dGeomID in = dCreateSphere((dSpaceID)sp, 0.45);
        dGeomSetPosition(in, s, 0.02, -0.01);
        return (dGeomID)sp;
    }
    }
    dGeomSetPosition(g, s, 0.05, 0.02 * second);
    {
        dMatrix3 R;
        dRFromAxisAndAngle(R, 0.3, 1, 0.2, second ? 0.4 : 0.2);
        dGeomSetRotation(g, R);
    }
    return g;
}

int main(void)
{
    dGeomID g[NK][2];
    dContactGeom c[16];
    int i, j, k;
    dInitODE2(0);
    for (i = 0; i < 8; i++) {
        cube_v[i][0] = (i == 1 || i == 2 || i == 5 || i == 6) ? 0.45f : -0.45f;
        cube_v[i][1] = (i == 2 || i == 3 || i == 6 || i == 7) ? 0.45f : -0.45f;
        cube_v[i][2] = i >= 4 ? 0.45f : -0.45f;
        conv_points[3 * i] = (i & 1) ? 0.4 : -0.4;
        conv_points[3 * i + 1] = (i & 2) ? 0.4 : -0.4;
        conv_points[3 * i + 2] = (i & 4) ? 0.4 : -0.4;
    }
    for (i = 0; i < 25; i++) hf_heights[i] = 0.1 + 0.01 * (i % 3);
    for (k = 0; k < NK; k++) {
        g[k][0] = make(k, 0);
        g[k][1] = make(k, 1);
        /* Fresh AABBs, as in a space: some colliders read the cached one
         * (convex-trimesh picks triangles with it). */
        if (k != 4) {
            dReal aabb[6];
            dGeomGetAABB(g[k][0], aabb);
            dGeomGetAABB(g[k][1], aabb);
        }
        printf("class %s %d\n", names[k], dGeomGetClass(g[k][0]));
    }
    for (i = 0; i < NK; i++)
        for (j = 0; j < NK; j++) {
            int n = dCollide(g[i][0], g[j][1], 16, c, sizeof(dContactGeom));
            printf("%s %s %d\n", names[i], names[j], n);
        }
    dCloseODE();
    printf("done\n");
    return 0;
}
