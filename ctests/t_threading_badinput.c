/* Bad input to the threading, cooperative and matrix_coop APIs: each misuse
 * must be reported on the debug channel naming the function and argument,
 * return the neutral value and change nothing. Runs against OUR library
 * only (ODE asserts on these). Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

static char last_msg[1024];
static int reports, failures;
static void on_debug(int num, const char *msg, va_list ap) {
    (void)num;
    vsnprintf(last_msg, sizeof last_msg, msg, ap);
    reports++;
}

/* `stmt` must be reported once, with `needle` in the message. */
#define BAD(needle, stmt)                                                                  \
    do {                                                                                   \
        int before = reports;                                                              \
        last_msg[0] = 0;                                                                   \
        stmt;                                                                              \
        if (reports != before + 1 || !strstr(last_msg, needle)) {                          \
            printf("FAIL line %d: %s (reports %d, msg '%s')\n", __LINE__, #stmt,           \
                   reports - before, last_msg);                                            \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)
#define OK(stmt)                                                                           \
    do {                                                                                   \
        int before = reports;                                                              \
        stmt;                                                                              \
        if (reports != before) {                                                           \
            printf("FAIL line %d: %s reported '%s'\n", __LINE__, #stmt, last_msg);         \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)
#define EXPECT(c)                                                                          \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            printf("FAIL line %d: %s\n", __LINE__, #c);                                    \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static int ran;
static int job(void *ctx, dcallindex_t i, dCallReleaseeID me) {
    (void)ctx; (void)i; (void)me;
    ran++;
    return 1;
}

/* A call that posts a child naming itself as the dependent without first
 * raising its own count (ctx: the implementation). */
static const dThreadingFunctionsInfo *table;
static int parent_job(void *ctx, dcallindex_t i, dCallReleaseeID me) {
    (void)i;
    ran++;
    table->post_call((dThreadingImplementationID)ctx, NULL, NULL, 0, me, NULL, job, NULL, 0, "child");
    return 1;
}
/* A call that lowers its own count, which is 0 while it runs. */
static int lowering_job(void *ctx, dcallindex_t i, dCallReleaseeID me) {
    (void)i;
    ran++;
    table->alter_call_dependencies_count((dThreadingImplementationID)ctx, me, -1);
    return 1;
}

int main(void) {
    dSetDebugHandler(on_debug);
    dInitODE2(0);

    /* ---- implementations ---- */
    BAD("dThreadingImplementationGetFunctions", EXPECT(dThreadingImplementationGetFunctions(NULL) == NULL));
    BAD("'impl'", dThreadingImplementationShutdownProcessing(NULL));
    BAD("thread_count", EXPECT(dThreadingAllocateThreadPool(0, 0, 0, NULL) == NULL));
    OK(dThreadingFreeImplementation(NULL));
    OK(dThreadingFreeThreadPool(NULL));

    dThreadingImplementationID self = dThreadingAllocateSelfThreadedImplementation();
    dThreadingImplementationID multi = dThreadingAllocateMultiThreadedImplementation();
    const dThreadingFunctionsInfo *F = dThreadingImplementationGetFunctions(self);
    EXPECT(F == dThreadingImplementationGetFunctions(multi));

    /* A self-threaded implementation cannot be served by threads. */
    BAD("self-threaded", dExternalThreadingServeMultiThreadedImplementation(self, NULL, NULL));
    dThreadingThreadPoolID pool = dThreadingAllocateThreadPool(1, 0, 0, NULL);
    BAD("self-threaded", dThreadingThreadPoolServeMultiThreadedImplementation(pool, self));
    BAD("'pool'", dThreadingThreadPoolWaitIdleState((dThreadingThreadPoolID)self));

    /* Mutex groups. */
    BAD("mutex_count", EXPECT(F->alloc_mutex_group(self, 0, NULL) == NULL));
    dMutexGroupID g = F->alloc_mutex_group(self, 2, NULL);
    BAD("mutex_index", F->lock_group_mutex(self, g, 2));
    BAD("not locked", F->unlock_group_mutex(self, g, 0));
    OK(F->lock_group_mutex(self, g, 0));
    BAD("already locked", F->lock_group_mutex(self, g, 0));
    OK(F->unlock_group_mutex(self, g, 0));
    BAD("another threading implementation", F->lock_group_mutex(multi, g, 0));
    OK(F->free_mutex_group(self, g));
    BAD("destroyed mutex group", F->lock_group_mutex(self, g, 0));

    /* Calls. */
    dCallWaitID w = F->alloc_call_wait(self);
    BAD("call_func", F->post_call(self, NULL, NULL, 0, NULL, w, NULL, NULL, 0, "x"));
    int status = -1;
    BAD("not signalled", F->wait_call(self, &status, w, NULL, "w"));
    EXPECT(status == 0);
    dCallReleaseeID r = NULL;
    F->post_call(self, NULL, &r, 1, NULL, w, job, NULL, 0, "held");
    BAD("dependencies_count_change", F->alter_call_dependencies_count(self, r, 0));
    BAD("below zero", F->alter_call_dependencies_count(self, r, -2));
    BAD("still in use", dThreadingFreeImplementation(self));
    BAD("dependent_releasee", F->post_call(self, NULL, NULL, 0, (dCallReleaseeID)(size_t)0x7777, NULL, job, NULL, 0, "x"));
    dThreadedWaitTime bad_time;
    bad_time.wait_sec = 0;
    bad_time.wait_nsec = 2000000000UL;
    BAD("timeout_time_ptr", F->wait_call(self, NULL, w, &bad_time, "w"));
    EXPECT(ran == 0);
    OK(F->alter_call_dependencies_count(self, r, -1));
    OK(F->wait_call(self, &status, w, NULL, "w"));
    EXPECT(ran == 1 && status == 1);
    BAD("target_releasee", F->alter_call_dependencies_count(self, r, 1)); /* completed: stale */
    OK(F->free_call_wait(self, w));
    BAD("destroyed call wait", F->reset_call_wait(self, w));
    OK(dThreadingFreeImplementation(self));
    BAD("destroyed threading implementation", dThreadingImplementationCleanupForRestart(self));

    /* Multi-threaded implementation served by the pool: busy until shut down. */
    dThreadingThreadPoolServeMultiThreadedImplementation(pool, multi);
    BAD("serving threads", dThreadingFreeImplementation(multi));
    dThreadingImplementationShutdownProcessing(multi);
    dThreadingThreadPoolWaitIdleState(pool);
    OK(dThreadingFreeImplementation(multi));

    /* Miscounted dependents (ODE asserts on each): a call names a dependent
     * whose count does not include it. The release is reported and dropped,
     * every call runs once, and the implementation stays usable. Before,
     * the dependent's count wrapped below zero silently, or a running call
     * was completed under its own feet (a panic, on a pool thread a dead
     * thread that kept its implementation busy for ever). */
    table = F;
    dThreadingImplementationID s2 = dThreadingAllocateSelfThreadedImplementation();
    dCallWaitID w2 = F->alloc_call_wait(s2);
    dCallReleaseeID ra = NULL;
    ran = 0;
    OK(F->post_call(s2, NULL, &ra, 0, NULL, w2, job, NULL, 0, "ready"));
    OK(F->post_call(s2, NULL, NULL, 0, ra, NULL, job, NULL, 0, "names the ready call"));
    BAD("dependency count is already 0", F->wait_call(s2, &status, w2, NULL, "w"));
    EXPECT(ran == 2 && status == 1);
    ran = 0;
    OK(F->reset_call_wait(s2, w2));
    OK(F->post_call(s2, NULL, NULL, 0, NULL, w2, parent_job, s2, 0, "parent"));
    BAD("already completed", F->wait_call(s2, &status, w2, NULL, "w"));
    EXPECT(ran == 2 && status == 1);
    ran = 0;
    OK(F->reset_call_wait(s2, w2));
    OK(F->post_call(s2, NULL, NULL, 0, NULL, w2, lowering_job, s2, 0, "lowering"));
    BAD("below zero", F->wait_call(s2, &status, w2, NULL, "w"));
    EXPECT(ran == 1 && status == 1);
    OK(F->free_call_wait(s2, w2));
    OK(dThreadingFreeImplementation(s2));

    /* The same on a pool's thread: the report comes from that thread, and
     * the pool and the implementation can still be shut down and freed. */
    dThreadingImplementationID m2 = dThreadingAllocateMultiThreadedImplementation();
    dThreadingThreadPoolID pool2 = dThreadingAllocateThreadPool(1, 0, 0, NULL);
    dThreadingThreadPoolServeMultiThreadedImplementation(pool2, m2);
    w2 = F->alloc_call_wait(m2);
    ran = 0;
    int before = reports;
    F->post_call(m2, NULL, NULL, 0, NULL, w2, parent_job, m2, 0, "parent");
    F->wait_call(m2, &status, w2, NULL, "w");
    dThreadingImplementationShutdownProcessing(m2);
    dThreadingThreadPoolWaitIdleState(pool2);
    EXPECT(ran == 2 && status == 1);
    if (reports != before + 1 || !strstr(last_msg, "the release is dropped")) {
        printf("FAIL line %d: pool thread's miscounted release: %d reports, '%s'\n", __LINE__, reports - before, last_msg);
        failures++;
    }
    OK(F->free_call_wait(m2, w2));
    OK(dThreadingFreeImplementation(m2));
    dThreadingFreeThreadPool(pool2);

    /* Our functions table with a freed implementation: reported. Before,
     * it was accepted, and every later call through it failed. */
    {
        dThreadingImplementationID gone = dThreadingAllocateSelfThreadedImplementation();
        const dThreadingFunctionsInfo *T = dThreadingImplementationGetFunctions(gone);
        dThreadingFreeImplementation(gone);
        BAD("threadingImpl", EXPECT(dCooperativeCreate(T, gone) == NULL));
        dWorldID wgone = dWorldCreate();
        BAD("threading_impl", dWorldSetStepThreadingImplementation(wgone, T, gone));
        dWorldDestroy(wgone);
    }

    /* A huge row estimate on a threading with a serving thread (the fuzzer
     * found 2^32 - 1): the container reserves the estimate's scratch memory
     * as ODE allocates it, without writing it. Before, acquiring it wrote
     * zeros over all of it (32 GiB for 2^32 rows: minutes of page faults,
     * or the OOM killer). */
    {
        struct rusage ru0, ru1;
        getrusage(RUSAGE_SELF, &ru0);
        dThreadingImplementationID m3 = dThreadingAllocateMultiThreadedImplementation();
        dThreadingThreadPoolID pool3 = dThreadingAllocateThreadPool(1, 0, 0, NULL);
        dThreadingThreadPoolServeMultiThreadedImplementation(pool3, m3);
        dCooperativeID c3 = dCooperativeCreate(dThreadingImplementationGetFunctions(m3), m3);
        dResourceRequirementsID r3 = dResourceRequirementsCreate(c3);
        /* 2^26 rows: 512 MiB of scratch, which the check below would see
         * written (the fuzzer's 2^32 - 1 needs no more to show it) */
        OK(dEstimateCooperativelyFactorLDLTResourceRequirements(r3, 2, 1u << 26));
        dResourceContainerID k3 = dResourceContainerAcquire(r3); /* NULL if the system refuses the reservation */
        getrusage(RUSAGE_SELF, &ru1);
        if (ru1.ru_maxrss - ru0.ru_maxrss > 200 * 1024) {
            printf("FAIL line %d: acquiring a 2^26-row estimate grew the resident set by %ld kB\n", __LINE__,
                   ru1.ru_maxrss - ru0.ru_maxrss);
            failures++;
        }
        if (k3) dResourceContainerDestroy(k3);
        dResourceRequirementsDestroy(r3);
        dCooperativeDestroy(c3);
        dThreadingImplementationShutdownProcessing(m3);
        dThreadingThreadPoolWaitIdleState(pool3);
        dThreadingFreeThreadPool(pool3);
        OK(dThreadingFreeImplementation(m3));
    }

    /* ---- cooperatives ---- */
    BAD("functionInfo", EXPECT(dCooperativeCreate(NULL, (dThreadingImplementationID)&ran) == NULL));
    dThreadingFunctionsInfo shortTable = *F;
    shortTable.struct_size = 8;
    BAD("struct_size", EXPECT(dCooperativeCreate(&shortTable, NULL) == NULL));
    dCooperativeID c1 = dCooperativeCreate(NULL, NULL);
    dThreadingImplementationID impl2 = dThreadingAllocateSelfThreadedImplementation();
    dCooperativeID c2 = dCooperativeCreate(dThreadingImplementationGetFunctions(impl2), impl2);
    dResourceRequirementsID r1 = dResourceRequirementsCreate(c1);
    dResourceRequirementsID r2 = dResourceRequirementsCreate(c2);
    BAD("different threadings", dResourceRequirementsMergeIn(r1, r2));
    BAD("'cooperative'", EXPECT(dResourceRequirementsCreate(NULL) == NULL));
    BAD("'requirements'", dEstimateCooperativelyFactorLDLTResourceRequirements((dResourceRequirementsID)c1, 1, 4));
    dEstimateCooperativelyFactorLDLTResourceRequirements(r1, 1, 4);
    dResourceContainerID res = dResourceContainerAcquire(r1);
    EXPECT(res != NULL);

    dReal A[16] = {4, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, d[4] = {0, 0, 0, 0};
    dReal A0[16], d0[4];
    memcpy(A0, A, sizeof A);
    memcpy(d0, d, sizeof d);
    BAD("rowSkip", dCooperativelyFactorLDLT(res, 1, A, d, 4, 2));
    BAD("rowCount", dCooperativelyFactorLDLT(res, 1, A, d, 0, 4));
    BAD("'A'", dCooperativelyFactorLDLT(res, 1, NULL, d, 2, 4));
    BAD("overlap", dCooperativelyFactorLDLT(res, 1, A, A + 1, 2, 4));
    BAD("'resources'", dCooperativelyFactorLDLT((dResourceContainerID)r1, 1, A, d, 2, 4));
    BAD("elementCount", dCooperativelyScaleVector(res, 1, d, d0, 0));
    EXPECT(memcmp(A, A0, sizeof A) == 0 && memcmp(d, d0, sizeof d) == 0);
    OK(dCooperativelyFactorLDLT(res, 1, A, d, 2, 4));
    EXPECT(d[0] == 0.25);

    OK(dResourceContainerDestroy(res));
    BAD("destroyed resource container", dResourceContainerDestroy(res));
    dResourceRequirementsDestroy(r2);
    dResourceRequirementsDestroy(r1);
    dCooperativeDestroy(c2);
    dCooperativeDestroy(c1);
    dThreadingFreeImplementation(impl2);
    dCloseODE();

    if (failures) return 1;
    printf("PASS %d\n", reports);
    return 0;
}
