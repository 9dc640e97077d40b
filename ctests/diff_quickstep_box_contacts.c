/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* dWorldQuickStep on a unit box (half height 0.5) resting on four
 * hand-made contact joints with the static world, recreated every step at
 * the box's bottom corners with depth 0.5 - z: first with dContactApprox1
 * (friction bounds scaled by the normal force through findex), then with
 * box friction (constant bounds). The box is pushed sideways, slides and
 * sticks. 12 rows per step, so the periodic random reordering draws 22
 * numbers from dRand per step. Prints the state, the feedback of the first
 * contact and dRandGetSeed() after every step. tests/solver_quickstep_oracle.rs
 * replays the scene through the Rust solver with hand-assembled rows. */
#include <ode/ode.h>
#include "feedback_sentinel.h"
#include <stdio.h>

static void run(const char *tag, int mode, dReal mu)
{
    dWorldID w = dWorldCreate();
    dJointGroupID g = dJointGroupCreate(0);
    dBodyID b;
    dMass m;
    dJointFeedback fb;
    int s, k;

    dWorldSetGravity(w, 0, 0, -9.81);
    b = dBodyCreate(w);
    dMassSetParameters(&m, 1.5, 0, 0, 0, 0.25, 0.25, 0.25, 0, 0, 0);
    dBodySetMass(b, &m);
    dBodySetGyroscopicMode(b, 0);
    dBodySetPosition(b, 0, 0, 0.49);
    dBodySetLinearVel(b, 1.5, 0.4, 0);
    dBodySetAngularVel(b, 0, 0, 0.3);

    for (s = 0; s < 150; s++) {
        const dReal *p, *q, *v, *a;
        p = dBodyGetPosition(b);
        for (k = 0; k < 4; k++) {
            dContact c;
            dJointID j;
            c.surface.mode = mode;
            c.surface.mu = mu;
            c.surface.mu2 = 0; c.surface.rho = 0; c.surface.rho2 = 0; c.surface.rhoN = 0;
            c.surface.bounce = 0; c.surface.bounce_vel = 0;
            c.surface.soft_erp = 0; c.surface.soft_cfm = 0;
            c.surface.motion1 = 0; c.surface.motion2 = 0; c.surface.motionN = 0;
            c.surface.slip1 = 0; c.surface.slip2 = 0;
            c.geom.pos[0] = p[0] + ((k & 1) ? 0.5 : -0.5);
            c.geom.pos[1] = p[1] + ((k & 2) ? 0.5 : -0.5);
            c.geom.pos[2] = 0;
            c.geom.pos[3] = 0;
            c.geom.normal[0] = 0; c.geom.normal[1] = 0; c.geom.normal[2] = 1; c.geom.normal[3] = 0;
            c.geom.depth = 0.5 - p[2];
            c.geom.g1 = 0; c.geom.g2 = 0; c.geom.side1 = 0; c.geom.side2 = 0;
            c.fdir1[0] = c.fdir1[1] = c.fdir1[2] = c.fdir1[3] = 0;
            j = dJointCreateContact(w, g, &c);
            dJointAttach(j, b, 0);
            if (k == 0) { feedback_fill_sentinel(&fb); dJointSetFeedback(j, &fb); }
        }
        dWorldQuickStep(w, 0.01);
        dJointGroupEmpty(g);
        p = dBodyGetPosition(b); q = dBodyGetQuaternion(b);
        v = dBodyGetLinearVel(b); a = dBodyGetAngularVel(b);
        printf("%s s %d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g"
               " f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g seed %lu\n",
               tag, s, p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], a[0], a[1], a[2],
               fb.f1[0], fb.f1[1], fb.f1[2], fb.t1[0], fb.t1[1], fb.t1[2], dRandGetSeed());
    }
    dJointGroupDestroy(g);
    dWorldDestroy(w);
}

int main(void)
{
    dInitODE2(0);
    dRandSetSeed(0);
    run("approx1", dContactApprox1, 0.6);
    run("box", 0, 2.0);
    dCloseODE();
    return 0;
}
