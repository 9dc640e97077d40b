/* Closed form: a box on a ramp made of hand-made contact joints (four
 * corner contacts created every step with dJointCreateContact, Coulomb
 * friction through dContactApprox1). Below the friction angle
 * (mu > tan θ) the box must stay put: its displacement along the slope
 * stays below 0.5 mm over 2 s (Debian's ODE: 0.06 mm). Above it
 * (mu < tan θ) it must slide with the acceleration g (sin θ − mu cos θ),
 * measured from the velocity between t = 0.5 s and t = 2 s, within 0.1 %
 * (Debian's ODE: 1e-11). Checked with dWorldStep and dWorldQuickStep (40
 * iterations). Prints "PASS <n>". */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

static const dReal G = 9.81, H = 0.005, HALF[3] = {0.3, 0.25, 0.1};

/* One run; returns the displacement along the slope after 2 s and the
 * measured acceleration. */
static void run(dReal theta, dReal mu, int quick, dReal *disp, dReal *acc, dReal *maxdisp) {
    const dReal n[3] = {sin(theta), 0, cos(theta)};
    const dReal t[3] = {cos(theta), 0, -sin(theta)}; /* downhill along the ramp */
    dWorldID w = dWorldCreate();
    dJointGroupID g = dJointGroupCreate(0);
    dBodyID b = dBodyCreate(w);
    dMass m;
    dQuaternion q;
    dReal p0[3], v05 = 0;
    int s, i, k, steps = (int)(2.0 / H + 0.5);

    dWorldSetGravity(w, 0, 0, -G);
    if (quick) dWorldSetQuickStepNumIterations(w, 40);
    dMassSetBoxTotal(&m, 2.0, 2 * HALF[0], 2 * HALF[1], 2 * HALF[2]);
    dBodySetMass(b, &m);
    dQFromAxisAndAngle(q, 0, 1, 0, theta);
    dBodySetQuaternion(b, q);
    /* resting on the plane n·x = 0, sunk by 0.1 mm */
    for (k = 0; k < 3; k++) p0[k] = 2.0 * t[k] + (HALF[2] - 1e-4) * n[k];
    dBodySetPosition(b, p0[0], p0[1], p0[2]);
    *maxdisp = 0;
    for (s = 1; s <= steps; s++) {
        for (i = 0; i < 4; i++) {
            dContact c;
            dVector3 p;
            dReal depth;
            dBodyGetRelPointPos(b, (i & 1) ? HALF[0] : -HALF[0], (i & 2) ? HALF[1] : -HALF[1], -HALF[2], p);
            depth = -(n[0] * p[0] + n[1] * p[1] + n[2] * p[2]);
            if (depth <= 0) continue;
            memset(&c, 0, sizeof c);
            c.surface.mode = dContactApprox1;
            c.surface.mu = mu;
            for (k = 0; k < 3; k++) {
                c.geom.pos[k] = p[k];
                c.geom.normal[k] = n[k];
            }
            c.geom.depth = depth;
            dJointAttach(dJointCreateContact(w, g, &c), b, 0);
        }
        if (quick) dWorldQuickStep(w, H); else dWorldStep(w, H);
        dJointGroupEmpty(g);
        {
            const dReal *p = dBodyGetPosition(b), *v = dBodyGetLinearVel(b);
            dReal d = 0, vt = 0;
            for (k = 0; k < 3; k++) {
                d += (p[k] - p0[k]) * t[k];
                vt += v[k] * t[k];
            }
            if (fabs(d) > *maxdisp) *maxdisp = fabs(d);
            if (s == steps / 4) v05 = vt;
            if (s == steps) {
                *disp = d;
                *acc = (vt - v05) / (H * (steps - steps / 4));
            }
        }
    }
    dJointGroupDestroy(g);
    dWorldDestroy(w);
}

int main(void) {
    const dReal theta = 0.3; /* tan θ = 0.309 */
    int quick, failures = 0, checks = 0;
    dInitODE2(0);
    for (quick = 0; quick < 2; quick++) {
        const char *tag = quick ? "quick" : "step";
        dReal d, a, maxd, expect;
        /* below the friction angle */
        run(theta, 0.4, quick, &d, &a, &maxd);
        printf("%s stick mu 0.4: displacement %.3e max %.3e accel %.3e\n", tag, d, maxd, a);
        checks++;
        if (maxd > 5e-4) { printf("  FAIL: the box crept down the ramp\n"); failures++; }
        /* above it, two friction coefficients */
        for (int k = 0; k < 2; k++) {
            dReal mu = k ? 0.2 : 0.1;
            run(theta, mu, quick, &d, &a, &maxd);
            expect = G * (sin(theta) - mu * cos(theta));
            printf("%s slide mu %.1f: accel %.6f expected %.6f (rel err %.2e) displacement %.4f\n", tag, mu, a,
                   expect, (a - expect) / expect, d);
            checks++;
            if (fabs(a - expect) > 1e-3 * expect) { printf("  FAIL: wrong sliding acceleration\n"); failures++; }
        }
    }
    dCloseODE();
    if (failures) { printf("FAILED %d\n", failures); return 1; }
    printf("PASS %d\n", checks);
    return 0;
}
