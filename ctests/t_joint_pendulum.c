/* Closed form: a hinge pendulum swinging with a small amplitude under
 * dWorldStep has the period 2*pi*sqrt(I_p / (m g d)) of a physical
 * pendulum (I_p: inertia about the pivot, d: pivot to centre of mass).
 * The period is measured from upward zero crossings of the hinge angle
 * over several swings. Prints "PASS <n>" when within 0.5 %. */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>

int main(void) {
    const dReal g = 9.81, d = 0.8, r = 0.05, mass = 1.3, h = 0.0005, amp = 0.05;
    dWorldID w;
    dBodyID b;
    dJointID j;
    dMass m;
    dReal prev, t = 0, first = -1, last = -1, ip, expected, period;
    int crossings = 0, failures = 0;

    dInitODE2(0);
    w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -g);
    b = dBodyCreate(w);
    dMassSetSphereTotal(&m, mass, r);
    dBodySetMass(b, &m);
    /* start displaced by amp about the x axis */
    dBodySetPosition(b, 0, d * sin(amp), 10 - d * cos(amp));
    {
        dMatrix3 R;
        dRFromAxisAndAngle(R, 1, 0, 0, amp);
        dBodySetRotation(b, R);
    }
    j = dJointCreateHinge(w, 0);
    dJointAttach(j, b, 0);
    dJointSetHingeAnchor(j, 0, 0, 10);
    dJointSetHingeAxis(j, 1, 0, 0);

    prev = dJointGetHingeAngle(j);
    while (t < 20 && crossings < 9) {
        dReal a;
        dWorldStep(w, h);
        t += h;
        a = dJointGetHingeAngle(j);
        if (prev < 0 && a >= 0) {
            /* linear interpolation of the crossing time */
            dReal tc = t - h * a / (a - prev);
            if (first < 0) first = tc;
            last = tc;
            crossings++;
        }
        prev = a;
    }
    ip = 0.4 * mass * r * r + mass * d * d;
    expected = 2 * 3.14159265358979323846 * sqrt(ip / (mass * g * d));
    /* small-amplitude correction of the period: T(1 + amp^2/16) */
    expected *= 1 + amp * amp / 16;
    period = (last - first) / (crossings - 1);
    printf("period %.6f expected %.6f crossings %d\n", period, expected, crossings);
    if (crossings < 5 || fabs(period - expected) > 0.005 * expected) failures++;
    dWorldDestroy(w);
    dCloseODE();
    if (failures) { printf("FAILED\n"); return 1; }
    printf("PASS 1\n");
    return 0;
}
