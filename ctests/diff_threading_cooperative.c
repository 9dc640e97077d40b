/* DIFF-TOL rel=1e-11 abs=1e-12 */
/* Differential test of cooperative.h / matrix_coop.h: requirements are
 * estimated, cloned and merged, containers acquired, and the cooperative
 * LDLT factorisation, LDLT solve, L1 solves and vector scaling run on
 * symmetric positive definite systems, with the default (self-threaded)
 * cooperative and with one backed by a thread pool. Each result is printed
 * and compared with the single-threaded functions of matrix.h in the same
 * process (printed as the largest difference). */
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NMAX 160
#define SKIP_OF(n) (((n) + 3) & ~3)

static dReal A[NMAX * NMAX], A1[NMAX * NMAX], d[NMAX], d1[NMAX], b[NMAX], b1[NMAX], s[NMAX];

static unsigned long seed = 12345;
static dReal rnd(void) {
    seed = seed * 1103515245UL + 12345UL;
    return (dReal)((seed >> 8) & 0xFFFF) / 65536.0 - 0.5;
}

static void make_spd(unsigned n, unsigned skip) {
    static dReal M[NMAX * NMAX];
    for (unsigned i = 0; i < n * n; i++) M[i] = rnd();
    memset(A, 0, sizeof A);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            dReal sum = 0;
            for (unsigned k = 0; k < n; k++) sum += M[i * n + k] * M[j * n + k];
            A[i * skip + j] = sum + (i == j ? n : 0);
        }
}

static double maxdiff(const dReal *x, const dReal *y, unsigned n) {
    double m = 0;
    for (unsigned i = 0; i < n; i++) {
        double e = fabs(x[i] - y[i]);
        if (e > m) m = e;
    }
    return m;
}

static void print(const char *what, const dReal *v, unsigned n) {
    printf("%s", what);
    for (unsigned i = 0; i < n; i += 7) printf(" %.17g", v[i]);
    printf("\n");
}

static void run(dResourceContainerID res, unsigned threads, unsigned n) {
    unsigned skip = SKIP_OF(n);
    printf("n %u threads %u\n", n, threads);
    make_spd(n, skip);
    memcpy(A1, A, sizeof A);
    dCooperativelyFactorLDLT(res, threads, A, d, n, skip);
    dFactorLDLT(A1, d1, (int)n, (int)skip);
    print(" d", d, n);
    print(" L row", A + (n - 1) * skip, n - 1);
    /* Not an exact comparison: Debian's multi-threaded factor may differ
     * from its single-threaded one by an ulp depending on thread
     * scheduling, which would make the reference trace itself vary. */
    printf(" factor vs single %.3g %.3g\n", maxdiff(A, A1, n * skip) < 1e-12 ? 0.0 : 1.0, maxdiff(d, d1, n) < 1e-12 ? 0.0 : 1.0);

    for (unsigned i = 0; i < n; i++) b[i] = rnd();
    memcpy(b1, b, sizeof b);
    dCooperativelySolveL1Straight(res, threads, A, b, n, skip);
    dSolveL1(A1, b1, (int)n, (int)skip);
    print(" L1", b, n);
    printf(" L1 vs single %.3g\n", maxdiff(b, b1, n) < 1e-12 ? 0.0 : 1.0);

    dCooperativelySolveL1Transposed(res, threads, A, b, n, skip);
    dSolveL1T(A1, b1, (int)n, (int)skip);
    print(" L1T", b, n);
    printf(" L1T vs single %.3g\n", maxdiff(b, b1, n) < 1e-12 ? 0.0 : 1.0);

    for (unsigned i = 0; i < n; i++) { b[i] = rnd(); s[i] = 1.0 + rnd(); }
    memcpy(b1, b, sizeof b);
    dCooperativelyScaleVector(res, threads, b, s, n);
    dScaleVector(b1, s, (int)n);
    print(" scaled", b, n);
    printf(" scale vs single %.3g\n", maxdiff(b, b1, n));

    dCooperativelySolveLDLT(res, threads, A, d, b, n, skip);
    dSolveLDLT(A1, d1, b1, (int)n, (int)skip);
    print(" x", b, n);
    printf(" LDLT vs single %.3g\n", maxdiff(b, b1, n) < 1e-12 ? 0.0 : 1.0);
}

static dResourceContainerID acquire(dCooperativeID coop, unsigned threads, unsigned rows) {
    dResourceRequirementsID r = dResourceRequirementsCreate(coop);
    dEstimateCooperativelyFactorLDLTResourceRequirements(r, threads, rows);
    dEstimateCooperativelySolveLDLTResourceRequirements(r, threads, rows);
    dResourceRequirementsID r2 = dResourceRequirementsCreate(coop);
    dEstimateCooperativelySolveL1StraightResourceRequirements(r2, threads, rows);
    dEstimateCooperativelySolveL1TransposedResourceRequirements(r2, threads, rows);
    dResourceRequirementsID r3 = dResourceRequirementsClone(r2);
    dEstimateCooperativelyScaleVectorResourceRequirements(r3, threads, rows);
    dResourceRequirementsMergeIn(r, r3);
    dResourceRequirementsMergeIn(r, r2);
    dResourceContainerID res = dResourceContainerAcquire(r);
    printf("container %s\n", res ? "acquired" : "NULL");
    dResourceRequirementsDestroy(r3);
    dResourceRequirementsDestroy(r2);
    dResourceRequirementsDestroy(r);
    return res;
}

int main(void) {
    dInitODE2(0);
    unsigned sizes[] = {1, 5, 37, 150};

    /* Default cooperative: self-threaded, every call on this thread. */
    dCooperativeID coop = dCooperativeCreate(NULL, NULL);
    dResourceContainerID res = acquire(coop, 4, NMAX);
    for (unsigned k = 0; k < 4; k++) run(res, 4, sizes[k]);
    dResourceContainerDestroy(res);
    dCooperativeDestroy(coop);

    /* A cooperative whose threading is served by two pool threads. */
    dThreadingImplementationID impl = dThreadingAllocateMultiThreadedImplementation();
    dThreadingThreadPoolID pool = dThreadingAllocateThreadPool(2, 0, dAllocateFlagBasicData, NULL);
    dThreadingThreadPoolServeMultiThreadedImplementation(pool, impl);
    coop = dCooperativeCreate(dThreadingImplementationGetFunctions(impl), impl);
    res = acquire(coop, 3, NMAX);
    for (unsigned k = 0; k < 4; k++) run(res, 3, sizes[k]);
    dResourceContainerDestroy(res);
    dCooperativeDestroy(coop);
    dThreadingImplementationShutdownProcessing(impl);
    dThreadingThreadPoolWaitIdleState(pool);
    dThreadingFreeThreadPool(pool);
    dThreadingFreeImplementation(impl);
    dCloseODE();
    return 0;
}
