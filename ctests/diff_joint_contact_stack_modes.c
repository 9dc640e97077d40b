/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* Stacks of three boxes on hand-made contact joints (four corner contacts
 * per box with the box below, or with the static ground), one stack per
 * surface, together covering every surface mode bit: Approx1 with
 * SoftERP/SoftCFM; mu = dInfinity with plain (Approx0) box friction and
 * Bounce; Mu2 + FDir1 with Approx1_1 and Approx1_2; Motion1/Motion2/
 * MotionN with Slip1/Slip2; Rolling with AxisDep (rho, rho2, rhoN) and
 * Approx1_N; Rolling without AxisDep (rho only); Bounce with a bounce
 * velocity threshold. The stacks start slightly offset and tilted and the
 * top boxes are pushed sideways, so friction, rolling and bounce rows all
 * act. dWorldQuickStep (20 iterations, dRandSetSeed(11), contact max
 * correcting velocity and surface layer set) for 1 s, then dWorldStep on
 * a fresh copy. Contacts live in a joint group emptied every step; the
 * first contact of each stack's top box has a feedback record. Prints
 * every 5th step the states, the feedback and dRandGetSeed().
 * Tolerance: round-off only (QuickStep and Dantzig follow ODE's operation
 * order, contact rows are assembled as ODE does; bit-identical when
 * checked locally); 1e-12 absolute for values that should be zero. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

#define NS 7
#define HIGH 3

static const dReal HALF[3] = {0.25, 0.2, 0.1};
static dWorldID w;
static dJointGroupID group;
static dJointFeedback fb[NS];

static void pr_body(int s, const char *tag, int i, dBodyID b) {
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *a = dBodyGetAngularVel(b);
    printf("%d %s%d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n", s, tag,
           i, p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], a[0], a[1], a[2]);
}

/* Contacts of the bottom corners of `top` with the top face of `bot` (or
 * the ground z = 0 when bot is 0); the normal is bot's z axis. */
static void contacts(dBodyID top, dBodyID bot, const dSurfaceParameters *sp, dJointFeedback *f) {
    int i, k;
    dVector3 n = {0, 0, 1}, fdir = {1, 0, 0};
    if (bot) {
        dBodyVectorToWorld(bot, 0, 0, 1, n);
        dBodyVectorToWorld(bot, 1, 0, 0, fdir);
    }
    for (i = 0; i < 4; i++) {
        dVector3 p, l;
        dReal depth;
        dBodyGetRelPointPos(top, (i & 1) ? HALF[0] : -HALF[0], (i & 2) ? HALF[1] : -HALF[1], -HALF[2], p);
        if (bot) {
            dBodyGetPosRelPoint(bot, p[0], p[1], p[2], l);
            if (fabs(l[0]) > HALF[0] + 0.05 || fabs(l[1]) > HALF[1] + 0.05) continue;
            depth = HALF[2] - l[2];
        } else {
            depth = -p[2];
        }
        if (depth > 0) {
            dContact c;
            dJointID j;
            memset(&c, 0, sizeof c);
            c.surface = *sp;
            for (k = 0; k < 3; k++) {
                c.geom.pos[k] = p[k];
                c.geom.normal[k] = n[k];
                c.fdir1[k] = fdir[k];
            }
            c.geom.depth = depth;
            j = dJointCreateContact(w, group, &c);
            dJointAttach(j, top, bot);
            if (f) {
                dJointSetFeedback(j, f);
                f = 0;
            }
        }
    }
}

static void surfaces(dSurfaceParameters *sp) {
    memset(sp, 0, NS * sizeof *sp);
    sp[0].mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
    sp[0].mu = 0.6;
    sp[0].soft_erp = 0.5;
    sp[0].soft_cfm = 1e-4;

    sp[1].mode = dContactBounce;
    sp[1].mu = dInfinity;
    sp[1].bounce = 0.4;
    sp[1].bounce_vel = 0.05;

    sp[2].mode = dContactMu2 | dContactFDir1 | dContactApprox1_1 | dContactApprox1_2;
    sp[2].mu = 0.2;
    sp[2].mu2 = 0.9;

    sp[3].mode = dContactMotion1 | dContactMotion2 | dContactMotionN | dContactSlip1 | dContactSlip2 |
                 dContactApprox1;
    sp[3].mu = 0.7;
    sp[3].motion1 = 0.1;
    sp[3].motion2 = -0.05;
    sp[3].motionN = 0.005;
    sp[3].slip1 = 0.02;
    sp[3].slip2 = 0.04;

    sp[4].mode = dContactRolling | dContactAxisDep | dContactApprox1 | dContactApprox1_N;
    sp[4].mu = 0.8;
    sp[4].mu2 = 0.5;
    sp[4].rho = 0.05;
    sp[4].rho2 = 0.02;
    sp[4].rhoN = 0.01;

    sp[5].mode = dContactRolling | dContactMu2 | dContactApprox1;
    sp[5].mu = 0.5;
    sp[5].mu2 = 0.3;
    sp[5].rho = 0.03;

    sp[6].mode = dContactBounce | dContactSoftCFM | dContactApprox1;
    sp[6].mu = 0.4;
    sp[6].bounce = 0.8;
    sp[6].bounce_vel = 0.5;
    sp[6].soft_cfm = 1e-5;
}

static void run(int quick) {
    dSurfaceParameters sp[NS];
    dBodyID b[NS][HIGH];
    dMass m;
    dQuaternion q;
    int st, i, s;

    printf("%s\n", quick ? "dWorldQuickStep" : "dWorldStep");
    surfaces(sp);
    memset(fb, 0, sizeof fb);
    dRandSetSeed(11);
    w = dWorldCreate();
    group = dJointGroupCreate(0);
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(w, 20);
    dWorldSetContactMaxCorrectingVel(w, 0.5);
    dWorldSetContactSurfaceLayer(w, 0.001);
    for (st = 0; st < NS; st++)
        for (i = 0; i < HIGH; i++) {
            b[st][i] = dBodyCreate(w);
            dMassSetBoxTotal(&m, 1 + 0.2 * i, 2 * HALF[0], 2 * HALF[1], 2 * HALF[2]);
            dBodySetMass(b[st][i], &m);
            /* the bouncing stacks start with gaps */
            dBodySetPosition(b[st][i], 2.0 * st + 0.03 * i, 0.02 * i,
                             HALF[2] * (2 * i + 1) - 0.001 + ((st == 1 || st == 6) ? 0.05 * (i + 1) : 0));
            dQFromAxisAndAngle(q, 0.3, 1, 0.2 * i, 0.01 * (i + 1));
            dBodySetQuaternion(b[st][i], q);
        }
    for (st = 0; st < NS; st++) dBodySetLinearVel(b[st][HIGH - 1], 0.3, 0.15, 0);
    for (s = 0; s < 100; s++) {
        for (st = 0; st < NS; st++)
            for (i = 0; i < HIGH; i++) {
                contacts(b[st][i], i ? b[st][i - 1] : 0, &sp[st], i == HIGH - 1 ? &fb[st] : 0);
                /* a box that fell off lands on the ground */
                if (i) contacts(b[st][i], 0, &sp[st], 0);
            }
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        if (s % 5 == 4 || s < 2) {
            for (st = 0; st < NS; st++) {
                for (i = 0; i < HIGH; i++) pr_body(s, "box", st * 10 + i, b[st][i]);
                printf("%d fb%d f1 %.17g %.17g %.17g t1 %.17g %.17g %.17g f2 %.17g %.17g %.17g t2 %.17g %.17g %.17g\n",
                       s, st, fb[st].f1[0], fb[st].f1[1], fb[st].f1[2], fb[st].t1[0], fb[st].t1[1], fb[st].t1[2],
                       fb[st].f2[0], fb[st].f2[1], fb[st].f2[2], fb[st].t2[0], fb[st].t2[1], fb[st].t2[2]);
            }
            printf("%d seed %lu\n", s, dRandGetSeed());
        }
        dJointGroupEmpty(group);
    }
    dJointGroupDestroy(group);
    dWorldDestroy(w);
}

int main(void) {
    dInitODE2(0);
    run(1);
    run(0);
    dCloseODE();
    return 0;
}
