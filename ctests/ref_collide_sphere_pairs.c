/* Reference contacts of the sphere pairs (sphere-sphere, sphere-box,
 * sphere-capsule and capsule-sphere, sphere-plane) from Debian's ODE; see
 * ref_prim_common.h for the output format. Argument: placements per pair. */
#include "ref_prim_common.h"
#include <stdlib.h>

#ifndef PRIM_N
#define PRIM_N 2000 /* placements per pair */
#endif

static void sphere_sphere(int n)
{
    dGeomID a = dCreateSphere(0, 1), b = dCreateSphere(0, 1);
    dMatrix3 R;
    int k;
    for (k = 0; k < n; k++) {
        double r1 = urand(0.05, 2), r2 = urand(0.05, 2), p1[3], p2[3], d[3], dist;
        int i;
        rand_offset(p1, (double[3]){5, 5, 5}, 1);
        switch (k % 10) {
        case 0: /* concentric */
            memcpy(p2, p1, sizeof p2);
            break;
        case 1: /* exactly touching */
            r1 = 0.75; r2 = 0.5;
            p1[0] = 1; p1[1] = 2; p1[2] = 3;
            p2[0] = 2.25; p2[1] = 2; p2[2] = 3;
            break;
        default:
            rand_unit(d);
            dist = urand(0, 1.3 * (r1 + r2));
            for (i = 0; i < 3; i++) p2[i] = p1[i] + dist * d[i];
        }
        dGeomSphereSetRadius(a, r1);
        dGeomSphereSetRadius(b, r2);
        rand_rotation(R); place(a, p1, R);
        rand_rotation(R); place(b, p2, R);
        run_case("sphere-sphere", a, b, std_flags, N_STD_FLAGS);
    }
    dGeomDestroy(a); dGeomDestroy(b);
}

static void sphere_box(int n)
{
    dGeomID a = dCreateSphere(0, 1), b = dCreateBox(0, 1, 1, 1);
    dMatrix3 Rb, Ra;
    int k;
    for (k = 0; k < n; k++) {
        double h[3], r = urand(0.05, 1.5), pb[3], off[3], pa[3], ext[3];
        int i;
        for (i = 0; i < 3; i++) h[i] = urand(0.05, 1.5);
        rand_offset(pb, (double[3]){4, 4, 4}, 1);
        rand_rotation(Rb);
        switch (k % 5) {
        case 0: /* centre inside the box */
            rand_offset(off, h, 0.95);
            break;
        case 1: /* near one face */
            rand_offset(off, h, 0.9);
            i = irand(3);
            off[i] = (irand(2) ? 1 : -1) * (h[i] + urand(-0.5, 1.05) * r);
            break;
        default:
            for (i = 0; i < 3; i++) ext[i] = h[i] + r;
            rand_offset(off, ext, 1.15);
        }
        local_to_world(pa, pb, Rb, off);
        dGeomSphereSetRadius(a, r);
        dGeomBoxSetLengths(b, 2 * h[0], 2 * h[1], 2 * h[2]);
        rand_rotation(Ra); place(a, pa, Ra);
        place(b, pb, Rb);
        run_case("sphere-box", a, b, std_flags, N_STD_FLAGS);
    }
    dGeomDestroy(a); dGeomDestroy(b);
}

static void sphere_capsule(int n)
{
    dGeomID a = dCreateSphere(0, 1), b = dCreateCapsule(0, 1, 1);
    dMatrix3 Rb, Ra;
    int k;
    for (k = 0; k < n; k++) {
        double rc = urand(0.05, 1.5), len = (k % 7 == 0) ? 0 : urand(0, 3), rs = urand(0.05, 1.5);
        double pb[3], off[3], pa[3], d[3], rad;
        rand_offset(pb, (double[3]){4, 4, 4}, 1);
        rand_rotation(Rb);
        rand_unit(d);
        rad = urand(0, 1.2 * (rc + rs));
        off[0] = d[0] * rad; off[1] = d[1] * rad;
        off[2] = (k % 5 == 0) ? 0 : urand(-0.6 * len - rc - rs, 0.6 * len + rc + rs);
        if (k % 11 == 3) { off[0] = 0; off[1] = 0; } /* centre on the axis */
        local_to_world(pa, pb, Rb, off);
        dGeomSphereSetRadius(a, rs);
        dGeomCapsuleSetParams(b, rc, len);
        rand_rotation(Ra); place(a, pa, Ra);
        place(b, pb, Rb);
        run_case("sphere-capsule", a, b, std_flags, N_STD_FLAGS);
        run_case("capsule-sphere", b, a, std_flags, N_STD_FLAGS);
    }
    dGeomDestroy(a); dGeomDestroy(b);
}

static void sphere_plane(int n)
{
    dGeomID a = dCreateSphere(0, 1), b = dCreatePlane(0, 0, 0, 1, 0);
    dMatrix3 R;
    int k;
    for (k = 0; k < n; k++) {
        double nn[3], d = urand(-3, 3), r = urand(0.05, 2), t[3], pa[3], h;
        int i;
        if (k % 6 == 0) { nn[0] = nn[1] = nn[2] = 0; nn[irand(3)] = irand(2) ? 1 : -1; }
        else rand_unit(nn);
        /* unnormalised parameters: dCreatePlane/dGeomPlaneSetParams normalise */
        dGeomPlaneSetParams(b, 2 * nn[0], 2 * nn[1], 2 * nn[2], 2 * d);
        h = d + urand(-1.5 * r, 1.5 * r);
        rand_offset(t, (double[3]){3, 3, 3}, 1);
        for (i = 0; i < 3; i++) pa[i] = nn[i] * h + t[i] - nn[i] * (t[0] * nn[0] + t[1] * nn[1] + t[2] * nn[2]);
        dGeomSphereSetRadius(a, r);
        rand_rotation(R); place(a, pa, R);
        run_case("sphere-plane", a, b, std_flags, N_STD_FLAGS);
    }
    dGeomDestroy(a); dGeomDestroy(b);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : PRIM_N;
    dInitODE2(0);
    sphere_sphere(n);
    sphere_box(n);
    sphere_capsule(n);
    sphere_plane(n);
    dCloseODE();
    return 0;
}
