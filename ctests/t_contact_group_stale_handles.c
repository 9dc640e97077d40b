/* A contact group emptied and refilled every step, as hosts do: the
 * joints of an emptied batch are reported as destroyed when used, and the
 * 256 released last (the batch's first 256, since a group frees newest
 * first) stay reported as destroyed after the next batch of any size has
 * been created, because no cell is reused before 256 later releases. The
 * new joints are live, distinct and attached as asked (each body's joint
 * list holds exactly the new batch, newest first). Runs against OUR library
 * only (ODE does not detect stale handles). Prints "PASS <n>" on success. */
#include <ode/ode.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

#define MAX_BATCH 1200
#define HELD 256

static char last_msg[1024];
static int reports, failures, checks;
static void on_debug(int num, const char *msg, va_list ap) {
    (void)num;
    vsnprintf(last_msg, sizeof last_msg, msg, ap);
    reports++;
}
#define EXPECT(c)                                                              \
    do {                                                                       \
        checks++;                                                              \
        if (!(c)) {                                                            \
            failures++;                                                        \
            if (failures < 20) printf("FAIL line %d: %s\n", __LINE__, #c);     \
        }                                                                      \
    } while (0)

/* Is `j` reported as a destroyed joint (and nothing else happens)? */
static int reported_destroyed(dJointID j) {
    int r0 = reports;
    last_msg[0] = 0;
    int type = dJointGetType(j);
    return type == dJointTypeNone && reports == r0 + 1 && strstr(last_msg, "destroyed") != 0;
}

static int contains(dJointID *list, int n, dJointID j) {
    for (int i = 0; i < n; i++)
        if (list[i] == j) return 1;
    return 0;
}

int main(void) {
    static dJointID batch[MAX_BATCH], old[MAX_BATCH];
    int n = 0, n_old = 0;
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    dWorldID w = dWorldCreate();
    dBodyID b1 = dBodyCreate(w), b2 = dBodyCreate(w);
    dJointGroupID g = dJointGroupCreate(0);
    /* Batch sizes around and below the quarantine, growing and shrinking. */
    static const int sizes[] = {700, 300, 1200, 40, 900, 256, 257, 1000, 600, 600, 5, 800};
    const int steps = (int)(sizeof sizes / sizeof sizes[0]);
    for (int s = 0; s < steps; s++) {
        n = sizes[s];
        for (int k = 0; k < n; k++) {
            dContact c;
            memset(&c, 0, sizeof c);
            c.surface.mode = dContactSoftCFM;
            c.surface.mu = 0.5;
            c.surface.soft_cfm = 1e-5;
            c.geom.pos[0] = k;
            c.geom.normal[2] = 1;
            c.geom.depth = 0.01;
            batch[k] = dJointCreateContact(w, g, &c);
            if (k % 3 == 0)
                dJointAttach(batch[k], 0, b2); /* stored reversed */
            else
                dJointAttach(batch[k], b1, b2);
        }
        EXPECT(reports == 0);
        /* The last batch's first HELD joints (freed last) are still dead,
         * and none of the new joints took their cells. */
        int held = n_old < HELD ? n_old : HELD;
        for (int k = 0; k < held; k++) {
            EXPECT(reported_destroyed(old[k]));
            EXPECT(!contains(batch, n, old[k]));
        }
        reports = 0;
        /* The new batch: live, distinct, attached as asked, newest first
         * in each body's list. */
        int distinct = 1;
        for (int k = 0; k < n && distinct; k++)
            for (int i = 0; i < k; i++)
                if (batch[i] == batch[k]) {
                    distinct = 0;
                    break;
                }
        EXPECT(distinct);
        for (int k = 0; k < n; k++) {
            EXPECT(dJointGetType(batch[k]) == dJointTypeContact);
            EXPECT(dJointGetBody(batch[k], 1) == b2);
            EXPECT(dJointGetBody(batch[k], 0) == (k % 3 == 0 ? 0 : b1));
        }
        int in_b1 = n - (n + 2) / 3;
        EXPECT(dBodyGetNumJoints(b2) == n && dBodyGetNumJoints(b1) == in_b1);
        for (int i = 0; i < n; i++) EXPECT(dBodyGetJoint(b2, i) == batch[n - 1 - i]);
        EXPECT(reports == 0);
        dJointGroupEmpty(g);
        /* Every joint of the batch is now reported as destroyed. */
        for (int k = 0; k < n; k++) EXPECT(reported_destroyed(batch[k]));
        EXPECT(dBodyGetNumJoints(b1) == 0 && dBodyGetNumJoints(b2) == 0);
        reports = 0;
        memcpy(old, batch, (size_t)n * sizeof batch[0]);
        n_old = n;
    }
    dJointGroupDestroy(g);
    /* The group's cells went back to the world's pool: still dead. */
    for (int k = 0; k < n_old; k++) EXPECT(reported_destroyed(old[k]));
    dWorldDestroy(w);
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d checks\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
