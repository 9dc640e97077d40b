/* Hash space pairs near the origin, where ODE's cell addressing wraps.
 *
 * ODE indexes a cell by (level*1000 + x*100 + y*10 + z) in unsigned 64-bit
 * arithmetic, taken modulo a prime for the first cell of a box's z column
 * and stepped by one for each further z. Where the sum is negative (level,
 * x and y small, z below 0) it wraps, and the whole column lands elsewhere
 * in the table: a box whose cells start at z = -1 never meets, in cell
 * z = 0, a box whose cells start there. The cases below print every pair
 * the space reports, in order, for boxes placed across that boundary (and
 * controls where it does not apply), plus a cloud of mixed sizes around
 * the origin, so both the pair set and its order are compared with
 * Debian's library. */
#include "space_pair_print.h"

static dGeomID box_at(dSpaceID s, double side, double x, double y, double z)
{
    dGeomID g = dCreateBox(s, side, side, side);
    dGeomSetPosition(g, x, y, z);
    geoms[ngeoms++] = g;
    return g;
}

static void run(const char *name, dSpaceID s)
{
    printf("%s:", name);
    dSpaceCollide(s, 0, print_pair_contacts);
    printf("\n");
    dSpaceDestroy(s);
    ngeoms = 0;
}

int main(void)
{
    dSpaceID s;
    int i;
    unsigned long r = 12345;

    dInitODE2(0);

    /* Level 0 (side 0.8), column x = y = 0: cells z -1..0 against 0..1. */
    s = dHashSpaceCreate(0);
    box_at(s, 0.8, 0.5, 0.5, -0.1);
    box_at(s, 0.8, 0.5, 0.5, 0.6);
    run("origin_column_wrap_vs_nowrap", s);

    /* The same boxes at x = 3 (address 300: no wrap). */
    s = dHashSpaceCreate(0);
    box_at(s, 0.8, 3.5, 0.5, -0.1);
    box_at(s, 0.8, 3.5, 0.5, 0.6);
    run("column_x3_no_wrap", s);

    /* Both columns start at z = -1 (both wrap). */
    s = dHashSpaceCreate(0);
    box_at(s, 0.8, 0.5, 0.5, -0.1);
    box_at(s, 0.8, 0.5, 0.5, -0.2);
    run("origin_column_both_wrap", s);

    /* Level 1 (side 1.6), address 1000: wraps below z = -1000 cells. */
    s = dHashSpaceCreate(0);
    box_at(s, 1.6, 1.0, 1.0, -2000.5);
    box_at(s, 1.6, 1.0, 1.0, -1999.5);
    box_at(s, 1.6, 1.0, 1.0, -2001.2);
    run("level1_deep_column", s);

    /* Small boxes (level -2, address of a negative level is huge). */
    s = dHashSpaceCreate(0);
    box_at(s, 0.2, 0.05, 0.05, -0.05);
    box_at(s, 0.2, 0.05, 0.05, 0.1);
    run("negative_level", s);

    /* Mixed levels: a small box inside a large box's wrapped column. */
    s = dHashSpaceCreate(0);
    box_at(s, 0.8, 0.5, 0.5, -0.1);
    box_at(s, 0.2, 0.5, 0.5, 0.25);
    box_at(s, 0.2, 0.5, 0.5, -0.25);
    run("mixed_levels_origin", s);

    /* A cloud of 300 boxes and spheres of sides 0.1-3 around the origin. */
    s = dHashSpaceCreate(0);
    for (i = 0; i < 300; i++) {
        double p[3], side;
        int k;
        for (k = 0; k < 3; k++) {
            r = r * 1103515245UL + 12345UL;
            p[k] = ((double)((r >> 8) % 10000) / 10000.0 - 0.5) * 8.0;
        }
        r = r * 1103515245UL + 12345UL;
        side = 0.1 + (double)((r >> 8) % 1000) / 1000.0 * 2.9;
        if (i % 2) {
            box_at(s, side, p[0], p[1], p[2]);
        } else {
            dGeomID g = dCreateSphere(s, 0.5 * side);
            dGeomSetPosition(g, p[0], p[1], p[2]);
            geoms[ngeoms++] = g;
        }
    }
    run("cloud_around_origin", s);

    dCloseODE();
    return 0;
}
