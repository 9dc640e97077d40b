/* DIFF-TOL rel=0 abs=0 */
/* Joint-generic API with null joints (no constraint rows): world and
 * group creation, attachment (re-attach, (0,b) reversal, detach with
 * (0,0)), body joint lists and their order, dJointGetBody/NumBodies/Type,
 * enable/disable, data, feedback pointers, dConnectingJoint(List),
 * dAreConnected(Excluding), dJointDestroy of grouped joints, body
 * destruction detaching joints, group emptying, world destruction with
 * grouped joints. Objects are printed as indices, never addresses. */
#include <ode/ode.h>
#include "feedback_sentinel.h"
#include <stdio.h>
#include <stdarg.h>

#define NB 6
#define NJ 10
static dBodyID b[NB];
static dJointID j[NJ];
static int messages;

static void on_message(int num, const char *msg, va_list ap) {
    (void)num; (void)msg; (void)ap;
    messages++;
}

static int bi(dBodyID x) {
    int i;
    if (!x) return -1;
    for (i = 0; i < NB; i++) if (b[i] == x) return i;
    return 99;
}

static int ji(dJointID x) {
    int i;
    if (!x) return -1;
    for (i = 0; i < NJ; i++) if (j[i] == x) return i;
    return 99;
}

static void lists(const char *tag) {
    int i, k;
    printf("%s\n", tag);
    for (i = 0; i < NB; i++) {
        if (!b[i]) continue;
        printf("  b%d joints %d:", i, dBodyGetNumJoints(b[i]));
        for (k = 0; k < dBodyGetNumJoints(b[i]); k++) printf(" j%d", ji(dBodyGetJoint(b[i], k)));
        printf("\n");
    }
    for (i = 0; i < NJ; i++) {
        if (!j[i]) continue;
        printf("  j%d n %d bodies %d %d type %d en %d\n", i, dJointGetNumBodies(j[i]),
               bi(dJointGetBody(j[i], 0)), bi(dJointGetBody(j[i], 1)), (int)dJointGetType(j[i]),
               dJointIsEnabled(j[i]));
    }
}

static void connections(void) {
    int x, y, k, n;
    dJointID out[NJ];
    for (x = -1; x < NB; x++) {
        for (y = -1; y < NB; y++) {
            dBodyID p = x < 0 ? 0 : b[x], q = y < 0 ? 0 : b[y];
            if ((x >= 0 && !p) || (y >= 0 && !q) || (!p && !q)) continue;
            printf("  conn %d %d: j%d", x, y, ji(dConnectingJoint(p, q)));
            n = dConnectingJointList(p, q, out);
            printf(" list %d:", n);
            for (k = 0; k < n; k++) printf(" j%d", ji(out[k]));
            if (p) printf(" are %d excl-null %d excl-ball %d", dAreConnected(p, q),
                          dAreConnectedExcluding(p, q, dJointTypeNull),
                          dAreConnectedExcluding(p, q, dJointTypeBall));
            printf("\n");
        }
    }
}

int main(void) {
    dWorldID w;
    dJointGroupID g;
    dJointFeedback fb;
    int i, data = 7;

    dInitODE2(0);
    dSetMessageHandler(on_message);
    w = dWorldCreate();
    g = dJointGroupCreate(0);
    for (i = 0; i < NB; i++) b[i] = dBodyCreate(w);
    for (i = 0; i < 6; i++) j[i] = dJointCreateNull(w, 0);
    for (i = 6; i < NJ; i++) j[i] = dJointCreateNull(w, g);
    lists("created");

    dJointAttach(j[0], b[0], b[1]);
    dJointAttach(j[1], b[1], b[2]);
    dJointAttach(j[2], 0, b[1]);
    dJointAttach(j[3], b[2], 0);
    dJointAttach(j[4], b[0], b[1]);
    dJointAttach(j[6], b[3], b[4]);
    dJointAttach(j[7], b[4], b[5]);
    dJointAttach(j[8], 0, b[5]);
    dJointAttach(j[9], b[3], b[5]);
    lists("attached");
    connections();

    /* re-attach, swap, detach */
    dJointAttach(j[0], b[1], b[0]);
    dJointAttach(j[4], 0, b[2]);
    dJointAttach(j[2], 0, 0);
    dJointAttach(j[5], b[0], 0);
    lists("re-attached");
    connections();

    dJointDisable(j[1]);
    dJointSetData(j[1], &data);
    feedback_fill_sentinel(&fb);
    dJointSetFeedback(j[3], &fb);
    printf("disabled %d %d data %d fb %d %d\n", dJointIsEnabled(j[1]), dJointIsEnabled(j[0]),
           dJointGetData(j[1]) == &data, dJointGetFeedback(j[3]) == &fb, dJointGetFeedback(j[1]) == 0);
    dJointEnable(j[1]);
    printf("enabled %d\n", dJointIsEnabled(j[1]));
    printf("body index 2 %d -1 %d\n", bi(dJointGetBody(j[0], 1)), bi(dJointGetBody(j[3], 1)));

    /* grouped joints ignore dJointDestroy */
    dJointDestroy(j[7]);
    lists("grouped destroy ignored");

    dJointDestroy(j[4]);
    j[4] = 0;
    dBodyDestroy(b[1]);
    b[1] = 0;
    lists("body 1 destroyed");
    connections();

    dJointGroupEmpty(g);
    for (i = 6; i < NJ; i++) j[i] = 0;
    lists("group emptied");
    connections();

    /* refill the group, destroy the world: grouped joints survive until
     * the group goes */
    for (i = 6; i < NJ; i++) j[i] = dJointCreateNull(w, g);
    dJointAttach(j[6], b[3], b[4]);
    dJointAttach(j[7], b[5], 0);
    lists("refilled");
    messages = 0;
    dWorldDestroy(w);
    printf("world destroyed, messages %d\n", messages);
    dJointGroupDestroy(g);
    dCloseODE();
    return 0;
}
