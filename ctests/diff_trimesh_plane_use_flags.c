/* DIFF-TOL rel=0 abs=0 */
/* Trimesh against plane on meshes with and without Preprocess's use flags
 * (the concave bowl, the cube, the terrain patch), placed and rotated at
 * random, planes through them, contact limits 1, 5 and 200: ODE's
 * trimesh-plane collider reads every vertex once, for the first triangle
 * (in index order) that uses it, whatever the use flags say. */
#include "ref_prim_common.h"
#include "tmesh_meshes.h"

int main(void)
{
    static const int limits[3] = {1, 5, 200};
    dContactGeom c[200];
    dTriMeshDataID d[6];
    int m, k, f, i;
    (void)tm_icosphere;
    dInitODE2(0);
    d[0] = tm_bowl();
    d[1] = tm_cube(0.5f);
    d[2] = tm_terrain();
    /* the same meshes again, preprocessed (their vertex arrays are shared) */
    for (m = 0; m < 3; m++) {
        d[3 + m] = dGeomTriMeshDataCreate();
    }
    dGeomTriMeshDataBuildDouble(d[3], bowl_v, 3 * sizeof(double), (TM_B + 1) * (TM_B + 1), bowl_i, TM_B * TM_B * 6, 3 * sizeof(int));
    dGeomTriMeshDataBuildSingle(d[4], cube_v, 3 * sizeof(float), 8, cube_i, 36, 3 * sizeof(int));
    dGeomTriMeshDataBuildSingle(d[5], ter_v, sizeof(struct tvert), (TM_G + 1) * (TM_G + 1), ter_t, TM_G * TM_G * 6, sizeof(struct ttri));
    for (m = 3; m < 6; m++) dGeomTriMeshDataPreprocess2(d[m], 1U << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES, NULL);
    for (m = 0; m < 6; m++) {
        dGeomID g = dCreateTriMesh(0, d[m], 0, 0, 0);
        for (k = 0; k < 60; k++) {
            dMatrix3 R;
            double p[3] = {urand(-1, 1), urand(-1, 1), urand(-1, 1)}, n[3];
            rand_rotation(R);
            place(g, p, R);
            rand_unit(n);
            dGeomID pl = dCreatePlane(0, n[0], n[1], n[2], n[0] * p[0] + n[1] * p[1] + n[2] * p[2] + urand(-1, 1));
            for (f = 0; f < 3; f++) {
                int cnt = dCollide(g, pl, limits[f], c, sizeof(dContactGeom));
                printf("mesh %d case %d limit %d n %d\n", m, k, limits[f], cnt);
                for (i = 0; i < cnt; i++)
                    printf("  %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %d\n", c[i].pos[0], c[i].pos[1], c[i].pos[2],
                           c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth, c[i].side1, c[i].side2);
            }
            dGeomDestroy(pl);
        }
        dGeomDestroy(g);
    }
    for (m = 0; m < 6; m++) dGeomTriMeshDataDestroy(d[m]);
    dCloseODE();
    printf("done\n");
    return 0;
}
