/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* Hosts often fill only the dContact fields their mode bits use and leave
 * the rest uninitialised. ODE ignores the unused ones; so must we. Here the
 * unused surface fields hold NaN, and a box resting on hand-made contacts
 * must simulate exactly as with Debian's ODE. */
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void contact_at(dWorldID w, dJointGroupID g, dBodyID b, double x, double y, int mode) {
    dContact c;
    memset(&c, 0, sizeof c);
    /* every surface parameter NaN, then only the used ones set */
    double nan = NAN;
    c.surface.mu = c.surface.mu2 = c.surface.rho = c.surface.rho2 = c.surface.rhoN = nan;
    c.surface.bounce = c.surface.bounce_vel = c.surface.soft_erp = c.surface.soft_cfm = nan;
    c.surface.motion1 = c.surface.motion2 = c.surface.motionN = nan;
    c.surface.slip1 = c.surface.slip2 = nan;
    c.fdir1[0] = c.fdir1[1] = c.fdir1[2] = nan;
    c.surface.mode = mode;
    c.surface.mu = 0.8;
    if (mode & dContactBounce) { c.surface.bounce = 0.3; c.surface.bounce_vel = 0.1; }
    if (mode & dContactSoftCFM) c.surface.soft_cfm = 1e-4;
    const dReal *p = dBodyGetPosition(b);
    c.geom.pos[0] = x; c.geom.pos[1] = y; c.geom.pos[2] = 0;
    c.geom.normal[0] = 0; c.geom.normal[1] = 0; c.geom.normal[2] = 1;
    c.geom.depth = 0.5 - p[2];
    if (c.geom.depth < 0) return;
    dJointAttach(dJointCreateContact(w, g, &c), b, 0);
}

int main(void) {
    dInitODE2(0);
    int modes[3] = {0, dContactApprox1, dContactBounce | dContactSoftCFM};
    for (int m = 0; m < 3; m++) {
        for (int stepper = 0; stepper < 2; stepper++) {
            dRandSetSeed(0);
            dWorldID w = dWorldCreate();
            dWorldSetGravity(w, 0, 0, -9.81);
            dJointGroupID g = dJointGroupCreate(0);
            dBodyID b = dBodyCreate(w);
            dMass mass;
            dMassSetBox(&mass, 1, 1, 1, 1);
            dBodySetMass(b, &mass);
            dBodySetPosition(b, 0, 0, 0.6);
            dBodySetLinearVel(b, 0.5, 0, -0.2);
            for (int i = 0; i < 150; i++) {
                const dReal *p = dBodyGetPosition(b);
                for (int k = 0; k < 4; k++)
                    contact_at(w, g, b, p[0] + ((k & 1) ? 0.5 : -0.5), p[1] + ((k & 2) ? 0.5 : -0.5), modes[m]);
                if (stepper) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
                dJointGroupEmpty(g);
                if (i % 10 == 9) {
                    const dReal *v = dBodyGetLinearVel(b);
                    printf("mode %d stepper %d step %d pos %.17g %.17g %.17g vel %.17g %.17g %.17g\n", modes[m], stepper, i,
                           p[0], p[1], p[2], v[0], v[1], v[2]);
                }
            }
            dJointGroupDestroy(g);
            dWorldDestroy(w);
        }
    }
    dCloseODE();
    printf("done\n");
    return 0;
}
