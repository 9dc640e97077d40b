/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* World parameters: defaults of a new world, setters and getters (including
 * the values ODE stores squared or as flag bits), dWorldImpulseToForce and
 * the return values of the memory/threading settings and of stepping an
 * empty world. Only calls ODE accepts. */
#include <ode/ode.h>
#include <stdio.h>

static void dump(const char *tag, dWorldID w)
{
    dVector3 g;
    dWorldGetGravity(w, g);
    printf("%s gravity %.17g %.17g %.17g\n", tag, g[0], g[1], g[2]);
    printf("%s erp %.17g cfm %.17g\n", tag, dWorldGetERP(w), dWorldGetCFM(w));
    printf("%s autodisable flag %d lin %.17g ang %.17g samples %d steps %d time %.17g\n", tag,
           dWorldGetAutoDisableFlag(w), dWorldGetAutoDisableLinearThreshold(w),
           dWorldGetAutoDisableAngularThreshold(w), dWorldGetAutoDisableAverageSamplesCount(w),
           dWorldGetAutoDisableSteps(w), dWorldGetAutoDisableTime(w));
    printf("%s damping lin %.17g ang %.17g thresholds %.17g %.17g maxangular %.17g\n", tag,
           dWorldGetLinearDamping(w), dWorldGetAngularDamping(w),
           dWorldGetLinearDampingThreshold(w), dWorldGetAngularDampingThreshold(w),
           dWorldGetMaxAngularSpeed(w));
    printf("%s quickstep iterations %d w %.17g\n", tag, dWorldGetQuickStepNumIterations(w), dWorldGetQuickStepW(w));
    printf("%s contact maxvel %.17g layer %.17g\n", tag, dWorldGetContactMaxCorrectingVel(w), dWorldGetContactSurfaceLayer(w));
    printf("%s threads %u data_is_null %d\n", tag, dWorldGetStepIslandsProcessingMaxThreadCount(w), dWorldGetData(w) == NULL);
}

static void *my_alloc(dsizeint n) { (void)n; return NULL; }
static void *my_shrink(void *p, dsizeint a, dsizeint b) { (void)a; (void)b; return p; }
static void my_free(void *p, dsizeint n) { (void)p; (void)n; }

int main(void)
{
    static int token;
    dInitODE2(0);
    dWorldID w = dWorldCreate();
    dump("default", w);

    dWorldSetGravity(w, 0.5, -1.25, -9.81);
    dWorldSetERP(w, 0.8);
    dWorldSetCFM(w, 1e-5);
    dWorldSetAutoDisableFlag(w, 7);
    dWorldSetAutoDisableLinearThreshold(w, -0.3);
    dWorldSetAutoDisableAngularThreshold(w, 0.07);
    dWorldSetAutoDisableAverageSamplesCount(w, 5);
    dWorldSetAutoDisableSteps(w, -4);
    dWorldSetAutoDisableTime(w, 2.5);
    dWorldSetLinearDamping(w, 0.01);
    dWorldSetAngularDamping(w, 0.02);
    dWorldSetLinearDampingThreshold(w, -0.125);
    dWorldSetAngularDampingThreshold(w, 3);
    dWorldSetMaxAngularSpeed(w, 12.5);
    dWorldSetQuickStepNumIterations(w, 0);
    dWorldSetQuickStepW(w, 0.9);
    dWorldSetContactMaxCorrectingVel(w, 4.5);
    dWorldSetContactSurfaceLayer(w, 0.001);
    dWorldSetStepIslandsProcessingMaxThreadCount(w, 3);
    dWorldSetData(w, &token);
    dump("set", w);
    printf("data_is_token %d\n", dWorldGetData(w) == (void *)&token);

    dWorldSetQuickStepNumIterations(w, -3);
    printf("iterations after -3: %d\n", dWorldGetQuickStepNumIterations(w));
    dWorldSetAutoDisableFlag(w, 0);
    dWorldSetDamping(w, 0, 0.5);
    dWorldSetMaxAngularSpeed(w, dInfinity);
    dWorldSetAutoDisableAverageSamplesCount(w, 0);
    dump("reset", w);
    dWorldSetDamping(w, 0.25, 0);
    printf("damping after SetDamping(0.25,0): %.17g %.17g\n", dWorldGetLinearDamping(w), dWorldGetAngularDamping(w));

    dVector3 f = {7, 7, 7, 42};
    dWorldImpulseToForce(w, 0.01, 1, -2, 3.5, f);
    printf("impulse %.17g %.17g %.17g pad %.17g\n", f[0], f[1], f[2], f[3]);
    dWorldImpulseToForce(w, 1.0 / 60, 0.1, 0.2, 0.3, f);
    printf("impulse %.17g %.17g %.17g\n", f[0], f[1], f[2]);

    /* memory and threading settings on valid input */
    dWorldStepReserveInfo ri;
    ri.struct_size = sizeof(ri);
    ri.reserve_factor = 1.5f;
    ri.reserve_minimum = 4096;
    dWorldStepMemoryFunctionsInfo mf;
    mf.struct_size = sizeof(mf);
    mf.alloc_block = my_alloc;
    mf.shrink_block = my_shrink;
    mf.free_block = my_free;
    dWorldID w2 = dWorldCreate();
    dWorldID w3 = dWorldCreate();
    printf("policy null %d\n", dWorldSetStepMemoryReservationPolicy(w2, NULL));
    printf("manager null %d\n", dWorldSetStepMemoryManager(w2, NULL));
    printf("share null %d\n", dWorldUseSharedWorkingMemory(w2, NULL));
    printf("share w3 %d\n", dWorldUseSharedWorkingMemory(w2, w3));
    printf("share null again %d\n", dWorldUseSharedWorkingMemory(w2, NULL));
    printf("share w3 again %d\n", dWorldUseSharedWorkingMemory(w2, w3));
    printf("policy set %d\n", dWorldSetStepMemoryReservationPolicy(w3, &ri));
    printf("policy reset %d\n", dWorldSetStepMemoryReservationPolicy(w3, NULL));
    dWorldCleanupWorkingMemory(w2);
    dWorldCleanupWorkingMemory(w3);
    dWorldSetStepThreadingImplementation(w, NULL, NULL);
    (void)mf;

    /* stepping worlds without bodies */
    printf("step %d\n", dWorldStep(w, 0.01));
    printf("quickstep %d\n", dWorldQuickStep(w, 0.01));
    printf("step tiny %d\n", dWorldStep(w2, 1e-300));
    printf("quickstep big %d\n", dWorldQuickStep(w3, 1e10));
    dump("after steps", w);

    dWorldDestroy(w3);
    dWorldDestroy(w2);
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
