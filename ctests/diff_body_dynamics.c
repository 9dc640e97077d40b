/* DIFF-TOL rel=1e-12 abs=1e-14 */
/* Differential test of body settings that only show through stepping: the
 * inverse inertia derived by dBodySetMass (full, non-diagonal inertia),
 * kinematic/dynamic switching, the finite-rotation axis flag, damping and
 * max-angular-speed flags, gravity mode and disabling, under both
 * steppers. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

static void pv(const char *label, const dReal *v, int n) {
    printf("%s", label);
    for (int i = 0; i < n; i++) printf(" %.17g", v[i]);
    printf("\n");
}

static void dump(int step, dBodyID b, const char *name) {
    printf("step %d %s\n", step, name);
    pv(" pos", dBodyGetPosition(b), 3);
    pv(" q", dBodyGetQuaternion(b), 4);
    pv(" lvel", dBodyGetLinearVel(b), 3);
    pv(" avel", dBodyGetAngularVel(b), 3);
    printf(" enabled %d\n", dBodyIsEnabled(b));
}

static int moved_calls[2];
static dBodyID watched[2];
static void on_moved(dBodyID b) {
    for (int i = 0; i < 2; i++)
        if (b == watched[i]) moved_calls[i]++;
}

static void run(int quick) {
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0.5, -0.25, -9.81);
    enum { N = 8 };
    dBodyID b[N];
    const char *names[N] = {"full-inertia", "kinematic", "kinematic-then-dynamic", "finite-axis",
                            "damped", "max-angular-speed", "no-gravity", "disabled"};
    for (int i = 0; i < N; i++) {
        b[i] = dBodyCreate(w);
        dBodySetPosition(b[i], i, 0.5 * i, 1);
        dQuaternion q = {1, 0.1 * i, -0.2, 0.05 * i};
        dBodySetQuaternion(b[i], q);
        dBodySetLinearVel(b[i], 0.3, -0.1 * i, 0.2);
        dBodySetAngularVel(b[i], 1.5, -0.7, 0.4 * i + 0.1);
        dMass m;
        memset(&m, 0, sizeof m);
        m.mass = 1.5 + i;
        /* symmetric positive definite, clearly non-diagonal */
        dReal I[12] = {2.0, 0.3, -0.2, 0, 0.3, 1.2, 0.15, 0, -0.2, 0.15, 0.9, 0};
        for (int k = 0; k < 12; k++) m.I[k] = I[k] * (1 + 0.1 * i);
        dBodySetMass(b[i], &m);
    }
    dBodySetKinematic(b[1]);
    dBodySetKinematic(b[2]);
    dBodySetFiniteRotationMode(b[3], 1);
    dBodySetFiniteRotationAxis(b[3], 0.2, 1, -0.3);
    dBodySetDamping(b[4], 0.05, 0.1);
    dBodySetLinearDampingThreshold(b[4], 0.001);
    dBodySetAngularDampingThreshold(b[4], 0.001);
    dBodySetMaxAngularSpeed(b[5], 0.75);
    dBodySetGravityMode(b[6], 0);
    dBodyDisable(b[7]);
    watched[0] = b[0]; watched[1] = b[7];
    moved_calls[0] = moved_calls[1] = 0;
    dBodySetMovedCallback(b[0], on_moved);
    dBodySetMovedCallback(b[7], on_moved);
    for (int s = 0; s < 60; s++) {
        for (int i = 0; i < N; i++) {
            if (i == 1) continue;
            dBodyAddRelTorque(b[i], 0.2, -0.1 * i, 0.05);
            dBodyAddForceAtRelPos(b[i], 0.1, 0.2, -0.3, 0.5, 0, 0.25);
        }
        if (s == 20) dBodySetDynamic(b[2]);
        if (s == 30) dBodyEnable(b[7]);
        if (s == 50) dBodySetMovedCallback(b[0], 0);
        if (s == 40) { dBodySetFiniteRotationAxis(b[3], 0, 0, 0); dBodySetGyroscopicMode(b[0], 0); }
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        if (s % 10 == 9)
            for (int i = 0; i < N; i++) dump(s, b[i], names[i]);
    }
    printf("moved callbacks %d %d\n", moved_calls[0], moved_calls[1]);
    dWorldDestroy(w);
}

int main(void) {
    dInitODE(); /* ODE needs it before stepping */
    printf("== dWorldStep\n");
    run(0);
    printf("== dWorldQuickStep\n");
    run(1);
    dCloseODE();
    printf("done\n");
    return 0;
}
