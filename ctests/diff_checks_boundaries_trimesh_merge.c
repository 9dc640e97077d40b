/* DIFF-TOL rel=1e-12 abs=1e-14 */
/*
 * Trimesh–sphere contact merging (issue 9 §1): dGeomLowLevelControl's
 * sphere-contact merge option, which ours refused before, set to each of
 * ODE's values (none, normals, full, default) on a tent-shaped mesh and
 * used on spheres touching one, two or more of its triangles, with and
 * without a triangle merge callback, and with the contact count capped.
 * Contacts are printed in triangle order (the order the mesh tree yields
 * them is not part of this test), and with a tolerance: the underlying
 * trimesh–sphere contacts agree with ODE's to rounding only.
 */
#include <ode/ode.h>
#include <stdio.h>
#include <stdlib.h>

/* symmetric, so that the merged index does not depend on contact order */
static int merge_tris(dGeomID mesh, int first, int second)
{
    (void)mesh;
    return first + second + 1000;
}

static int by_side1(const void *a, const void *b)
{
    const dContactGeom *x = a, *y = b;
    return (x->side1 > y->side1) - (x->side1 < y->side1);
}

int main(void)
{
    /* a tent: two slopes meeting at the ridge y = 0, z = 0.5 */
    static const float v[] = {-1, -1, 0, 1, -1, 0, 1, 0, 0.5f, -1, 0, 0.5f, 1, 1, 0, -1, 1, 0};
    static const dTriIndex ix[] = {0, 1, 2, 0, 2, 3, 3, 2, 4, 3, 4, 5};
    static const int modes[] = {dGeomColliderMergeContactsValue_None, dGeomColliderMergeContactsValue_Normals,
                                dGeomColliderMergeContactsValue_Full, dGeomColliderMergeContactsValue__Default};
    static const dReal at[][4] = {{0.1, -0.5, 0.6, 0.4}, {0.1, 0.02, 0.85, 0.5}, {-0.3, 0.0, 0.7, 0.45}, {0.9, 0.05, 0.6, 0.6}};
    dTriMeshDataID d;
    dGeomID g, s;
    unsigned m, p;
    int cb;
    dInitODE2(0);
    d = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildSingle(d, v, 12, 6, ix, 12, 12);
    g = dCreateTriMesh(0, d, 0, 0, 0);
    s = dCreateSphere(0, 1);
    for (p = 0; p < sizeof at / sizeof at[0]; p++) {
        dGeomSetPosition(s, at[p][0], at[p][1], at[p][2]);
        dGeomSphereSetRadius(s, at[p][3]);
        for (cb = 0; cb < 2; cb++) {
            dGeomTriMeshSetTriMergeCallback(g, cb ? merge_tris : 0);
            for (m = 0; m < sizeof modes / sizeof modes[0]; m++) {
                dContactGeom c[8];
                int value = modes[m], size = sizeof(int), n, i, r;
                r = dGeomLowLevelControl(g, dGeomColliderControlClass, dGeomColliderSetMergeSphereContactsControlCode, &value,
                                         &size);
                value = -1;
                dGeomLowLevelControl(g, dGeomColliderControlClass, dGeomColliderGetMergeSphereContactsControlCode, &value, &size);
                n = dCollide(g, s, 8, c, sizeof c[0]);
                printf("sphere %u, set %d -> %d (reads %d), callback %d: %d contacts\n", p, modes[m], r, value, cb, n);
                qsort(c, n, sizeof c[0], by_side1);
                for (i = 0; i < n; i++)
                    printf("  side1 %d pos %.17g %.17g %.17g n %.17g %.17g %.17g depth %.17g\n", c[i].side1, c[i].pos[0],
                           c[i].pos[1], c[i].pos[2], c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth);
                n = dCollide(g, s, 1, c, sizeof c[0]);
                printf("  capped at 1: %d\n", n);
            }
        }
    }
    dGeomDestroy(s);
    dGeomDestroy(g);
    dGeomTriMeshDataDestroy(d);
    dCloseODE();
    return 0;
}
