/* Joint error: a 10-link ball-joint chain and a 10-link hinge chain (axes
 * tilted so the chain swings in 3D), hung from the static world, released
 * from a horizontal line and swinging under gravity for 10 s with ERP 0.2
 * and h = 10 ms. The joint separation is the distance between a joint's
 * anchor as seen from its first and from its second body
 * (dJointGet{Ball,Hinge}Anchor vs ...Anchor2). Prints its maximum over all
 * joints and steps, and over all joints after the last step, as
 * "sep <name> <value>" for dWorldStep and dWorldQuickStep (20
 * iterations); tests/joint_physics.rs runs this binary with Debian's
 * library too and requires ours to be no larger. Sanity bound checked
 * here: below 10 cm (Debian's ODE: 5.7 to 6.9 cm at worst; the 3 m chain
 * whips, its links reach several m/s, and a 10 ms step with ERP 0.2
 * corrects only a fifth of the drift per step). Prints "PASS <n>". */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>

#define NL 10

static dReal dist(const dReal *a, const dReal *b) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* Returns the maximum separation over 10 s; *last gets the largest one
 * after the final step. */
static dReal run(int hinge, int quick, dReal *last) {
    const dReal len = 0.3;
    dWorldID w = dWorldCreate();
    dBodyID b[NL];
    dJointID j[NL];
    dMass m;
    dReal sep = 0;
    int i, s;

    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetERP(w, 0.2);
    dWorldSetQuickStepNumIterations(w, 20);
    for (i = 0; i < NL; i++) {
        b[i] = dBodyCreate(w);
        dMassSetBoxTotal(&m, 0.5 + 0.05 * i, len, 0.05, 0.05);
        dBodySetMass(b[i], &m);
        dBodySetPosition(b[i], len * (i + 0.5), 0, 4);
        if (hinge) {
            j[i] = dJointCreateHinge(w, 0);
            dJointAttach(j[i], i ? b[i - 1] : 0, b[i]);
            dJointSetHingeAnchor(j[i], len * i, 0, 4);
            /* alternate tilts about x: the chain folds out of its plane */
            dJointSetHingeAxis(j[i], 0.1 * (i % 3), 1, (i & 1) ? 0.3 : -0.2);
        } else {
            j[i] = dJointCreateBall(w, 0);
            dJointAttach(j[i], i ? b[i - 1] : 0, b[i]);
            dJointSetBallAnchor(j[i], len * i, 0, 4);
        }
    }
    dBodySetLinearVel(b[NL - 1], 0, 1.0, 0);
    for (s = 0; s < 1000; s++) {
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        for (i = 0; i < NL; i++) {
            dVector3 a1, a2;
            dReal d;
            if (hinge) {
                dJointGetHingeAnchor(j[i], a1);
                dJointGetHingeAnchor2(j[i], a2);
            } else {
                dJointGetBallAnchor(j[i], a1);
                dJointGetBallAnchor2(j[i], a2);
            }
            d = dist(a1, a2);
            if (d > sep) sep = d;
            if (s == 999 && (i == 0 || d > *last)) *last = d;
        }
    }
    dWorldDestroy(w);
    return sep;
}

int main(void) {
    int hinge, quick, failures = 0, checks = 0;
    dInitODE2(0);
    for (quick = 0; quick < 2; quick++)
        for (hinge = 0; hinge < 2; hinge++) {
            dReal last, sep = run(hinge, quick, &last), bound = 0.1;
            const char *tag = quick ? "quick" : "step", *kind = hinge ? "hinge" : "ball";
            printf("sep %s-%s-max %.17g\n", tag, kind, sep);
            printf("sep %s-%s-final %.17g\n", tag, kind, last);
            checks++;
            if (!(sep < bound)) { printf("  FAIL: joints separated by more than %g\n", bound); failures++; }
        }
    dCloseODE();
    if (failures) { printf("FAILED %d\n", failures); return 1; }
    printf("PASS %d\n", checks);
    return 0;
}
