/* DIFF-TOL rel=1e-12 abs=1e-14 */
/* Differential test: what bodies take from their world (auto-disable and
 * damping defaults, maximum angular speed) at creation and through
 * dBodySetAutoDisableDefaults / dBodySetDampingDefaults /
 * dBodySetAutoDisableFlag(0). */
#include <ode/ode.h>
#include <stdio.h>

static void dump(const char *tag, dBodyID b) {
    printf("%s: adis flag %d steps %d time %.17g samples %d lin %.17g ang %.17g enabled %d\n", tag,
           dBodyGetAutoDisableFlag(b), dBodyGetAutoDisableSteps(b), dBodyGetAutoDisableTime(b),
           dBodyGetAutoDisableAverageSamplesCount(b), dBodyGetAutoDisableLinearThreshold(b),
           dBodyGetAutoDisableAngularThreshold(b), dBodyIsEnabled(b));
    printf("%s: damping %.17g %.17g thresholds %.17g %.17g maxang %.17g gyro %d\n", tag, dBodyGetLinearDamping(b),
           dBodyGetAngularDamping(b), dBodyGetLinearDampingThreshold(b), dBodyGetAngularDampingThreshold(b),
           dBodyGetMaxAngularSpeed(b), dBodyGetGyroscopicMode(b));
}

int main(void) {
    dWorldID w = dWorldCreate();
    dBodyID a = dBodyCreate(w);
    dump("default", a);

    dWorldSetAutoDisableFlag(w, 1);
    dWorldSetAutoDisableSteps(w, 37);
    dWorldSetAutoDisableTime(w, 0.75);
    dWorldSetAutoDisableAverageSamplesCount(w, 5);
    dWorldSetAutoDisableLinearThreshold(w, 0.3);
    dWorldSetDamping(w, 0.01, 0.02);
    dWorldSetLinearDampingThreshold(w, 0.125);
    dWorldSetMaxAngularSpeed(w, 12.5);
    dBodyID b = dBodyCreate(w);
    dump("after world settings, old body", a);
    dump("new body", b);

    /* per-body overrides, then back to the world's values */
    dBodySetAutoDisableSteps(b, 3);
    dBodySetAutoDisableTime(b, 9);
    dBodySetAutoDisableAverageSamplesCount(b, 11);
    dBodySetAutoDisableLinearThreshold(b, 0.9);
    dBodySetAutoDisableAngularThreshold(b, 0.8);
    dBodyDisable(b);
    dump("overridden", b);
    dBodySetAutoDisableFlag(b, 0); /* takes steps/time/samples from the world, enables */
    dump("flag off", b);
    dBodySetAutoDisableFlag(b, 1);
    dump("flag on", b);
    dBodySetDamping(b, 0.5, 0.25);
    dBodySetMaxAngularSpeed(b, dInfinity);
    dBodySetAutoDisableDefaults(b);
    dBodySetDampingDefaults(b);
    dump("defaults", b);
    dBodySetAutoDisableDefaults(a);
    dBodySetDampingDefaults(a);
    dump("old body defaults", a);

    dWorldSetAutoDisableFlag(w, 0);
    dWorldSetDamping(w, 0, 0);
    dWorldSetMaxAngularSpeed(w, dInfinity);
    dBodyID c = dBodyCreate(w);
    dump("world reset, new body", c);
    dBodyDisable(b);
    dBodySetAutoDisableDefaults(b);
    dump("defaults with flag off", b);
    dWorldDestroy(w);
    printf("done\n");
    return 0;
}
