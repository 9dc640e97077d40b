/* Reference contacts of capsule-capsule and capsule-plane from Debian's
 * ODE; see ref_prim_common.h for the output format. Argument: placements
 * per pair. */
#include "ref_prim_common.h"
#include <stdlib.h>

#ifndef PRIM_N
#define PRIM_N 2000 /* placements per pair */
#endif

/* R = A * B */
static void mul33(dMatrix3 R, const dMatrix3 A, const dMatrix3 B)
{
    int i, j;
    memset(R, 0, sizeof(dMatrix3));
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            R[i * 4 + j] = A[i * 4] * B[j] + A[i * 4 + 1] * B[4 + j] + A[i * 4 + 2] * B[8 + j];
}

static void capsule_capsule(int n)
{
    dGeomID a = dCreateCapsule(0, 1, 1), b = dCreateCapsule(0, 1, 1);
    dMatrix3 Ra, Rb, T;
    int k;
    for (k = 0; k < n; k++) {
        double r1 = urand(0.05, 1.2), r2 = urand(0.05, 1.2);
        double l1 = (k % 13 == 0) ? 0 : urand(0, 3), l2 = (k % 17 == 0) ? 0 : urand(0, 3);
        double pa[3], pb[3], off[3], d[3], rad;
        rand_offset(pa, (double[3]){4, 4, 4}, 1);
        rand_rotation(Ra);
        switch (k % 6) {
        case 0: /* parallel axes */
            memcpy(Rb, Ra, sizeof(dMatrix3));
            break;
        case 1: /* anti-parallel axes (exact flip) */
            exact_rotation(T, 4);
            mul33(Rb, Ra, T);
            break;
        case 2: /* nearly parallel */
            dRFromAxisAndAngle(T, urand(-1, 1), urand(-1, 1), 0, urand(-4e-3, 4e-3));
            mul33(Rb, Ra, T);
            break;
        default:
            rand_rotation(Rb);
        }
        rand_unit(d);
        rad = urand(0, 1.2 * (r1 + r2));
        off[0] = d[0] * rad; off[1] = d[1] * rad;
        off[2] = urand(-0.6 * (l1 + l2) - r1 - r2, 0.6 * (l1 + l2) + r1 + r2);
        if (k % 23 == 5) { off[0] = off[1] = 0; } /* axes on one line */
        local_to_world(pb, pa, Ra, off);
        dGeomCapsuleSetParams(a, r1, l1);
        dGeomCapsuleSetParams(b, r2, l2);
        place(a, pa, Ra);
        place(b, pb, Rb);
        run_case("capsule-capsule", a, b, std_flags, N_STD_FLAGS);
    }
    dGeomDestroy(a); dGeomDestroy(b);
}

static void capsule_plane(int n)
{
    dGeomID a = dCreateCapsule(0, 1, 1), b = dCreatePlane(0, 0, 0, 1, 0);
    dMatrix3 Ra;
    int k, i;
    for (k = 0; k < n; k++) {
        double nn[3], d = urand(-3, 3), r = urand(0.05, 1.2), len = (k % 11 == 0) ? 0 : urand(0, 3);
        double t[3], pa[3], lift;
        if (k % 5 == 0) { nn[0] = nn[1] = nn[2] = 0; nn[irand(3)] = irand(2) ? 1 : -1; }
        else rand_unit(nn);
        dGeomPlaneSetParams(b, nn[0], nn[1], nn[2], d);
        if (k % 4 == 0) exact_rotation(Ra, irand(8)); else rand_rotation(Ra);
        lift = d + urand(-1.2 * (r + 0.5 * len), 1.2 * (r + 0.5 * len));
        rand_offset(t, (double[3]){3, 3, 3}, 1);
        for (i = 0; i < 3; i++) pa[i] = nn[i] * lift + t[i] - nn[i] * (t[0] * nn[0] + t[1] * nn[1] + t[2] * nn[2]);
        dGeomCapsuleSetParams(a, r, len);
        place(a, pa, Ra);
        run_case("capsule-plane", a, b, std_flags, N_STD_FLAGS);
    }
    dGeomDestroy(a); dGeomDestroy(b);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : PRIM_N;
    dInitODE2(0);
    capsule_capsule(n);
    capsule_plane(n);
    dCloseODE();
    return 0;
}
