/* DIFF-TOL rel=0 abs=0 */
/* Cylinder-cylinder through dCollide, Debian's libode.so.8 against ours:
 * random placements, half of them with (nearly) parallel axes (ODE 0.16's
 * rim-contact special case: a disc inside the other, crossing rims, caps
 * overlapping less or more than the sides), the rest general (MPR), with
 * several contact limits, CONTACTS_UNIMPORTANT and both argument orders.
 * With CONTACTS_UNIMPORTANT only the count is printed: ODE's MPR path then
 * answers 1 without writing the record (ours fills it, see ccd.rs).
 * Argument (optional): number of placements. */
#include "ref_prim_common.h"
#include <stdlib.h>

static void print_contacts(const char *tag, int flags, int n, dContactGeom *c, dGeomID a, dGeomID b)
{
    int i, j;
    printf("%s %d %d", tag, flags, n);
    for (i = 0; i < n; i++) {
        for (j = 0; j < 3; j++) printf(" %.17g", c[i].pos[j]);
        for (j = 0; j < 3; j++) printf(" %.17g", c[i].normal[j]);
        printf(" %.17g %d %d %d %d", c[i].depth, c[i].side1, c[i].side2, c[i].g1 == a, c[i].g2 == b);
    }
    printf("\n");
}

static const int flag_set[] = {1, 3, 4, 8, 12, (int)(8 | CONTACTS_UNIMPORTANT)};

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4000, k, f, i;
    dGeomID a, b;
    dInitODE2(0);
    a = dCreateCylinder(0, 1, 1);
    b = dCreateCylinder(0, 1, 1);
    for (k = 0; k < n; k++) {
        double r1 = urand(0.1, 1.2), l1 = urand(0.05, 2), r2 = urand(0.1, 1.2), l2 = urand(0.05, 2);
        double pa[3], pb[3], off[3];
        dMatrix3 Ra, Rb, Rt;
        dContactGeom c[16];
        int m;
        if (k % 9 == 0) r2 = r1; /* equal radii */
        rand_offset(pa, (double[3]){3, 3, 3}, 1);
        rand_rotation(Ra);
        if (k % 2 == 0) {
            /* near-parallel: b's axis within a small angle of a's (or flipped) */
            double ang = (k % 6 == 0) ? 0 : urand(0, 0.05), ax[3];
            rand_unit(ax);
            dRFromAxisAndAngle(Rt, ax[0], ax[1], ax[2], ang + (k % 4 == 0 ? M_PI : 0));
            dMultiply0_333(Rb, Ra, Rt);
            /* offset in a's frame: radial and axial */
            {
                double rad = urand(0, 1.1 * (r1 + r2)), th = urand(-M_PI, M_PI);
                off[0] = rad * cos(th); off[1] = rad * sin(th);
                off[2] = urand(-1.1, 1.1) * 0.5 * (l1 + l2);
            }
        } else {
            rand_rotation(Rb);
            rand_offset(off, (double[3]){r1 + r2, r1 + r2, 0.5 * (l1 + l2) + r2}, 1);
        }
        local_to_world(pb, pa, Ra, off);
        dGeomCylinderSetParams(a, r1, l1);
        dGeomCylinderSetParams(b, r2, l2);
        place(a, pa, Ra);
        place(b, pb, Rb);
        printf("P %d", k);
        for (i = 0; i < 3; i++) printf(" %.17g %.17g", pa[i], pb[i]);
        printf("\n");
        for (f = 0; f < 6; f++) {
            memset(c, 0, sizeof c);
            m = dCollide(a, b, flag_set[f], c, sizeof(dContactGeom));
            if (flag_set[f] & CONTACTS_UNIMPORTANT) printf("U %d\n", m);
            else print_contacts("F", flag_set[f], m, c, a, b);
        }
        memset(c, 0, sizeof c);
        m = dCollide(b, a, 16, c, sizeof(dContactGeom));
        print_contacts("R", 16, m, c, b, a);
    }
    dGeomDestroy(a);
    dGeomDestroy(b);
    dCloseODE();
    printf("done\n");
    return 0;
}
