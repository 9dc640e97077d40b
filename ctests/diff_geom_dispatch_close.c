/* DIFF-TOL rel=0 abs=0 */
/* dSetColliderOverride against the library's initialisation count: an
 * override (a host collider, or NULL: no collider) holds until the last
 * dCloseODE; the next dInitODE2 starts from the built-in table again (ODE's
 * dCloseODE calls dFinitColliders, and its next initialisation rebuilds
 * the table). A nested close keeps the overrides. Geoms made before the
 * close are collided after it. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

static dGeomID a, b, bx;

/* One contact that names its arguments: depth 42, normal (0, 0, 1). */
static int host_collide(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip) {
    (void)skip;
    if ((flags & 0xffff) < 1) return 0;
    memset(c, 0, sizeof *c);
    c->normal[2] = 1; c->depth = 42; c->g1 = o1; c->g2 = o2; c->side1 = c->side2 = 7;
    return 1;
}

static int name(dGeomID g) { return g == a ? 0 : g == b ? 1 : g == bx ? 2 : -1; }

static void show(const char *tag, dGeomID o1, dGeomID o2) {
    dContactGeom c[4];
    memset(c, 0, sizeof c);
    int n = dCollide(o1, o2, 4, c, sizeof c[0]);
    printf("%s: n %d\n", tag, n);
    for (int i = 0; i < n; i++)
        printf("  pos %.17g %.17g %.17g normal %.17g %.17g %.17g depth %.17g g%d g%d sides %d %d\n", c[i].pos[0],
               c[i].pos[1], c[i].pos[2], c[i].normal[0], c[i].normal[1], c[i].normal[2], c[i].depth, name(c[i].g1),
               name(c[i].g2), c[i].side1, c[i].side2);
}

static void all(const char *when) {
    printf("-- %s\n", when);
    show("sphere-sphere", a, b);
    show("sphere-box", a, bx);
    show("box-sphere", bx, b);
}

int main(void) {
    dInitODE2(0);
    a = dCreateSphere(0, 1);
    b = dCreateSphere(0, 0.5);
    bx = dCreateBox(0, 1, 1, 1);
    dGeomSetPosition(a, 0, 0, 0);
    dGeomSetPosition(b, 1.25, 0.1, 0);
    dGeomSetPosition(bx, -0.5, 0.75, 0.2);
    all("built-in");

    dSetColliderOverride(dSphereClass, dSphereClass, host_collide);
    dSetColliderOverride(dBoxClass, dSphereClass, 0);
    all("overridden");

    /* A nested initialisation: its close is not the last one. */
    dInitODE2(0);
    dCloseODE();
    all("after a nested close");

    dCloseODE();
    dInitODE2(0);
    all("after the last close and a new init");

    /* Overrides work again after the restart, and the next restart drops
     * them again. */
    dSetColliderOverride(dSphereClass, dBoxClass, host_collide);
    all("overridden after the restart");
    dCloseODE();
    dInitODE();
    all("after dCloseODE and dInitODE");

    dGeomDestroy(a);
    dGeomDestroy(b);
    dGeomDestroy(bx);
    dCloseODE();
    printf("done\n");
    return 0;
}
