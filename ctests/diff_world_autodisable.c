/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* Auto-disable of free bodies. ODE only puts to sleep bodies attached to
 * a joint ("no freezing in mid-air"), so bodies at rest, slow or fast,
 * with any thresholds, step/time budgets and sample counts, stay enabled;
 * the program prints, per body, the first step at which it is found
 * disabled (-1: never) and its velocities. Also: the world defaults each
 * body receives, dBodyDisable/dBodyEnable, a force not re-enabling a
 * disabled body, and dBodySetAutoDisableFlag(0) re-enabling it. */
#include <ode/ode.h>
#include <stdio.h>

#define NB 5

static void run(int quick)
{
    const char *tag = quick ? "quick" : "step";
    dWorldID w = dWorldCreate();
    dBodyID b[NB];
    int first_disabled[NB];
    int i, s;

    dWorldSetAutoDisableFlag(w, 1);
    dWorldSetAutoDisableLinearThreshold(w, 0.05);
    dWorldSetAutoDisableAngularThreshold(w, 0.1);
    dWorldSetAutoDisableSteps(w, 3);
    dWorldSetAutoDisableTime(w, 0.02);
    dWorldSetAutoDisableAverageSamplesCount(w, 4);
    for (i = 0; i < NB; i++) {
        b[i] = dBodyCreate(w);
        first_disabled[i] = -1;
    }
    /* b0 at rest with the world defaults */
    dBodySetLinearVel(b[1], 0.01, 0, 0);             /* slow */
    dBodySetAngularVel(b[2], 0, 0.5, 0);             /* spinning */
    dBodySetAutoDisableAverageSamplesCount(b[3], 1); /* instantaneous */
    dBodySetAutoDisableSteps(b[3], 0);
    dBodySetAutoDisableTime(b[3], 0);
    dBodySetAutoDisableFlag(b[4], 0);
    for (i = 0; i < NB; i++)
        printf("%s b%d flag %d lin %.17g ang %.17g samples %d steps %d time %.17g\n", tag, i,
               dBodyGetAutoDisableFlag(b[i]), dBodyGetAutoDisableLinearThreshold(b[i]),
               dBodyGetAutoDisableAngularThreshold(b[i]), dBodyGetAutoDisableAverageSamplesCount(b[i]),
               dBodyGetAutoDisableSteps(b[i]), dBodyGetAutoDisableTime(b[i]));

    for (s = 0; s < 60; s++) {
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        for (i = 0; i < NB; i++)
            if (first_disabled[i] < 0 && !dBodyIsEnabled(b[i])) first_disabled[i] = s;
    }
    for (i = 0; i < NB; i++) {
        const dReal *v = dBodyGetLinearVel(b[i]), *a = dBodyGetAngularVel(b[i]);
        printf("%s b%d first_disabled %d enabled %d v %.17g %.17g %.17g w %.17g %.17g %.17g\n", tag, i,
               first_disabled[i], dBodyIsEnabled(b[i]), v[0], v[1], v[2], a[0], a[1], a[2]);
    }

    /* explicit disabling and the ways back */
    dBodyDisable(b[0]);
    dBodyDisable(b[1]);
    dBodyDisable(b[2]);
    dBodyAddForce(b[0], 0, 0, 10);
    dBodyEnable(b[1]);
    dBodySetAutoDisableFlag(b[2], 0);
    for (s = 0; s < 5; s++) {
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
    }
    for (i = 0; i < 3; i++) {
        const dReal *p = dBodyGetPosition(b[i]), *f = dBodyGetForce(b[i]);
        printf("%s after b%d enabled %d p %.17g %.17g %.17g f %.17g\n", tag, i, dBodyIsEnabled(b[i]),
               p[0], p[1], p[2], f[2]);
    }
    dWorldDestroy(w);
}

int main(void)
{
    dInitODE2(0);
    run(0);
    run(1);
    dCloseODE();
    return 0;
}
