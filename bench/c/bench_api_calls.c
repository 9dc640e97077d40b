/* bench_api_calls: the cost of cheap, often-called API functions (pose
 * getters and setters, force accumulation, point transforms, joint
 * parameters), which hosts such as PyODE or a simulator's plugin call per
 * body per frame. 1000 bodies, each with a box geom in a hash space and a
 * hinge to the next; every call is made 2000 times per body. Prints one
 * line per call: name and ns/call. Linked against libode.so.8 by soname:
 * scripts/bench.sh runs it against Debian's library and ours. */
#include <ode/ode.h>
#include <stdio.h>
#include <time.h>

#define N 1000
#define R 2000

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static dBodyID b[N];
static dGeomID g[N];
static dJointID j[N];
static volatile double sink;

#define BENCH(name, ...)                                                        \
    {                                                                           \
        double t0 = now_ms();                                                   \
        for (int r = 0; r < R; r++)                                             \
            for (int i = 0; i < N; i++) {                                       \
                __VA_ARGS__;                                                    \
            }                                                                   \
        printf("%-26s %7.2f\n", name, (now_ms() - t0) * 1e6 / ((double)R * N)); \
    }

int main(void) {
    dInitODE2(0);
    dWorldID w = dWorldCreate();
    dSpaceID sp = dHashSpaceCreate(0);
    for (int i = 0; i < N; i++) {
        b[i] = dBodyCreate(w);
        dBodySetPosition(b[i], i, 0, 0);
        g[i] = dCreateBox(sp, 1, 1, 1);
        dGeomSetBody(g[i], b[i]);
    }
    for (int i = 0; i < N; i++) {
        j[i] = dJointCreateHinge(w, 0);
        dJointAttach(j[i], b[i], b[(i + 1) % N]);
        dJointSetHingeAxis(j[i], 0, 0, 1);
        dJointSetHingeAnchor(j[i], i, 0, 0);
    }
    dVector3 v;
    dMass m;
    dQuaternion q = {1, 0, 0, 0};
    BENCH("dBodyGetPosition", sink += dBodyGetPosition(b[i])[0])
    BENCH("dBodyGetRotation", sink += dBodyGetRotation(b[i])[1])
    BENCH("dBodyGetLinearVel", sink += dBodyGetLinearVel(b[i])[1])
    BENCH("dBodySetLinearVel", dBodySetLinearVel(b[i], 0.1, 0.2, 0.3))
    BENCH("dBodySetPosition", dBodySetPosition(b[i], i, 0.2, 0.3))
    BENCH("dBodySetQuaternion", dBodySetQuaternion(b[i], q))
    BENCH("dBodyAddForce", dBodyAddForce(b[i], 0.1, 0.2, 0.05))
    BENCH("dBodyAddRelTorque", dBodyAddRelTorque(b[i], 0.01, 0.02, 0))
    BENCH("dBodyAddForceAtPos", dBodyAddForceAtPos(b[i], 0.1, 0.2, 0.3, i, 0, 0))
    BENCH("dBodyGetRelPointPos", dBodyGetRelPointPos(b[i], 1, 2, 3, v); sink += v[0])
    BENCH("dBodyVectorToWorld", dBodyVectorToWorld(b[i], 1, 2, 3, v); sink += v[0])
    BENCH("dBodyGetMass", dBodyGetMass(b[i], &m); sink += m.mass)
    BENCH("dGeomGetPosition", sink += dGeomGetPosition(g[i])[0])
    BENCH("dGeomGetRotation", sink += dGeomGetRotation(g[i])[0])
    BENCH("dGeomGetAABB", dReal a[6]; dGeomGetAABB(g[i], a); sink += a[0])
    BENCH("dJointGetHingeAngle", sink += dJointGetHingeAngle(j[i]))
    BENCH("dJointGetHingeAngleRate", sink += dJointGetHingeAngleRate(j[i]))
    BENCH("dJointSetHingeParam", dJointSetHingeParam(j[i], dParamVel, 0.5))
    BENCH("dJointAddHingeTorque", dJointAddHingeTorque(j[i], 0.01))
    BENCH("dJointGetHingeAnchor", dJointGetHingeAnchor(j[i], v); sink += v[0])
    dSpaceDestroy(sp);
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
