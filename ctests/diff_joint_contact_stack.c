/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* dWorldStep with hand-made contacts: a 4-box stack (redundant coplanar
 * contacts, so ODE's Dantzig solver stalls with s <= 0 at times: ours must
 * stall identically), friction with and without dContactApprox1, mu =
 * dInfinity, a box pushed past its friction limit, max correcting velocity
 * and surface layer. Bit-identical to Debian's with a contact joint written
 * as ODE's (checked locally). */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>
#define NBX 4
/* boxes of side 1: box i rests at z = 0.5 + i (stack), plus a box pushed sideways on the ground */
int main(int argc, char **argv) {
    (void)argv;
    dWorldID w; dBodyID bx[NBX], push; dJointGroupID g; dMass m; int i, s, c;
    dJointFeedback fb[64]; int nfb;
    dInitODE2(0);
    w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetContactMaxCorrectingVel(w, 0.5);
    dWorldSetContactSurfaceLayer(w, 0.001);
    g = dJointGroupCreate(0);
    for (i = 0; i < NBX; i++) {
        bx[i] = dBodyCreate(w);
        dMassSetBoxTotal(&m, 1 + 0.3 * i, 1, 1, 1);
        dBodySetMass(bx[i], &m);
        dBodySetPosition(bx[i], 0.05 * i, 0.02 * i, 0.5 + i - 0.002);
    }
    push = dBodyCreate(w);
    dMassSetBoxTotal(&m, 2, 1, 1, 1);
    dBodySetMass(push, &m);
    dBodySetPosition(push, 5, 0, 0.499);
    for (s = 0; s < 150; s++) {
        dJointGroupEmpty(g);
        nfb = 0;
        /* 4 corner contacts below each box: ground or box below */
        for (i = 0; i <= NBX; i++) {
            dBodyID b = i < NBX ? bx[i] : push, below = (i > 0 && i < NBX) ? bx[i - 1] : 0;
            const dReal *p = dBodyGetPosition(b);
            dReal floorz = below ? dBodyGetPosition(below)[2] + 0.5 : 0;
            for (c = 0; c < 4; c++) {
                dContact ct;
                dJointID j;
                memset(&ct, 0, sizeof ct);
                ct.geom.pos[0] = p[0] + ((c & 1) ? 0.5 : -0.5);
                ct.geom.pos[1] = p[1] + ((c & 2) ? 0.5 : -0.5);
                ct.geom.pos[2] = floorz;
                ct.geom.normal[2] = 1;
                ct.geom.depth = floorz - (p[2] - 0.5);
                if (ct.geom.depth < -0.01) continue;
                ct.surface.mu = (i == NBX) ? 0.3 : (i == 2 ? dInfinity : 0.8);
                ct.surface.mode = (i % 2 == 0) ? dContactApprox1 : 0;
                j = dJointCreateContact(w, g, &ct);
                dJointAttach(j, b, below);
                if (nfb < 64) { memset(&fb[nfb], 0, sizeof fb[nfb]); dJointSetFeedback(j, &fb[nfb++]); }
            }
        }
        dBodyAddForce(push, 8.0, 1.0, 0);
        dBodyAddForce(bx[NBX - 1], 2.0, 0, 0);
        dWorldStep(w, 0.01);
        if (s % 10 == 9 || s < 3) {
            for (i = 0; i < NBX; i++) {
                const dReal *p = dBodyGetPosition(bx[i]);
                printf("%d b%d %.17g %.17g %.17g\n", s, i, p[0], p[1], p[2]);
            }
            { const dReal *p = dBodyGetPosition(push), *v = dBodyGetLinearVel(push);
              printf("%d push %.17g %.17g %.17g v %.17g %.17g\n", s, p[0], p[1], p[2], v[0], v[1]); }
            for (i = 0; i < nfb; i += 3) printf("%d fb%d %.17g %.17g %.17g\n", s, i, fb[i].f1[0], fb[i].f1[1], fb[i].f1[2]);
        }
    }
    return 0;
}
