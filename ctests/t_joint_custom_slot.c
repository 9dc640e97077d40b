/* The slotted hinge of custom_slot.h driven into both of its limits at
 * once (a constant force along the slot and a torque about the hinge):
 * with the anti-chatter aids on (tolerance band + two-step hold), once
 * settled neither limit row switches on or off any more, and both
 * coordinates rest inside their tolerance band beyond the boundary. The
 * slot constraints themselves must hold too. Both steppers. */
#include "custom_slot.h"
#include <stdio.h>

static int failures = 0;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); failures++; } } while (0)

#define H 0.01
#define STEPS 400          /* 4 s */
#define SETTLED 200        /* judged over the last 2 s */
#define X_HI 0.3
#define T_HI 0.5

typedef struct Result {
    int transitions_settled;  /* engage/disengage changes after SETTLED */
    int transitions_total;
    double x_min, x_max, t_min, t_max; /* over the settled window */
    double slot_err;          /* worst |pin y|, |pin z|, tilt of the z axis */
    int engaged_end[2];
} Result;

/* erp <= 0: the world's ERP (0.2) for the limit rows. */
static Result run(int quick, double erp, double tol, int hold)
{
    Result res = {0, 0, 1e9, -1e9, 1e9, -1e9, 0, {0, 0}};
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w);
    dMass m;
    CustomSlot *s;
    const dReal pin[3] = {0, 0.25, 0};
    int step, prev[2] = {0, 0};
    dJointID j;
    dMassSetBoxTotal(&m, 2.0, 0.6, 0.8, 0.2);
    dBodySetMass(b, &m);
    dBodySetPosition(b, 0, 0, 1);
    j = custom_slot_create(w, b, pin, &s);
    s->x_limit.lo = -X_HI; s->x_limit.hi = X_HI;
    s->t_limit.lo = -T_HI; s->t_limit.hi = T_HI;
    s->x_limit.tolerance = s->t_limit.tolerance = tol;
    s->x_limit.hold_steps = s->t_limit.hold_steps = hold;
    if (quick) dWorldSetQuickStepNumIterations(w, 40);
    if (erp > 0) s->x_limit.erp = s->t_limit.erp = erp;

    for (step = 0; step < STEPS; step++) {
        int k;
        dReal x, theta;
        dVector3 pw;
        const dReal *R;
        /* along the slot at the centre of mass, plus a turn: the pin sits
         * off the centre, so the force also turns the body */
        dBodyAddForce(b, 6.0, 0, 0);
        dBodyAddTorque(b, 0, 0, 1.5);
        if (quick) dWorldQuickStep(w, H); else dWorldStep(w, H);
        for (k = 0; k < 2; k++) {
            int now = odexJointGetLimitState(j, k);
            if (now != prev[k]) {
                res.transitions_total++;
                if (step >= SETTLED) res.transitions_settled++;
            }
            prev[k] = now;
        }
        custom_slot_coords(s, b, &x, &theta, pw);
        R = dBodyGetRotation(b);
        if (step >= SETTLED) {
            if (x < res.x_min) res.x_min = x;
            if (x > res.x_max) res.x_max = x;
            if (theta < res.t_min) res.t_min = theta;
            if (theta > res.t_max) res.t_max = theta;
        }
        {
            double e[3] = {fabs(pw[1] - s->origin[1]), fabs(pw[2] - s->origin[2]), sqrt(R[2] * R[2] + R[6] * R[6])};
            for (k = 0; k < 3; k++) if (e[k] > res.slot_err) res.slot_err = e[k];
        }
    }
    res.engaged_end[0] = prev[0];
    res.engaged_end[1] = prev[1];
    dWorldDestroy(w);
    return res;
}

int main(void)
{
    int quick, e;
    const double tol = 0.01;
    dInitODE2(0);
    for (quick = 0; quick < 2; quick++) {
        const char *name = quick ? "dWorldQuickStep" : "dWorldStep";
        /* world ERP, then stiff limits (ERP 1), where chatter shows */
        for (e = 0; e < 2; e++) {
            double erp = e ? 1.0 : 0;
            Result r = run(quick, erp, tol, 2);
            Result bare = run(quick, erp, 0, 0);
            printf("%s, limit ERP %s, tolerance %g + hold 2: transitions %d (settled: %d), x in [%.6f, %.6f], "
                   "theta in [%.6f, %.6f], slot error %.2g\n",
                   name, e ? "1" : "0.2", tol, r.transitions_total, r.transitions_settled, r.x_min, r.x_max, r.t_min,
                   r.t_max, r.slot_err);
            printf("%s, limit ERP %s, no aids: transitions %d (settled: %d), x in [%.6f, %.6f], theta in [%.6f, %.6f]\n",
                   name, e ? "1" : "0.2", bare.transitions_total, bare.transitions_settled, bare.x_min, bare.x_max,
                   bare.t_min, bare.t_max);
            CHECK(r.engaged_end[0] == 1 && r.engaged_end[1] == 1, "%s: both upper limits engaged at the end (%d, %d)",
                  name, r.engaged_end[0], r.engaged_end[1]);
            /* 0 transitions over the settled 2 s: 0 per second */
            CHECK(r.transitions_settled == 0, "%s: %d limit transitions in the settled 2 s (chatter)", name,
                  r.transitions_settled);
            /* Resting inside the band (hi, hi + tol]: out of range, so
             * engaged, and not deeper than the tolerance (a little slack
             * for the constraint force mixing). */
            CHECK(r.x_min > X_HI && r.x_max <= X_HI + tol * 1.001, "%s: x left its band: [%g, %g]", name, r.x_min, r.x_max);
            CHECK(r.t_min > T_HI && r.t_max <= T_HI + tol * 1.001, "%s: theta left its band: [%g, %g]", name, r.t_min,
                  r.t_max);
            CHECK(r.slot_err < 1e-3, "%s: the slot constraints drifted by %g", name, r.slot_err);
            /* Without aids the limits still hold near the boundary... */
            CHECK(bare.x_max < X_HI + 1e-3 && bare.t_max < T_HI + 1e-3, "%s: bare limits do not hold", name);
            /* ...but with stiff rows they chatter: the scene does test the
             * aids. */
            if (e) CHECK(bare.transitions_settled > 0, "%s: the stiff bare limits did not chatter: no test", name);
        }
    }
    dCloseODE();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
