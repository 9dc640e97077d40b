/* Hash space pair order on random scenes, against Debian's library.
 *
 * Forty seeded scenes of 64 to 800 members: spheres, boxes, capsules and
 * cylinders of sizes from 0.01 to 20 (levels from -7 to 5), some rotated,
 * in clusters of random spread, some around the cell columns near the
 * origin where ODE's addressing wraps; random hash levels in half of them
 * (so that members fall below the minimum or above the maximum level),
 * disabled members, members on shared bodies, category and collide bits,
 * planes, and a nested space as a member. Each scene is collided, moved a
 * little, and collided again. Per pass the number of pairs, a hash of
 * their sequence (each pair as the creation indices of its geoms, in the
 * order and orientation reported) and the first pairs are printed. */
#include "space_pair_print.h"
#include <math.h>
#include <stdint.h>

#define SCENES 40
#define MAXN 800

static unsigned long rnd = 12345UL;
static double unit(void)
{
    rnd = rnd * 1103515245UL + 12345UL;
    return (double)((rnd >> 8) % 1000000) / 1000000.0;
}
static int below(int n) { return (int)(unit() * n) % n; }

static uint64_t seq_hash;
static long npairs;

static void near(void *data, dGeomID a, dGeomID b)
{
    uint64_t v = ((uint64_t)(uint32_t)index_of(a) << 32) | (uint32_t)index_of(b);
    (void)data;
    seq_hash = (seq_hash ^ v) * 1099511628211ULL;
    if (npairs < 12) printf(" (%d,%d)", index_of(a), index_of(b));
    npairs++;
}

int main(void)
{
    int sc;
    dWorldID w;
    dInitODE2(0);
    w = dWorldCreate();
    for (sc = 0; sc < SCENES; sc++) {
        dSpaceID s = dHashSpaceCreate(0), nested = 0;
        dBodyID shared[4];
        int n = 64 + below(MAXN - 64), i, pass;
        double spread = 1.0 + 49.0 * unit() * unit();
        if (sc % 2) {
            int lo = -6 + below(9);
            dHashSpaceSetLevels(s, lo, lo + below(9));
        }
        for (i = 0; i < 4; i++) shared[i] = dBodyCreate(w);
        ngeoms = 0;
        for (i = 0; i < n; i++) {
            double size = 0.01 * pow(2000.0, unit() * unit()), p[3];
            dGeomID g;
            switch (below(4)) {
            case 0: g = dCreateSphere(s, 0.5 * size); break;
            case 1: g = dCreateBox(s, size, size * (0.3 + unit()), size * (0.3 + unit())); break;
            case 2: g = dCreateCapsule(s, 0.3 * size, size); break;
            default: g = dCreateCylinder(s, 0.3 * size, size); break;
            }
            if (below(10) == 0) {
                /* Around the columns x, y in [0, 1] near z = 0. */
                p[0] = unit(); p[1] = unit(); p[2] = 2.0 * unit() - 1.0;
            } else {
                p[0] = spread * (unit() - 0.5); p[1] = spread * (unit() - 0.5); p[2] = spread * (unit() - 0.5);
            }
            if (below(8) == 0) {
                /* On a shared body: its pairs on one body are skipped. */
                dGeomSetBody(g, shared[below(4)]);
                dGeomSetOffsetWorldPosition(g, p[0], p[1], p[2]);
            } else {
                dGeomSetPosition(g, p[0], p[1], p[2]);
            }
            if (below(3) == 0) {
                dMatrix3 R;
                dRFromEulerAngles(R, 3 * unit(), 3 * unit(), 3 * unit());
                dGeomSetRotation(g, R);
            }
            if (below(20) == 0) dGeomDisable(g);
            if (below(15) == 0) dGeomSetCategoryBits(g, 2);
            if (below(15) == 0) dGeomSetCollideBits(g, 1);
            geoms[ngeoms++] = g;
            if (i == n / 2) {
                geoms[ngeoms++] = dCreatePlane(s, 0, 0, 1, -spread / 3);
                nested = dSimpleSpaceCreate(s);
                geoms[ngeoms++] = (dGeomID)nested;
            }
            if (nested && i % 50 == 7) {
                dGeomID c = dCreateSphere(nested, 0.3);
                dGeomSetPosition(c, spread * (unit() - 0.5), spread * (unit() - 0.5), 0.0);
                geoms[ngeoms++] = c;
            }
        }
        for (pass = 0; pass < 2; pass++) {
            seq_hash = 1469598103934665603ULL;
            npairs = 0;
            printf("scene %d (%d members) pass %d:", sc, n, pass);
            dSpaceCollide(s, 0, near);
            printf(" ... %ld pairs, sequence %016llx\n", npairs, (unsigned long long)seq_hash);
            for (i = 0; i < ngeoms; i++) {
                if (dGeomGetClass(geoms[i]) == dPlaneClass || dGeomIsSpace(geoms[i]) || dGeomGetBody(geoms[i]))
                    continue;
                {
                    const dReal *q = dGeomGetPosition(geoms[i]);
                    double d = 0.02 * spread;
                    dGeomSetPosition(geoms[i], q[0] + d * (unit() - 0.5), q[1] + d * (unit() - 0.5), q[2] + d * (unit() - 0.5));
                }
            }
        }
        dSpaceDestroy(s);
        for (i = 0; i < 4; i++) dBodyDestroy(shared[i]);
    }
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
