/* Closed form: a frictionless 6-link ball-joint chain swinging under
 * gravity with dWorldStep (h = 1 ms, ERP 0.2) conserves its energy up to
 * the stepper's dissipation. Checks over 10 s that the total energy
 * (kinetic + potential) never rises by more than 0.5 % of the potential
 * energy scale, loses less than 10 % (Debian's ODE: +0.03 % / -4.6 %), and
 * that the joints stay together (anchor separation below 3 mm; ODE:
 * 1.45 mm). Prints "PASS <n>". */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>

#define NL 6

static dReal energy(dBodyID *b, dReal g) {
    dReal e = 0;
    int i, k;
    for (i = 0; i < NL; i++) {
        dMass m;
        const dReal *v = dBodyGetLinearVel(b[i]), *w = dBodyGetAngularVel(b[i]), *p = dBodyGetPosition(b[i]);
        const dReal *R = dBodyGetRotation(b[i]);
        dReal wl[3], Iw[3];
        dBodyGetMass(b[i], &m);
        e += 0.5 * m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + m.mass * g * p[2];
        for (k = 0; k < 3; k++) wl[k] = R[k] * w[0] + R[4 + k] * w[1] + R[8 + k] * w[2];
        for (k = 0; k < 3; k++) Iw[k] = m.I[4 * k] * wl[0] + m.I[4 * k + 1] * wl[1] + m.I[4 * k + 2] * wl[2];
        e += 0.5 * (wl[0] * Iw[0] + wl[1] * Iw[1] + wl[2] * Iw[2]);
    }
    return e;
}

int main(void) {
    const dReal g = 9.81, len = 0.3;
    dWorldID w;
    dBodyID b[NL];
    dJointID j[NL];
    dMass m;
    dReal e0, emax, emin, sep = 0, drop;
    int i, s, failures = 0;

    dInitODE2(0);
    w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -g);
    for (i = 0; i < NL; i++) {
        b[i] = dBodyCreate(w);
        dMassSetBoxTotal(&m, 0.4, len, 0.04, 0.04);
        dBodySetMass(b[i], &m);
        /* horizontal chain along x, released from rest */
        dBodySetPosition(b[i], len * (i + 0.5), 0, 3);
        j[i] = dJointCreateBall(w, 0);
        dJointAttach(j[i], i ? b[i - 1] : 0, b[i]);
        dJointSetBallAnchor(j[i], len * i, 0, 3);
    }
    dBodySetLinearVel(b[NL - 1], 0, 0.5, 0);
    e0 = emax = emin = energy(b, g);
    /* energy scale: the potential energy the chain can convert */
    drop = 0;
    for (i = 0; i < NL; i++) { dBodyGetMass(b[i], &m); drop += m.mass * g * len * NL; }
    for (s = 0; s < 10000; s++) {
        dReal e;
        dWorldStep(w, 0.001);
        e = energy(b, g);
        if (e > emax) emax = e;
        if (e < emin) emin = e;
        for (i = 0; i < NL; i++) {
            dVector3 a1, a2;
            dJointGetBallAnchor(j[i], a1);
            dJointGetBallAnchor2(j[i], a2);
            dReal d = sqrt((a1[0] - a2[0]) * (a1[0] - a2[0]) + (a1[1] - a2[1]) * (a1[1] - a2[1]) +
                           (a1[2] - a2[2]) * (a1[2] - a2[2]));
            if (d > sep) sep = d;
        }
    }
    printf("energy start %.6f min %.6f max %.6f scale %.6f separation %.3e\n", e0, emin, emax, drop, sep);
    if (emax - e0 > 0.005 * drop) { printf("energy rose\n"); failures++; }
    if (e0 - emin > 0.10 * drop) { printf("energy lost\n"); failures++; }
    if (sep > 3e-3) { printf("joints separated\n"); failures++; }
    dWorldDestroy(w);
    dCloseODE();
    if (failures) { printf("FAILED\n"); return 1; }
    printf("PASS 3\n");
    return 0;
}
