/* DIFF-TOL rel=0 abs=0 */
/* Islands and auto-disable through null joints (no rows, so the motion is
 * free fall and the trace must be identical): only bodies with a joint are
 * auto-disabled (a disabled joint still counts); a disabled body reached
 * through an active joint from an enabled body is re-enabled (its velocity
 * was zeroed when it slept, its idle counters are kept); a joint between
 * kinematic bodies, or a disabled joint, links nothing; islands are
 * stepped in ODE's order (seen through moved callbacks); destroying a
 * joint or body mid-run changes the islands. Both steppers. */
#include <ode/ode.h>
#include <stdio.h>

#define NB 10
static dBodyID b[NB];
static const char *tag;
static int stepno;

static int bi(dBodyID x) {
    int i;
    for (i = 0; i < NB; i++) if (b[i] == x) return i;
    return -1;
}

static void moved(dBodyID body) {
    const dReal *p = dBodyGetPosition(body), *v = dBodyGetLinearVel(body);
    printf("%s %d moved b%d p %.17g %.17g %.17g v %.17g %.17g %.17g\n", tag, stepno, bi(body), p[0], p[1], p[2],
           v[0], v[1], v[2]);
}

static void state(void) {
    int i;
    printf("%s %d en", tag, stepno);
    for (i = 0; i < NB; i++) if (b[i]) printf(" %d", dBodyIsEnabled(b[i]));
    printf("\n");
}

static void run(int quick) {
    dWorldID w = dWorldCreate();
    dJointID j[12];
    dMass m;
    int i;
    tag = quick ? "quick" : "step";
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetAutoDisableFlag(w, 1);
    dWorldSetAutoDisableSteps(w, 3);
    dWorldSetAutoDisableLinearThreshold(w, 0.5);
    dWorldSetAutoDisableAngularThreshold(w, 0.5);
    for (i = 0; i < NB; i++) {
        b[i] = dBodyCreate(w);
        dMassSetSphereTotal(&m, 1.0 + i, 0.5);
        dBodySetMass(b[i], &m);
        dBodySetPosition(b[i], i, 0.5 * i, 10);
        dBodySetMovedCallback(b[i], moved);
        dBodySetGravityMode(b[i], 0);
    }
    /* b0 moves fast, b1 rests, joined: b1 sleeps and is woken every step */
    dBodySetLinearVel(b[0], 2, 0, 0);
    dBodySetAngularVel(b[1], 0.1, 0, 0);
    j[0] = dJointCreateNull(w, 0);
    dJointAttach(j[0], b[0], b[1]);
    /* b2 free and at rest: never disabled */
    /* b3 rests on the static environment: sleeps */
    j[1] = dJointCreateNull(w, 0);
    dJointAttach(j[1], 0, b[3]);
    /* b4-b5 rest together: sleep together */
    j[2] = dJointCreateNull(w, 0);
    dJointAttach(j[2], b[4], b[5]);
    /* b6 attached through a disabled joint only: still sleeps */
    j[3] = dJointCreateNull(w, 0);
    dJointAttach(j[3], b[6], b[7]);
    dJointDisable(j[3]);
    dBodySetLinearVel(b[7], 0, 3, 0);
    /* b8 kinematic and moving, b9 falls with gravity, joined */
    dBodySetKinematic(b[8]);
    dBodySetLinearVel(b[8], 0, 0, 1);
    dBodySetGravityMode(b[9], 1);
    j[4] = dJointCreateNull(w, 0);
    dJointAttach(j[4], b[9], b[8]);

    for (stepno = 0; stepno < 14; stepno++) {
        if (stepno == 6) {
            /* wake b4 by hand: its island wakes b5 */
            dBodyEnable(b[4]);
            /* enable the joint of b6-b7: b7 moving keeps b6 awake */
            dJointEnable(j[3]);
        }
        if (stepno == 9) {
            dJointDestroy(j[0]);
            dBodyDestroy(b[7]);
            b[7] = 0;
        }
        if (stepno == 11) {
            /* kinematic-kinematic: the joint is inactive */
            dBodySetKinematic(b[9]);
        }
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        state();
    }
    dWorldDestroy(w);
    for (i = 0; i < NB; i++) b[i] = 0;
}

int main(void) {
    dInitODE2(0);
    run(0);
    run(1);
    dCloseODE();
    return 0;
}
