/* Bad input to the custom-joint API (ode/ode_ext.h) is reported on the
 * debug channel, naming the function, and has no effect; a callback that
 * reports impossible row counts disables the joint for that step only. */
#include <ode/ode_ext.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int failures = 0, reports = 0, last_num = 0;
static char last[512];
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); failures++; } } while (0)

static void on_debug(int num, const char *msg, va_list ap)
{
    last_num = num;
    vsnprintf(last, sizeof last, msg, ap);
    reports++;
}

/* Expects exactly one report naming `func` from the statement. */
#define EXPECT_REPORT(func, stmt) do { int r0 = reports; last[0] = 0; stmt; \
    CHECK(reports == r0 + 1 && strstr(last, func), "%s: expected one report, got %d: %s", func, reports - r0, last); } while (0)

static int m_report = 1, nub_report = 0, info1_calls = 0, findex_report = -1, bounded_nub_row = 0;
static void *seen_user = 0;
static odexJointInfo1 *saved_info1 = 0;

static void info1(odexJointInfo1 *info)
{
    odexLimit lim;
    info1_calls++;
    seen_user = info->user_data;
    saved_info1 = info;
    odexLimitInit(&lim, dBodyGetWorld(info->body1));
    lim.lo = 1; lim.hi = 0; /* not a range */
    EXPECT_REPORT("odexJointLimitTest", CHECK(odexJointLimitTest(info, 0, 0.5, &lim) == 0, "inverted range accepted"));
    lim.lo = 0; lim.hi = 1;
    EXPECT_REPORT("odexJointLimitTest", odexJointLimitTest(info, 7, 0.5, &lim)); /* no such slot */
    EXPECT_REPORT("odexJointLimitTest", odexJointLimitTest(info, 0, 0.5, 0));
    CHECK(odexJointLimitTest(info, 0, 0.5, &lim) == 0, "in range: no row");
    info->m = m_report;
    info->nub = nub_report;
}

static void info2(odexJointInfo2 *info)
{
    int i;
    /* the row this test uses: keep the body's height (a soft pin) */
    for (i = 0; i < info->m; i++) info->rows[i].J1l[2] = 1;
    /* a friction index outside the joint's rows (bad input) */
    if (findex_report != -1 && info->m > 0) {
        info->rows[0].lo = -1e9;
        info->rows[0].hi = 1e9;
        info->rows[0].findex = findex_report;
    }
    /* row 0 counted in nub but given bounds too weak to hold the body
     * (and a friction index): the host breaks the nub contract */
    if (bounded_nub_row && info->m > 0) {
        info->rows[0].lo = -0.5;
        info->rows[0].hi = 0.5;
        if (bounded_nub_row == 2) info->rows[0].findex = 0;
    }
    /* slot 0 was not engaged: completing it is refused */
    EXPECT_REPORT("odexJointLimitRow", odexJointLimitRow(info, 0, &info->rows[0]));
}

int main(void)
{
    odexCustomJointCallbacks cb = {info1, info2, 0, 2};
    dWorldID w;
    dBodyID b;
    dJointID j;
    int user = 42;
    odexLimit lim;
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -10);
    b = dBodyCreate(w);

    EXPECT_REPORT("odexJointCreateCustom", CHECK(odexJointCreateCustom(w, 0, 0, 0) == 0, "NULL callbacks accepted"));
    cb.max_rows = 7;
    EXPECT_REPORT("odexJointCreateCustom", CHECK(odexJointCreateCustom(w, 0, &cb, 0) == 0, "max_rows 7 accepted"));
    cb.max_rows = 2;
    cb.info2 = 0;
    EXPECT_REPORT("odexJointCreateCustom", CHECK(odexJointCreateCustom(w, 0, &cb, 0) == 0, "NULL info2 accepted"));
    cb.info2 = info2;
    EXPECT_REPORT("odexJointCreateCustom", CHECK(odexJointCreateCustom(0, 0, &cb, 0) == 0, "NULL world accepted"));

    j = odexJointCreateCustom(w, 0, &cb, &user);
    CHECK(j != 0, "valid creation refused");
    CHECK(odexJointGetCustomUserData(j) == &user, "user data");
    dJointAttach(j, b, 0);
    EXPECT_REPORT("odexJointGetCustomUserData", odexJointGetCustomUserData(dJointCreateNull(w, 0)));
    EXPECT_REPORT("odexJointGetLimitState", odexJointGetLimitState(j, 2));
    EXPECT_REPORT("odexLimitInit", odexLimitInit(&lim, 0));

    /* One good step: the row holds the body's height against gravity. */
    dWorldStep(w, 0.01);
    CHECK(info1_calls == 1 && seen_user == &user, "callbacks ran with the user data");
    CHECK(fabs(dBodyGetLinearVel(b)[2]) < 1e-6, "the row held (vz = %g)", dBodyGetLinearVel(b)[2]);

    /* Helpers outside a callback: refused. */
    odexLimitInit(&lim, w);
    EXPECT_REPORT("odexJointLimitTest", odexJointLimitTest(saved_info1, 0, 0.5, &lim));

    /* Impossible counts: reported, the joint sits the step out (free fall). */
    m_report = 3; /* > max_rows */
    {
        int r0 = reports;
        dWorldStep(w, 0.01);
        CHECK(reports > r0, "m > max_rows not reported");
        CHECK(dBodyGetLinearVel(b)[2] < -0.09, "joint not skipped (vz = %g)", dBodyGetLinearVel(b)[2]);
    }
    m_report = 1;
    nub_report = 2;
    {
        int r0 = reports;
        dWorldStep(w, 0.01);
        CHECK(reports > r0, "nub > m not reported");
        /* the host's bad input, not an internal failure of the library */
        CHECK(last_num == d_ERR_UASSERT, "nub > m reported with code %d, not d_ERR_UASSERT", last_num);
    }
    /* Negative counts: reported as given (not as a huge unsigned count). */
    m_report = -1;
    nub_report = 0;
    {
        int r0 = reports;
        dWorldStep(w, 0.01);
        CHECK(reports > r0 && strstr(last, "m = -1") && last_num == d_ERR_UASSERT, "m = -1: %s (code %d)", last, last_num);
    }
    m_report = 1;
    nub_report = 0;
    dWorldStep(w, 0.01);
    CHECK(fabs(dBodyGetLinearVel(b)[2]) < 1e-6, "joint works again (vz = %g)", dBodyGetLinearVel(b)[2]);

    /* A friction index outside the joint's rows (found by the fuzzer: the
     * Step's LCP indexed past its rows and the call was abandoned):
     * reported, the row kept as an ordinary bounded row. Both steppers,
     * both solver modes. */
    {
        int k, mode;
        for (mode = 0; mode < 2; mode++) {
            odexWorldSetSolverMode(w, mode);
            for (k = 0; k < 4; k++) {
                int r0 = reports;
                findex_report = (k & 1) ? 5 : -7;
                if (k < 2) dWorldStep(w, 0.01);
                else dWorldQuickStep(w, 0.01);
                CHECK(reports > r0 && strstr(last, "findex") && last_num == d_ERR_UASSERT,
                      "mode %d, %s, findex %d: %s (code %d)", mode, k < 2 ? "Step" : "QuickStep", findex_report, last, last_num);
                CHECK(!strstr(last, "internal error"), "findex %d: %s", findex_report, last);
                CHECK(fabs(dBodyGetLinearVel(b)[2]) < 1e-3, "mode %d: the row as a bounded row still holds (vz = %g)", mode, dBodyGetLinearVel(b)[2]);
            }
        }
        findex_report = -1;
        odexWorldSetSolverMode(w, ODEX_SOLVER_EXACT);
    }

    /* A row below nub with bounds or a friction index: reported and taken
     * as unbounded, as declared. Before, the Step ignored the bounds (the
     * body held) while the QuickStep applied them (the body fell), with no
     * report. Both steppers, both solver modes. */
    {
        int k, mode;
        m_report = 1;
        nub_report = 1;
        for (mode = 0; mode < 2; mode++) {
            odexWorldSetSolverMode(w, mode);
            for (k = 0; k < 4; k++) {
                int r0 = reports;
                bounded_nub_row = 1 + (k & 1);
                if (k < 2) dWorldStep(w, 0.01);
                else dWorldQuickStep(w, 0.01);
                CHECK(reports > r0 && strstr(last, "unbounded") && last_num == d_ERR_UASSERT,
                      "mode %d, %s, bounded row below nub: %s (code %d)", mode, k < 2 ? "Step" : "QuickStep", last, last_num);
                CHECK(fabs(dBodyGetLinearVel(b)[2]) < 1e-3, "mode %d, %s: the row below nub still holds (vz = %g)", mode,
                      k < 2 ? "Step" : "QuickStep", dBodyGetLinearVel(b)[2]);
            }
        }
        bounded_nub_row = 0;
        nub_report = 0;
        odexWorldSetSolverMode(w, ODEX_SOLVER_EXACT);
    }

    dWorldDestroy(w);
    dCloseODE();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
