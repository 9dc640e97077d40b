/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* dWorldStep with a 12-link ball chain (joints attached in both orders and
 * to the static world) and feedback, 2 s. With a ball joint written as ODE's
 * (checked locally) our trace is bit-identical to Debian's. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>
#define NL 12
int main(int argc, char **argv) {
    dWorldID w; dBodyID link[NL]; dJointID jl[NL]; dJointFeedback fl[NL]; dMass m; int i, s;
    int quick = argc > 1;
    memset(fl, 0, sizeof fl);
    dInitODE2(0);
    w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -9.81);
    for (i = 0; i < NL; i++) {
        link[i] = dBodyCreate(w);
        dMassSetCapsuleTotal(&m, 0.5 + 0.05 * i, 3, 0.05, 0.4);
        dBodySetMass(link[i], &m);
        dBodySetPosition(link[i], 0.3 * (i + 1), 0.02 * i, 5);
        jl[i] = dJointCreateBall(w, 0);
        if (i == 0) dJointAttach(jl[i], 0, link[0]);
        else if (i % 4 == 3) dJointAttach(jl[i], link[i], link[i-1]);
        else dJointAttach(jl[i], link[i - 1], link[i]);
        dJointSetBallAnchor(jl[i], 0.3 * i + 0.15, 0.02 * i - 0.01, 5);
        dJointSetFeedback(jl[i], &fl[i]);
    }
    dBodySetLinearVel(link[NL - 1], 0, 1, 0);
    for (s = 0; s < 200; s++) {
        dBodyAddForce(link[NL / 2], 0.5, 0, 0);
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        if (s % 20 == 19 || s < 2) for (i = 0; i < NL; i += 3) {
            const dReal *p = dBodyGetPosition(link[i]), *v = dBodyGetAngularVel(link[i]);
            printf("%d %d p %.17g %.17g %.17g w %.17g %.17g %.17g f %.17g %.17g %.17g t2 %.17g\n", s, i, p[0], p[1], p[2], v[0], v[1], v[2], fl[i].f1[0], fl[i].f1[1], fl[i].f1[2], fl[i].t2[2]);
        }
    }
    return 0;
}
