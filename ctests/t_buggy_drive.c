/*
 * t_buggy_drive: self-checks of the buggy of diff_buggy_scene.h on flat
 * ground (no ramp), gravity 9.81, dt 0.01, against closed-form mechanics,
 * with dWorldStep and with dWorldQuickStep.
 *
 * 1. Rest. With the drive off the three-wheel buggy is statically
 *    determinate: the chassis centre of mass sits midway between the front
 *    wheel and the rear axle, so the front suspension carries half the
 *    chassis weight and each rear one a quarter; each contact carries that
 *    plus its wheel's weight. A soft row of ERP e and CFM c balances a
 *    force F at the error F h c / e (ODE's spring k = e / (h c)). So the
 *    wheel centre sinks by the contact error below R, and the chassis
 *    anchor by the suspension error below the wheel centre; the chassis
 *    centre lies H/2 above the midpoint of the front and rear anchors and
 *    is pitched by their height difference over the wheelbase. After 12 s
 *    the bounce has died out and height and pitch must match that to 2 mm
 *    and 0.01 rad (the leftovers: cos of the pitch, a decaying ripple).
 * 2. Straight drive. Once moving, x grows at every step; y and the heading
 *    stay 0 (the scene is symmetric about the xz plane); the chassis never
 *    touches the ground and stays between its rest height +- 5 cm (the
 *    suspension and contact travel under the load, twice over); the speed
 *    settles to the wheel's rolling speed w R (the drive motor holds w
 *    relative to the chassis, ODE puts a sphere's contact point on its
 *    surface, and nothing resists the motion) within 3 %.
 * 3. Steering. Commanding +0.5 (demo_buggy's "right") turns the heading
 *    clockwise at every 0.1 s window once the wheel is turned past 0.3;
 *    commanding -0.5 turns it back anticlockwise; the chassis still never
 *    touches the ground (at twice the speed, 1.44 m/s, the soft
 *    suspension lets the tricycle roll onto a chassis corner, as it does
 *    with ODE). The yaw rate never exceeds
 *    the rolling limit of a tricycle, v sin(delta) / L with delta at the
 *    0.75 stop and v = w R, by more than 10 %, and each turn is more than
 *    0.3 rad. In the last second of each turn, the mean yaw rate is that
 *    of a rolling tricycle, v_f sin(a) / L with a the front wheel's angle
 *    1 and v_f its spin rate (angle-2 rate) times R, within 5 % (the
 *    contacts slip a little under the lateral load: slip1/slip2 = 0.1).
 */
#include "diff_buggy_scene.h"
#include <stdio.h>
#include <stdlib.h>

#define DT 0.01
#define G 9.81
#define SPEED 4.0
#define WHEELBASE BUGGY_LENGTH

static int failures = 0;

#define CHECK(cond, ...)                                   \
    do {                                                   \
        if (!(cond)) {                                     \
            failures++;                                    \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);    \
            printf(__VA_ARGS__);                           \
            printf("\n");                                  \
        }                                                  \
    } while (0)

static double pitch(void) {
    dVector3 ax;
    dBodyVectorToWorld(buggy_g.chassis, 1, 0, 0, ax);
    return asin(ax[2]); /* > 0: nose up */
}

/* Rest height and pitch of the chassis predicted from the soft rows. */
static void predicted_rest(double *z, double *theta) {
    double h = DT, mc = BUGGY_CMASS, mw = BUGGY_WMASS;
    double susp = h * 0.8 / 0.4;   /* suspension: error per newton */
    double cont = h * 0.3 / 0.5;   /* contact (soft ERP 0.5, CFM 0.3) */
    double front = 0.5 * mc * G, rear = 0.25 * mc * G;
    double af = BUGGY_RADIUS - (front + mw * G) * cont - front * susp;
    double ar = BUGGY_RADIUS - (rear + mw * G) * cont - rear * susp;
    *z = 0.5 * (af + ar) + 0.5 * BUGGY_HEIGHT;
    *theta = asin((ar - af) / WHEELBASE) * -1.0; /* front lower: nose down */
}

static void run(int quick) {
    const char *name = quick ? "quick" : "step";
    int step;
    double zr, thr;
    predicted_rest(&zr, &thr);

    buggy_create(G, DT, 0);
    buggy_g.drive_fmax = 1.0;
    buggy_g.steer_fmax = 2.0;

    /* 1. rest */
    for (step = 0; step < 1200; step++) {
        buggy_drive(0, 0);
        buggy_step(quick);
    }
    double z = dBodyGetPosition(buggy_g.chassis)[2], th = pitch();
    printf("%s rest: z %.5f (predicted %.5f) pitch %.5f (predicted %.5f)\n", name, z, zr, th, thr);
    CHECK(fabs(z - zr) < 0.002, "%s: rest height %.5f, predicted %.5f", name, z, zr);
    CHECK(fabs(th - thr) < 0.01, "%s: rest pitch %.5f, predicted %.5f", name, th, thr);

    /* 2. straight */
    /* dWorldStep keeps the mirror symmetry to round-off; the PGS of
     * dWorldQuickStep visits the rows in a shuffled order, so there it
     * holds only to its convergence */
    double symtol = quick ? 1e-6 : 1e-9;
    int moving = 0;
    double xprev = dBodyGetPosition(buggy_g.chassis)[0];
    double vsum = 0;
    int vn = 0;
    for (step = 0; step < 300; step++) {
        buggy_drive(SPEED, 0);
        buggy_step(quick);
        const dReal *p = dBodyGetPosition(buggy_g.chassis);
        const dReal *v = dBodyGetLinearVel(buggy_g.chassis);
        if (!moving && v[0] > 0.05) moving = 1;
        if (moving) CHECK(p[0] > xprev, "%s: straight step %d: x %.9f after %.9f", name, step, p[0], xprev);
        xprev = p[0];
        CHECK(fabs(p[1]) < symtol && fabs(buggy_heading()) < symtol, "%s: straight step %d: y %g heading %g",
              name, step, p[1], buggy_heading());
        CHECK(buggy_g.nchassis == 0, "%s: straight step %d: chassis touches the ground", name, step);
        CHECK(fabs(p[2] - zr) < 0.05, "%s: straight step %d: chassis z %.5f, rest %.5f", name, step, p[2], zr);
        if (step >= 200) { vsum += v[0]; vn++; }
    }
    double vmean = vsum / vn, vroll = SPEED * BUGGY_RADIUS;
    printf("%s straight: mean speed %.5f (rolling %.5f)\n", name, vmean, vroll);
    CHECK(moving, "%s: never started moving", name);
    CHECK(fabs(vmean - vroll) < 0.03 * vroll, "%s: speed %.5f, rolling speed %.5f", name, vmean, vroll);

    /* 3. steering right, then left */
    double limit = vroll * sin(0.75) / WHEELBASE;
    int phase;
    for (phase = 0; phase < 2; phase++) {
        double steer = phase == 0 ? 0.5 : -0.5, sign = phase == 0 ? -1.0 : 1.0;
        double h0 = buggy_heading(), hw = h0, unwrapped = 0, wmax = 0, ysum = 0, ksum = 0;
        int turned = 0;
        for (step = 0; step < 300; step++) {
            buggy_drive(SPEED, steer);
            buggy_step(quick);
            double a1 = dJointGetHinge2Angle1(buggy_g.hinge[0]);
            const dReal *w = dBodyGetAngularVel(buggy_g.chassis);
            if (fabs(w[2]) > wmax) wmax = fabs(w[2]);
            if (step >= 200) {
                /* steady turn: the yaw rate of a rolling tricycle whose
                 * front wheel rolls at its spin rate times R, turned by
                 * angle 1 */
                double roll = -dJointGetHinge2Angle2Rate(buggy_g.hinge[0]) * BUGGY_RADIUS;
                ysum += w[2];
                ksum += -roll * sin(a1) / WHEELBASE;
            }
            CHECK(buggy_g.nchassis == 0, "%s: turn %d step %d: chassis touches the ground", name, phase, step);
            if (!turned && a1 * sign < -0.3) {
                /* wheel turned far enough (a positive command gives a
                 * positive angle 1): count the heading from here */
                turned = 1;
                hw = buggy_heading();
            }
            if (turned && step % 10 == 9) {
                double hn = buggy_heading(), d = hn - hw;
                if (d > M_PI) d -= 2 * M_PI;
                if (d < -M_PI) d += 2 * M_PI;
                CHECK(d * sign > 0, "%s: turn %d step %d: heading moved %.5f, expected sign %+g", name, phase,
                      step, d, sign);
                unwrapped += d;
                hw = hn;
            }
        }
        (void)h0;
        printf("%s turn %+g: heading change %.5f, max yaw rate %.5f (rolling limit %.5f)\n", name, steer,
               unwrapped, wmax, limit);
        printf("%s turn %+g: steady yaw rate %.5f, rolling tricycle %.5f\n", name, steer, ysum / 100, ksum / 100);
        CHECK(turned, "%s: turn %d: the wheel never turned", name, phase);
        CHECK(fabs(ysum - ksum) < 0.05 * fabs(ksum), "%s: turn %d: steady yaw rate %.5f, rolling %.5f", name, phase,
              ysum / 100, ksum / 100);
        CHECK(unwrapped * sign > 0.3, "%s: turn %d: heading changed only %.5f", name, phase, unwrapped);
        CHECK(wmax < 1.1 * limit, "%s: turn %d: yaw rate %.5f above the rolling limit %.5f", name, phase, wmax,
              limit);
    }
    buggy_destroy();
}

int main(void) {
    dInitODE2(0);
    run(0);
    run(1);
    dCloseODE();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
