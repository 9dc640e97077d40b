/* Reference point depths (dGeomSpherePointDepth, dGeomBoxPointDepth,
 * dGeomCapsulePointDepth, dGeomPlanePointDepth) from Debian's ODE:
 *   D <class> <geom as in ref_prim_common.h> <x y z> <depth>
 * Argument: points per geom class. */
#include "ref_prim_common.h"
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3000, k, c;
    dGeomID g[4];
    dMatrix3 R;
    dInitODE2(0);
    g[0] = dCreateSphere(0, 1);
    g[1] = dCreateBox(0, 1, 1, 1);
    g[2] = dCreateCapsule(0, 1, 1);
    g[3] = dCreatePlane(0, 0, 0, 1, 0);
    for (c = 0; c < 4; c++) {
        for (k = 0; k < n; k++) {
            double pos[3], ext[3], off[3], p[3], depth = 0, nn[3];
            int i;
            rand_offset(pos, (double[3]){4, 4, 4}, 1);
            rand_rotation(R);
            switch (c) {
            case 0: ext[0] = urand(0.05, 2); dGeomSphereSetRadius(g[0], ext[0]); ext[1] = ext[2] = ext[0]; break;
            case 1:
                for (i = 0; i < 3; i++) ext[i] = urand(0.05, 1.5);
                dGeomBoxSetLengths(g[1], 2 * ext[0], 2 * ext[1], 2 * ext[2]);
                break;
            case 2:
                ext[0] = ext[1] = urand(0.05, 1.2);
                ext[2] = (k % 9 == 0) ? 0 : urand(0, 1.5);
                dGeomCapsuleSetParams(g[2], ext[0], 2 * ext[2]);
                ext[2] += ext[0];
                break;
            default:
                rand_unit(nn);
                dGeomPlaneSetParams(g[3], nn[0], nn[1], nn[2], urand(-3, 3));
                ext[0] = ext[1] = ext[2] = 4;
            }
            if (c != 3) place(g[c], pos, R);
            rand_offset(off, ext, 1.5);
            if (k % 10 == 0) { off[0] = off[1] = off[2] = 0; }
            if (c == 3) memcpy(p, off, sizeof p); else local_to_world(p, pos, R, off);
            switch (c) {
            case 0: depth = dGeomSpherePointDepth(g[0], p[0], p[1], p[2]); break;
            case 1: depth = dGeomBoxPointDepth(g[1], p[0], p[1], p[2]); break;
            case 2: depth = dGeomCapsulePointDepth(g[2], p[0], p[1], p[2]); break;
            default: depth = dGeomPlanePointDepth(g[3], p[0], p[1], p[2]);
            }
            printf("D %d", dGeomGetClass(g[c]));
            print_geom(g[c]);
            printf(" %.17g %.17g %.17g %.17g\n", p[0], p[1], p[2], depth);
        }
    }
    dCloseODE();
    return 0;
}
