/* Hash space pairs, in order, for spaces of hundreds of members.
 *
 * Our library finds a large hash space's pairs with a sort and sweep and
 * reports them in the order of ODE's cell walk, which depends on each
 * member's level, its cells, the members' list order and the wrap of
 * ODE's cell addressing near the origin. The scenes mix sizes from 0.05
 * to 3 (levels -5 to 1), put clusters where the addressing wraps (level-0
 * boxes on both sides of z = 0 in the column x = y = 0, level-1 boxes
 * around z = -2000 with small x and y), disable some members and add a
 * plane (a member above every level). Each scene is collided, its members
 * moved a little, and collided again; one scene uses levels -1..1, which
 * turns the largest boxes into big members. Every pair is printed with its
 * contact count, so pair set, order and orientation are compared with
 * Debian's library. */
#include "space_pair_print.h"

#define NG 600
static unsigned long rnd = 88172645UL;

static double unit(void)
{
    rnd = rnd * 1103515245UL + 12345UL;
    return (double)((rnd >> 8) % 1000000) / 1000000.0;
}

static double sym(double a) { return (2.0 * unit() - 1.0) * a; }

static void scene(const char *name, int lo, int hi)
{
    dSpaceID s = dHashSpaceCreate(0);
    int i, pass;
    if (lo <= hi) dHashSpaceSetLevels(s, lo, hi);
    ngeoms = 0;
    for (i = 0; i < NG; i++) {
        double side, p[3];
        dGeomID g;
        switch (i % 13) {
        case 0:
            side = 0.8;
            p[0] = 0.1 + 0.8 * unit(); p[1] = 0.1 + 0.8 * unit(); p[2] = sym(0.5);
            break;
        case 1:
            side = 1.2 + 0.6 * unit();
            p[0] = 0.2 + 1.6 * unit(); p[1] = 0.2 + 1.6 * unit(); p[2] = -2000.0 + sym(2.0);
            break;
        default:
            side = 0.05 + 3.0 * unit() * unit();
            p[0] = sym(7.0); p[1] = sym(7.0); p[2] = sym(4.0);
            break;
        }
        if (i % 3 == 0) {
            g = dCreateSphere(s, 0.5 * side);
        } else {
            double b = side * (0.5 + 0.5 * unit()), c = side * (0.5 + 0.5 * unit());
            g = dCreateBox(s, side, b, c);
        }
        dGeomSetPosition(g, p[0], p[1], p[2]);
        if (i % 29 == 5) dGeomDisable(g);
        geoms[ngeoms++] = g;
    }
    geoms[ngeoms++] = dCreatePlane(s, 0, 0, 1, -2.5);
    for (pass = 0; pass < 2; pass++) {
        printf("%s pass %d:", name, pass);
        dSpaceCollide(s, 0, print_pair_contacts);
        printf("\n");
        for (i = 0; i < NG; i++) {
            const dReal *q = dGeomGetPosition(geoms[i]);
            dGeomSetPosition(geoms[i], q[0] + sym(0.05), q[1] + sym(0.05), q[2] + sym(0.05));
        }
    }
    dSpaceDestroy(s);
}

int main(void)
{
    dInitODE2(0);
    scene("default_levels", 1, 0);
    scene("levels_-1_1", -1, 1);
    scene("default_levels_again", 1, 0);
    dCloseODE();
    return 0;
}
