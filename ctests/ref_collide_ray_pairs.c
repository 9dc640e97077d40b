/* Reference contacts of the ray pairs (ray-sphere, ray-box, ray-capsule,
 * ray-plane) from Debian's ODE; see ref_prim_common.h for the output
 * format. Rays get random lengths, starts inside and outside the shape,
 * axis-aligned and random directions, and random first-contact /
 * backface-cull / closest-hit flags. Argument: placements per pair. */
#include "ref_prim_common.h"
#include <stdlib.h>

#ifndef PRIM_N
#define PRIM_N 2000 /* placements per pair */
#endif

/* Aims ray `r` from `start`: at `target` (+ noise), or along an exact axis,
 * or at random. */
static void aim(dGeomID r, const double start[3], const double target[3], int k)
{
    double d[3];
    int i;
    switch (k % 7) {
    case 0:
        d[0] = d[1] = d[2] = 0;
        d[irand(3)] = irand(2) ? 1 : -1;
        break;
    case 1:
        rand_unit(d);
        break;
    default:
        for (i = 0; i < 3; i++) d[i] = target[i] - start[i] + urand(-0.3, 0.3);
        if (d[0] == 0 && d[1] == 0 && d[2] == 0) d[2] = 1;
    }
    dGeomRaySet(r, start[0], start[1], start[2], d[0], d[1], d[2]);
    dGeomRaySetLength(r, urand(0.2, 8));
    dGeomRaySetFirstContact(r, irand(2));
    dGeomRaySetBackfaceCull(r, irand(2));
    dGeomRaySetClosestHit(r, irand(2));
}

static void ray_vs(const char *pair, dGeomID ray, dGeomID g, int n)
{
    dMatrix3 R;
    int k, i;
    for (k = 0; k < n; k++) {
        double pos[3], start[3], ext[3], off[3], target[3], h[3], size;
        rand_offset(pos, (double[3]){4, 4, 4}, 1);
        rand_rotation(R);
        switch (dGeomGetClass(g)) {
        case dSphereClass:
            size = urand(0.05, 2);
            dGeomSphereSetRadius(g, size);
            ext[0] = ext[1] = ext[2] = size;
            break;
        case dBoxClass:
            for (i = 0; i < 3; i++) h[i] = urand(0.05, 1.5);
            dGeomBoxSetLengths(g, 2 * h[0], 2 * h[1], 2 * h[2]);
            memcpy(ext, h, sizeof ext);
            if (k % 3 == 0) exact_rotation(R, irand(8));
            break;
        case dCapsuleClass: {
            double r = urand(0.05, 1.2), len = (k % 9 == 0) ? 0 : urand(0, 3);
            dGeomCapsuleSetParams(g, r, len);
            ext[0] = ext[1] = r; ext[2] = r + 0.5 * len;
            break;
        }
        default: { /* plane */
            double nn[3];
            if (k % 5 == 0) { nn[0] = nn[1] = nn[2] = 0; nn[irand(3)] = irand(2) ? 1 : -1; }
            else rand_unit(nn);
            dGeomPlaneSetParams(g, nn[0], nn[1], nn[2], urand(-3, 3));
            pos[0] = pos[1] = pos[2] = 0;
            memcpy(R, (dMatrix3){1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, sizeof(dMatrix3));
            ext[0] = ext[1] = ext[2] = 4;
        }
        }
        if (dGeomGetClass(g) != dPlaneClass) place(g, pos, R);
        rand_offset(off, ext, (k % 4 == 0) ? 0.8 : 3.0); /* some starts inside */
        local_to_world(start, pos, R, off);
        rand_offset(off, ext, 0.9);
        local_to_world(target, pos, R, off);
        aim(ray, start, target, k);
        if (dGeomGetClass(g) == dCapsuleClass && k % 6 == 1) {
            /* exactly along the capsule axis, from inside or outside */
            double sg = irand(2) ? 1 : -1;
            off[0] = urand(-0.7, 0.7) * ext[0]; off[1] = 0; off[2] = urand(-1.5, 1.5) * ext[2];
            local_to_world(start, pos, R, off);
            dGeomRaySet(ray, start[0], start[1], start[2], sg * R[2], sg * R[6], sg * R[10]);
        }
        run_case(pair, ray, g, std_flags, N_STD_FLAGS);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : PRIM_N;
    dGeomID ray, s, b, c, p;
    dInitODE2(0);
    ray = dCreateRay(0, 1);
    s = dCreateSphere(0, 1);
    b = dCreateBox(0, 1, 1, 1);
    c = dCreateCapsule(0, 1, 1);
    p = dCreatePlane(0, 0, 0, 1, 0);
    ray_vs("ray-sphere", ray, s, n);
    ray_vs("ray-box", ray, b, n);
    ray_vs("ray-capsule", ray, c, n);
    ray_vs("ray-plane", ray, p, n);
    dCloseODE();
    return 0;
}
