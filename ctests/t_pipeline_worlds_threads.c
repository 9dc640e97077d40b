/* Independent worlds stepped concurrently on several host threads, as ODE
 * allows (each thread calls dAllocateODEDataForThread): every world, with
 * its own space, collision and joints, must follow exactly the trajectory
 * it follows when the same worlds are stepped one after another on the
 * main thread. dWorldStep and dWorldQuickStep with 8 iterations (below the
 * first dRand shuffle, so the shared generator is not involved).
 * Argument "default": no per-world implementation (ours copes; Debian's
 * shared default one asserts). Self-checking: exit 0, "all worlds match". */
#include <ode/ode.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define WORLDS 4
#define BODIES 12
#define STEPS 150
#define VALS (STEPS * BODIES * 7)

typedef struct {
    int id;
    dWorldID w;
    dSpaceID space;
    dJointGroupID contacts;
    dThreadingImplementationID impl;
    dBodyID b[BODIES];
    double trace[VALS];
} Sim;

static void near_cb(void *data, dGeomID a, dGeomID b) {
    Sim *sim = (Sim *)data;
    dContact c[4];
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    int i, n;
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    n = dCollide(a, b, 4, &c[0].geom, sizeof(dContact));
    for (i = 0; i < n; i++) {
        c[i].surface.mode = dContactSoftCFM;
        c[i].surface.mu = 0.5;
        c[i].surface.soft_cfm = 1e-5;
        dJointAttach(dJointCreateContact(sim->w, sim->contacts, &c[i]), b1, b2);
    }
}

static int own_impl = 1;

static void run(Sim *s) {
    int i, k, v = 0;
    dMass m;
    s->w = dWorldCreate();
    /* Debian's ODE shares one default step threading implementation among
     * worlds, which is not safe across host threads: give each world its
     * own self-threaded one, as ODE's threading docs ask. */
    s->impl = own_impl ? dThreadingAllocateSelfThreadedImplementation() : NULL;
    if (s->impl) dWorldSetStepThreadingImplementation(s->w, dThreadingImplementationGetFunctions(s->impl), s->impl);
    s->space = dHashSpaceCreate(0);
    s->contacts = dJointGroupCreate(0);
    dWorldSetGravity(s->w, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(s->w, 8);
    dCreatePlane(s->space, 0, 0, 1, 0);
    for (i = 0; i < BODIES; i++) {
        dGeomID g;
        s->b[i] = dBodyCreate(s->w);
        if (i % 2) {
            dMassSetBoxTotal(&m, 1 + 0.1 * i, 0.8, 0.6, 0.5);
            g = dCreateBox(s->space, 0.8, 0.6, 0.5);
        } else {
            dMassSetSphereTotal(&m, 1 + 0.1 * i, 0.35);
            g = dCreateSphere(s->space, 0.35);
        }
        dBodySetMass(s->b[i], &m);
        dGeomSetBody(g, s->b[i]);
        dBodySetPosition(s->b[i], 0.9 * (i % 4) + 0.05 * s->id, 0.9 * (i / 4), 0.5 + 0.4 * i + 0.1 * s->id);
        dBodySetAngularVel(s->b[i], 0.1 * s->id, 0.2, 0.3 * (i % 3));
    }
    for (i = 0; i + 1 < BODIES; i += 3) {
        dJointID j = dJointCreateBall(s->w, 0);
        const dReal *p = dBodyGetPosition(s->b[i]);
        dJointAttach(j, s->b[i], s->b[i + 1]);
        dJointSetBallAnchor(j, p[0], p[1], p[2] + 0.2);
    }
    for (k = 0; k < STEPS; k++) {
        dSpaceCollide(s->space, s, near_cb);
        if ((k / 25 + s->id) % 2)
            dWorldQuickStep(s->w, 0.01);
        else
            dWorldStep(s->w, 0.01);
        dJointGroupEmpty(s->contacts);
        for (i = 0; i < BODIES; i++) {
            const dReal *p = dBodyGetPosition(s->b[i]), *q = dBodyGetQuaternion(s->b[i]);
            memcpy(&s->trace[v], p, 3 * sizeof(double));
            memcpy(&s->trace[v + 3], q, 4 * sizeof(double));
            v += 7;
        }
    }
    dJointGroupDestroy(s->contacts);
    dSpaceDestroy(s->space);
    if (s->impl) {
        dWorldSetStepThreadingImplementation(s->w, NULL, NULL);
        dThreadingFreeImplementation(s->impl);
    }
    dWorldDestroy(s->w);
}

static void *thread_main(void *arg) {
    dAllocateODEDataForThread(dAllocateMaskAll);
    run((Sim *)arg);
    dCleanupODEAllDataForThread();
    return NULL;
}

static Sim serial[WORLDS], threaded[WORLDS];

int main(int argc, char **argv) {
    pthread_t t[WORLDS];
    int i, bad = 0;
    /* "default": worlds keep the default implementation (fine with ours). */
    own_impl = !(argc > 1 && strcmp(argv[1], "default") == 0);
    dInitODE2(0);
    dAllocateODEDataForThread(dAllocateMaskAll);
    for (i = 0; i < WORLDS; i++) {
        serial[i].id = threaded[i].id = i;
        run(&serial[i]);
    }
    for (i = 0; i < WORLDS; i++)
        if (pthread_create(&t[i], NULL, thread_main, &threaded[i]) != 0) return 2;
    for (i = 0; i < WORLDS; i++) pthread_join(t[i], NULL);
    for (i = 0; i < WORLDS; i++) {
        if (memcmp(serial[i].trace, threaded[i].trace, sizeof(serial[i].trace)) != 0) {
            printf("world %d differs from its serial run\n", i);
            bad = 1;
        }
    }
    dCloseODE();
    if (!bad) printf("all worlds match\n");
    return bad;
}
