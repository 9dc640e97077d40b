/* A hash space holding a geom whose AABB is inverted (min above max, as a
 * user class's aabb callback may give). ODE's cell loops run empty for it,
 * so it is never paired through the table; the other members still are.
 * Our table sizing once counted such a box's cells as a negative number
 * turned huge, and dSpaceCollide panicked (fuzz seeds 720189-720501).
 * Prints the pairs each pass reports, compared with Debian's library. */
#include "space_pair_print.h"

static int inverted_axis;

static void inverted_aabb(dGeomID g, dReal aabb[6])
{
    const dReal *p = dGeomGetPosition(g);
    int k;
    (void)g;
    for (k = 0; k < 3; k++) {
        aabb[2 * k] = p[k] - 0.5;
        aabb[2 * k + 1] = p[k] + 0.5;
    }
    /* one axis (or all, for 3) with min > max */
    if (inverted_axis == 3) {
        for (k = 0; k < 3; k++) {
            dReal t = aabb[2 * k];
            aabb[2 * k] = aabb[2 * k + 1];
            aabb[2 * k + 1] = t;
        }
    } else {
        dReal t = aabb[2 * inverted_axis];
        aabb[2 * inverted_axis] = aabb[2 * inverted_axis + 1] + 10.0;
        aabb[2 * inverted_axis + 1] = t;
    }
}

static int no_contacts(dGeomID a, dGeomID b, int flags, dContactGeom *c, int skip)
{
    (void)a; (void)b; (void)flags; (void)c; (void)skip;
    return 0;
}

static dColliderFn *get_collider(int num)
{
    (void)num;
    return no_contacts;
}


int main(void)
{
    dGeomClass cls = { 0, get_collider, inverted_aabb, 0, 0 };
    int klass, axis;

    dInitODE2(0);
    klass = dCreateGeomClass(&cls);
    for (axis = 0; axis <= 3; axis++) {
        dSpaceID s = dHashSpaceCreate(0);
        dGeomID u;
        inverted_axis = axis;
        ngeoms = 0;
        geoms[ngeoms++] = dCreateSphere(s, 0.5);
        u = dCreateGeom(klass);
        dGeomSetPosition(u, 0.3, 0.2, 0.1);
        dSpaceAdd(s, u);
        geoms[ngeoms++] = u;
        geoms[ngeoms++] = dCreateBox(s, 1, 1, 1);
        dGeomSetPosition(geoms[2], 0.5, 0.5, 0.5);
        geoms[ngeoms++] = dCreateCapsule(s, 0.2, 0.5);
        dGeomSetPosition(geoms[3], 0.2, 0.1, 0.3);
        printf("inverted axis %d:", axis);
        dSpaceCollide(s, 0, print_pair);
        printf("\n");
        dSpaceDestroy(s);
    }
    /* The same among 200 spheres (a space our library would search by
     * sort and sweep, which leaves a pass with an inverted box to the
     * cell walk). */
    for (axis = 0; axis <= 3; axis++) {
        dSpaceID s = dHashSpaceCreate(0);
        dGeomID u;
        int i;
        inverted_axis = axis;
        ngeoms = 0;
        for (i = 0; i < 200; i++) {
            dGeomID g = dCreateSphere(s, 0.3 + 0.01 * (i % 17));
            dGeomSetPosition(g, 0.37 * (i % 9) - 1.5, 0.41 * ((i / 9) % 9) - 1.5, 0.29 * (i / 81) - 0.3);
            geoms[ngeoms++] = g;
            if (i == 100) {
                u = dCreateGeom(klass);
                dGeomSetPosition(u, 0.3, 0.2, 0.1);
                dSpaceAdd(s, u);
                geoms[ngeoms++] = u;
            }
        }
        printf("inverted axis %d among 200:", axis);
        dSpaceCollide(s, 0, print_pair);
        printf("\n");
        dSpaceDestroy(s);
    }
    dCloseODE();
    return 0;
}
