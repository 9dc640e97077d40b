/* A hash space holding a geom whose AABB is inverted (min above max, as a
 * user class's aabb callback may give). ODE's cell loops run empty for it,
 * so it is never paired through the table; the other members still are.
 * Our table sizing once counted such a box's cells as a negative number
 * turned huge, and dSpaceCollide panicked (fuzz seeds 720189-720501).
 * Prints the pairs each pass reports, compared with Debian's library. */
#include <ode/ode.h>
#include <stdio.h>

static dGeomID geoms[8];
static int ngeoms;
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

static int index_of(dGeomID g)
{
    int i;
    for (i = 0; i < ngeoms; i++)
        if (geoms[i] == g) return i;
    return -1;
}

static void near(void *data, dGeomID a, dGeomID b)
{
    (void)data;
    printf(" (%d,%d)", index_of(a), index_of(b));
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
        dSpaceCollide(s, 0, near);
        printf("\n");
        dSpaceDestroy(s);
    }
    dCloseODE();
    return 0;
}
