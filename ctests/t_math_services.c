/* Self-checking test of error.h, memory.h, odeinit.h, timer.h and the
 * configuration queries. Runs unchanged against Debian's ODE and ours.
 *
 * ODE's dError/dDebug never return to the caller (they exit/abort after the
 * handler), so the error and debug handlers here leave with longjmp, the way
 * C hosts survive them. Exit status 0 and "N passed, 0 failed" when all
 * checks hold. */
#include <ode/ode.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed;
#define CHECK(cond) do { if (cond) passed++; else { failed++; printf("FAILED line %d: %s\n", __LINE__, #cond); } } while (0)

static jmp_buf jb;
static int last_num = -1, calls_err, calls_dbg, calls_msg;
static char last_text[1024];

static void record(int num, const char *fmt, va_list ap) {
    last_num = num;
    vsnprintf(last_text, sizeof last_text, fmt, ap);
}
static void on_error(int num, const char *fmt, va_list ap) { calls_err++; record(num, fmt, ap); longjmp(jb, 1); }
static void on_debug(int num, const char *fmt, va_list ap) { calls_dbg++; record(num, fmt, ap); longjmp(jb, 2); }
static void on_message(int num, const char *fmt, va_list ap) { calls_msg++; record(num, fmt, ap); }

static void reset(void) { last_num = -1; last_text[0] = 0; calls_err = calls_dbg = calls_msg = 0; }

/* Memory handlers that count and delegate to the C allocator. */
static int n_alloc, n_realloc, n_free;
static size_t last_size, last_old, last_new;
static void *my_alloc(dsizeint size) { n_alloc++; last_size = size; return malloc(size); }
static void *my_realloc(void *p, dsizeint o, dsizeint n) { n_realloc++; last_old = o; last_new = n; return realloc(p, n); }
static void my_free(void *p, dsizeint size) { n_free++; last_size = size; free(p); }

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);

    /* ---- error.h: handler registry and the three channels ---- */
    CHECK(dGetErrorHandler() == NULL && dGetDebugHandler() == NULL && dGetMessageHandler() == NULL);
    dSetErrorHandler(on_error);
    dSetDebugHandler(on_debug);
    dSetMessageHandler(on_message);
    CHECK(dGetErrorHandler() == on_error);
    CHECK(dGetDebugHandler() == on_debug);
    CHECK(dGetMessageHandler() == on_message);

    reset();
    dMessage(7, "hello %d %s %.2f", 42, "x", 1.5);
    CHECK(calls_msg == 1 && last_num == 7 && strcmp(last_text, "hello 42 x 1.50") == 0);

    reset();
    if (setjmp(jb) == 0) { dDebug(3, "dbg %g", 2.5); CHECK(!"dDebug returned"); }
    CHECK(calls_dbg == 1 && last_num == 3 && strcmp(last_text, "dbg 2.5") == 0);

    reset();
    if (setjmp(jb) == 0) { dError(5, "err %s", "boom"); CHECK(!"dError returned"); }
    CHECK(calls_err == 1 && last_num == 5 && strcmp(last_text, "err boom") == 0);

    /* A rejected call inside the library goes to the debug channel
     * (d_ERR_UASSERT) and names the function. */
    reset();
    if (setjmp(jb) == 0) dMassSetZero(NULL);
    CHECK(calls_dbg == 1 && last_num == d_ERR_UASSERT && strstr(last_text, "dMassSetZero") != NULL);

    /* dMassCheck's complaints are informational messages. */
    {
        dMass m;
        dMassSetZero(&m);
        reset();
        CHECK(dMassCheck(&m) == 0);
        CHECK(calls_msg == 1 && last_num == d_ERR_UASSERT && strstr(last_text, "mass must be > 0") != NULL);
        dMassSetSphere(&m, 1, 1);
        reset();
        CHECK(dMassCheck(&m) == 1 && calls_msg == 0);
    }

    /* ---- odeinit.h: counted initialisation ---- */
    reset();
    if (setjmp(jb) == 0) dCloseODE();
    CHECK(calls_dbg == 1 && last_num == d_ERR_UASSERT);
    reset();
    if (setjmp(jb) == 0) (void)dAllocateODEDataForThread(dAllocateMaskAll);
    CHECK(calls_dbg == 1);

    reset();
    CHECK(dInitODE2(0) == 1);
    CHECK(dAllocateODEDataForThread(dAllocateMaskAll) == 1);
    CHECK(dInitODE2(dInitFlagManualThreadCleanup) == 1);
    dInitODE();
    dCloseODE();
    dCloseODE();
    CHECK(dAllocateODEDataForThread(dAllocateFlagBasicData) == 1);
    dCleanupODEAllDataForThread();
    CHECK(calls_dbg == 0);
    dCloseODE();
    reset();
    if (setjmp(jb) == 0) dCleanupODEAllDataForThread();
    CHECK(calls_dbg == 1);
    reset();
    if (setjmp(jb) == 0) dCloseODE();
    CHECK(calls_dbg == 1);
    dInitODE();
    reset();
    CHECK(dAllocateODEDataForThread(dAllocateMaskAll) == 1 && calls_dbg == 0);
    dCloseODE();

    /* ---- configuration ---- */
    const char *cfg = dGetConfiguration();
    CHECK(cfg != NULL && strncmp(cfg, "ODE ", 4) == 0);
    CHECK(strstr(cfg, "ODE_double_precision") != NULL);
    /* Debian's build string, token for token: hosts test these tokens to
     * pick code paths (trimesh through OPCODE, built-in threading). */
    CHECK(strcmp(cfg, "ODE ODE_EXT_trimesh ODE_EXT_opcode ODE_OPC_new_collider ODE_EXT_threading "
                      "ODE_THR_builtin_impl ODE_double_precision") == 0);
    CHECK(dCheckConfiguration("ODE_EXT_threading") == 1);
    CHECK(dCheckConfiguration("ODE_EXT_opcode") == 1);
    CHECK(dCheckConfiguration("ODE") == 1);
    CHECK(dCheckConfiguration("ODE_double_precision") == 1);
    CHECK(dCheckConfiguration("ODE_single_precision") == 0);
    CHECK(dCheckConfiguration("precision") == 0);
    CHECK(dCheckConfiguration("ODE_double") == 0);
    CHECK(dCheckConfiguration("") == 1);          /* ODE's quirk */
    CHECK(dCheckConfiguration("ODE ODE") == 1);   /* ODE's quirk */

    /* ---- memory.h ---- */
    CHECK(dGetAllocHandler() == NULL && dGetReallocHandler() == NULL && dGetFreeHandler() == NULL);
    void *p = dAlloc(40);
    CHECK(p != NULL);
    memset(p, 1, 40);
    p = dRealloc(p, 40, 80);
    CHECK(p != NULL && ((unsigned char *)p)[39] == 1);
    dFree(p, 80);
    dSetAllocHandler(my_alloc);
    dSetReallocHandler(my_realloc);
    dSetFreeHandler(my_free);
    CHECK(dGetAllocHandler() == my_alloc && dGetReallocHandler() == my_realloc && dGetFreeHandler() == my_free);
    p = dAlloc(16);
    CHECK(n_alloc == 1 && last_size == 16 && p != NULL);
    p = dRealloc(p, 16, 64);
    CHECK(n_realloc == 1 && last_old == 16 && last_new == 64 && p != NULL);
    dFree(p, 64);
    CHECK(n_free == 1 && last_size == 64);
    dFree(NULL, 5);
    CHECK(n_free == 1);
    dSetAllocHandler(NULL);
    dSetReallocHandler(NULL);
    dSetFreeHandler(NULL);
    CHECK(dGetAllocHandler() == NULL && dGetReallocHandler() == NULL && dGetFreeHandler() == NULL);
    p = dAlloc(8);
    dFree(p, 8);
    CHECK(n_alloc == 1 && n_free == 1);

    /* ---- timer.h ---- */
    CHECK(sizeof(dStopwatch) == 24);
    CHECK(dTimerTicksPerSecond() == 1e6);
    double res = dTimerResolution();
    CHECK(res > 0 && res <= 0.01);
    dStopwatch sw;
    dStopwatchReset(&sw);
    CHECK(sw.time == 0 && sw.cc[0] == 0 && sw.cc[1] == 0);
    dStopwatchStart(&sw);
    CHECK(sw.cc[1] > 1000000000UL && sw.cc[0] < 1000000UL); /* seconds, microseconds */
    usleep(20000);
    dStopwatchStop(&sw);
    double t = dStopwatchTime(&sw);
    CHECK(t >= 0.019 && t < 2.0);
    CHECK(sw.time >= 19000);

    dTimerStart("alpha");
    usleep(2000);
    dTimerNow("beta gamma");
    usleep(1000);
    dTimerEnd();
    FILE *f = tmpfile();
    dTimerReport(f, 1);
    rewind(f);
    char line[256];
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "\n") == 0);
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "Timer Report (1.00 us resolution)\n") == 0);
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "------------\n") == 0);
    CHECK(fgets(line, sizeof line, f) && strncmp(line, "alpha      ", 11) == 0 && strstr(line, "ms") && strstr(line, "(avg"));
    CHECK(fgets(line, sizeof line, f) && strncmp(line, "beta gamma ", 11) == 0);
    CHECK(fgets(line, sizeof line, f) && strncmp(line, "TOTAL      ", 11) == 0 && strstr(line, "100.00%"));
    fclose(f);

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
