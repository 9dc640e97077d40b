/* Reference contacts of the box pairs (box-box, box-capsule and
 * capsule-box, box-plane) from Debian's ODE; see ref_prim_common.h for the
 * output format. Argument: placements per pair. */
#include "ref_prim_common.h"
#include <stdlib.h>

#ifndef PRIM_N
#define PRIM_N 2000 /* placements per pair */
#endif

static const int box_flags[] = {1, 2, 3, 4, 8, (int)(4 | CONTACTS_UNIMPORTANT), (int)(1 | CONTACTS_UNIMPORTANT)};
#define N_BOX_FLAGS 7

static void rand_half(double h[3])
{
    int i;
    for (i = 0; i < 3; i++) h[i] = urand(0.05, 1.5);
}

/* R = A * B */
static void mul33(dMatrix3 R, const dMatrix3 A, const dMatrix3 B)
{
    int i, j;
    memset(R, 0, sizeof(dMatrix3));
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            R[i * 4 + j] = A[i * 4] * B[j] + A[i * 4 + 1] * B[4 + j] + A[i * 4 + 2] * B[8 + j];
}

static void box_box(int n)
{
    dGeomID a = dCreateBox(0, 1, 1, 1), b = dCreateBox(0, 1, 1, 1);
    dMatrix3 Ra, Rb, T;
    int k, i;
    for (k = 0; k < n; k++) {
        double ha[3], hb[3], pa[3], pb[3], off[3], d[3], reach;
        rand_half(ha); rand_half(hb);
        rand_offset(pa, (double[3]){4, 4, 4}, 1);
        rand_rotation(Ra);
        switch (k % 8) {
        case 0: /* stacked, parallel faces (exact rotations) */
            exact_rotation(Ra, irand(8));
            exact_rotation(T, irand(8));
            mul33(Rb, Ra, T);
            off[0] = urand(-ha[0], ha[0]);
            off[1] = urand(-ha[1], ha[1]);
            off[2] = ha[2] + urand(0.3, 1.02) * (k % 16 == 0 ? hb[0] : hb[2]);
            local_to_world(pb, pa, Ra, off);
            break;
        case 1: /* same orientation, random offset */
            memcpy(Rb, Ra, sizeof(dMatrix3));
            for (i = 0; i < 3; i++) d[i] = ha[i] + hb[i];
            rand_offset(off, d, 1.05);
            local_to_world(pb, pa, Ra, off);
            break;
        case 2: /* deep: centres close */
            rand_rotation(Rb);
            rand_offset(off, ha, 0.3);
            local_to_world(pb, pa, Ra, off);
            break;
        case 3: /* b rotated about one of a's axes: edge-parallel configurations */
            {
                double ax[3] = {0, 0, 0};
                ax[irand(3)] = 1;
                dRFromAxisAndAngle(T, ax[0], ax[1], ax[2], urand(-M_PI, M_PI));
                mul33(Rb, Ra, T);
                for (i = 0; i < 3; i++) d[i] = ha[i] + hb[i];
                rand_offset(off, d, 0.9);
                local_to_world(pb, pa, Ra, off);
            }
            break;
        default:
            rand_rotation(Rb);
            rand_unit(d);
            reach = sqrt(ha[0] * ha[0] + ha[1] * ha[1] + ha[2] * ha[2]) +
                    sqrt(hb[0] * hb[0] + hb[1] * hb[1] + hb[2] * hb[2]);
            reach *= urand(0.2, 1.0);
            for (i = 0; i < 3; i++) pb[i] = pa[i] + reach * d[i];
        }
        dGeomBoxSetLengths(a, 2 * ha[0], 2 * ha[1], 2 * ha[2]);
        dGeomBoxSetLengths(b, 2 * hb[0], 2 * hb[1], 2 * hb[2]);
        place(a, pa, Ra);
        place(b, pb, Rb);
        run_case("box-box", a, b, box_flags, N_BOX_FLAGS);
    }
    dGeomDestroy(a); dGeomDestroy(b);
}

static void box_capsule(int n)
{
    dGeomID a = dCreateBox(0, 1, 1, 1), b = dCreateCapsule(0, 1, 1);
    dMatrix3 Ra, Rb, T;
    int k, i;
    for (k = 0; k < n; k++) {
        double h[3], rc = urand(0.05, 1.2), len = (k % 9 == 0) ? 0 : urand(0, 3), pa[3], pb[3], off[3], ext[3];
        rand_half(h);
        rand_offset(pa, (double[3]){4, 4, 4}, 1);
        rand_rotation(Ra);
        if (k % 4 == 0) { /* capsule axis parallel to a box axis */
            exact_rotation(T, irand(8));
            mul33(Rb, Ra, T);
        } else rand_rotation(Rb);
        for (i = 0; i < 3; i++) ext[i] = h[i] + rc + 0.5 * len;
        rand_offset(off, ext, (k % 3 == 0) ? 0.5 : 1.0);
        local_to_world(pb, pa, Ra, off);
        dGeomBoxSetLengths(a, 2 * h[0], 2 * h[1], 2 * h[2]);
        dGeomCapsuleSetParams(b, rc, len);
        place(a, pa, Ra);
        place(b, pb, Rb);
        run_case("box-capsule", a, b, std_flags, N_STD_FLAGS);
        run_case("capsule-box", b, a, std_flags, N_STD_FLAGS);
    }
    dGeomDestroy(a); dGeomDestroy(b);
}

static void box_plane(int n)
{
    dGeomID a = dCreateBox(0, 1, 1, 1), b = dCreatePlane(0, 0, 0, 1, 0);
    dMatrix3 Ra, T;
    int k, i;
    static const int flags[] = {1, 2, 3, 4, 5, (int)(4 | CONTACTS_UNIMPORTANT)};
    for (k = 0; k < n; k++) {
        double h[3], nn[3], d = urand(-3, 3), t[3], pa[3], lift, r;
        rand_half(h);
        if (k % 5 == 0) { nn[0] = nn[1] = nn[2] = 0; nn[irand(3)] = irand(2) ? 1 : -1; }
        else rand_unit(nn);
        dGeomPlaneSetParams(b, nn[0], nn[1], nn[2], d);
        if (k % 4 == 0) { /* a face parallel to the plane when the normal is axial */
            exact_rotation(T, irand(8));
            memcpy(Ra, T, sizeof(dMatrix3));
        } else rand_rotation(Ra);
        r = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
        lift = d + urand(-1.2 * r, 1.2 * r);
        rand_offset(t, (double[3]){3, 3, 3}, 1);
        for (i = 0; i < 3; i++) pa[i] = nn[i] * lift + t[i] - nn[i] * (t[0] * nn[0] + t[1] * nn[1] + t[2] * nn[2]);
        dGeomBoxSetLengths(a, 2 * h[0], 2 * h[1], 2 * h[2]);
        place(a, pa, Ra);
        run_case("box-plane", a, b, flags, 6);
    }
    dGeomDestroy(a); dGeomDestroy(b);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : PRIM_N;
    dInitODE2(0);
    box_box(n);
    box_capsule(n);
    box_plane(n);
    dCloseODE();
    return 0;
}
