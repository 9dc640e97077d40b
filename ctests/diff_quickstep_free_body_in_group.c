/* DIFF-TOL rel=0 abs=0 */
/* Free bodies among small resting islands: the QuickStep solves islands
 * of one body resting on a plane as a group, and a body in the air between
 * them (an island without joints) may sit in that group. ODE gives such a
 * body only the external-force update, so a −0 velocity component stays
 * −0 when the force adds −0 (the falling bodies' force and torque are set
 * to −0 before each step, and gravity's x and y are −0); adding the
 * group's zero constraint force first would make it +0. Bodies alternate
 * resting box / falling sphere in creation order, so the islands alternate
 * too. Prints every body's velocity and position every step, exactly (%a),
 * and dRandGetSeed. */
#include <ode/ode.h>
#include <stdio.h>

#define NB 24
static dWorldID w;
static dJointGroupID group;
static dBodyID bodies[NB];

static void near(void *data, dGeomID g1, dGeomID g2) {
    (void)data;
    dContact c[4];
    int n = dCollide(g1, g2, 4, &c[0].geom, sizeof(dContact));
    for (int i = 0; i < n; i++) {
        c[i].surface.mode = dContactApprox1;
        c[i].surface.mu = 0.7;
        dJointAttach(dJointCreateContact(w, group, &c[i]), dGeomGetBody(g1), dGeomGetBody(g2));
    }
}

int main(void) {
    dInitODE2(0);
    dRandSetSeed(11);
    w = dWorldCreate();
    dWorldSetGravity(w, -0.0, -0.0, -9.81);
    dWorldSetQuickStepNumIterations(w, 20);
    dSpaceID space = dHashSpaceCreate(0);
    group = dJointGroupCreate(0);
    dCreatePlane(space, 0, 0, 1, 0);
    for (int i = 0; i < NB; i++) {
        dBodyID b = dBodyCreate(w);
        dMass m;
        dGeomID g;
        double x = 1.5 * (i % 6), y = 1.5 * (i / 6);
        if (i % 2 == 0) {
            dMassSetBox(&m, 1, 0.5, 0.5, 0.5);
            g = dCreateBox(space, 0.5, 0.5, 0.5);
            dBodySetPosition(b, x, y, 0.249);
        } else {
            dMassSetSphere(&m, 1, 0.2);
            g = dCreateSphere(space, 0.2);
            dBodySetPosition(b, x, y, 5.0);
        }
        dBodySetMass(b, &m);
        dGeomSetBody(g, b);
        dBodySetLinearVel(b, -0.0, -0.0, 0.0);
        dBodySetAngularVel(b, -0.0, -0.0, -0.0);
        bodies[i] = b;
    }
    for (int s = 0; s < 30; s++) {
        /* An accumulator only holds −0 when set so (adding −0 to the
         * cleared +0 gives +0); gravity's −0 then keeps it −0. */
        for (int i = 1; i < NB; i += 2) {
            dBodySetForce(bodies[i], -0.0, -0.0, 0.0);
            dBodySetTorque(bodies[i], -0.0, -0.0, -0.0);
        }
        dSpaceCollide(space, 0, near);
        dWorldQuickStep(w, 0.01);
        dJointGroupEmpty(group);
        for (int i = 0; i < NB; i++) {
            const dReal *v = dBodyGetLinearVel(bodies[i]);
            const dReal *a = dBodyGetAngularVel(bodies[i]);
            const dReal *p = dBodyGetPosition(bodies[i]);
            printf("%d %d v %a %a %a w %a %a %a p %a %a %a\n", s, i, v[0], v[1], v[2], a[0], a[1], a[2], p[0], p[1], p[2]);
        }
        printf("%d seed %lu\n", s, dRandGetSeed());
    }
    dJointGroupDestroy(group);
    dSpaceDestroy(space);
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
