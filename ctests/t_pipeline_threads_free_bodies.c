/* A world of free bodies (no joints) asked to step on two threads steps
 * serially and starts no thread: free bodies are never worth a second
 * thread (see worth_parallel in crates/ode/src/pipeline/parallel.rs), so
 * the step must not pay for the setting (a pool, a plan of every island)
 * either. Once the world has two jointed islands the pool starts (the
 * control that the thread count below sees it), and the trajectory stays
 * the serial one. Self-checking: exit 0, "ok". */
#include <dirent.h>
#include <ode/ode.h>
#include <ode/ode_ext.h>
#include <stdio.h>
#include <string.h>

#define BODIES 200
#define STEPS 20

static int fails;

static void check(int ok, const char *what) {
    if (!ok) {
        printf("FAIL: %s\n", what);
        fails++;
    }
}

/* The process's threads, from /proc/self/task. */
static int thread_count(void) {
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    if (!d) return -1;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

static dWorldID build(dBodyID *b, int threads) {
    dWorldID w = dWorldCreate();
    int i;
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(w, 20);
    odexWorldSetStepThreads(w, threads);
    for (i = 0; i < BODIES; i++) {
        dMass m;
        b[i] = dBodyCreate(w);
        dMassSetBoxTotal(&m, 1 + 0.01 * i, 0.3, 0.4, 0.5);
        dBodySetMass(b[i], &m);
        dBodySetPosition(b[i], 0.5 * (i % 20), 0.5 * (i / 20), 1.0);
        dBodySetAngularVel(b[i], 0.1 * (i % 7), 0.2, -0.3);
    }
    return w;
}

/* Two ball-jointed pairs (two jointed islands) among the free bodies. */
static void join_pairs(dWorldID w, dBodyID *b) {
    int i;
    for (i = 0; i < 4; i += 2) {
        dJointID j = dJointCreateBall(w, 0);
        dJointAttach(j, b[i], b[i + 1]);
        dJointSetBallAnchor(j, 0.25 + 0.5 * i, 0, 1.0);
    }
}

static void run(dWorldID w, dBodyID *b, double *trace) {
    int s, i, k, v = 0;
    dRandSetSeed(7); /* the QuickStep's shuffles draw from dRand */
    for (s = 0; s < STEPS; s++) {
        for (i = 0; i < BODIES; i++) dBodyAddForce(b[i], 0.1 * (i % 3), 0, 0.2);
        if (s % 2) dWorldQuickStep(w, 0.01);
        else dWorldStep(w, 0.01);
        for (i = 0; i < BODIES; i++)
            for (k = 0; k < 3; k++) trace[v++] = dBodyGetPosition(b[i])[k];
    }
}

int main(void) {
    static dBodyID b[BODIES];
    static double serial[STEPS * BODIES * 3], threaded[STEPS * BODIES * 3];
    dWorldID w;
    int before, after;

    dInitODE2(0);
    before = thread_count();
    check(before >= 1, "reading /proc/self/task");

    w = build(b, 2);
    check(odexWorldGetStepThreads(w) == 2, "the world asks for two threads");
    run(w, b, threaded);
    after = thread_count();
    if (after != before) printf("threads before %d, after %d\n", before, after);
    check(after == before, "free bodies on two threads start no thread");
    dWorldDestroy(w);

    w = build(b, 1);
    join_pairs(w, b);
    run(w, b, serial);
    dWorldDestroy(w);
    w = build(b, 2);
    join_pairs(w, b);
    run(w, b, threaded);
    check(thread_count() > before, "two jointed islands on two threads start the pool (control)");
    check(memcmp(serial, threaded, sizeof serial) == 0, "two threads give the serial trajectory");
    dWorldDestroy(w);
    dCloseODE();
    if (fails) return 1;
    printf("ok\n");
    return 0;
}
