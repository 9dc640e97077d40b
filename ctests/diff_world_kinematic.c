/* DIFF-TOL rel=1e-9 abs=1e-12 */
/* Kinematic bodies: moved by their velocities only (gravity, forces and
 * torques have no effect, the gyroscopic term is skipped), force
 * accumulators still cleared by the step; a body switched back to dynamic
 * falls again. Moved callbacks: called once per step for every enabled
 * body, newest first, with the forces not yet cleared; never for a
 * disabled body. Both steppers. */
#include <ode/ode.h>
#include <stdio.h>

static dBodyID b[4];
static const char *tag;

static void moved(dBodyID body)
{
    int i;
    for (i = 0; i < 4; i++) {
        if (b[i] == body) {
            const dReal *p = dBodyGetPosition(body), *f = dBodyGetForce(body), *t = dBodyGetTorque(body);
            printf("%s moved b%d p %.17g %.17g %.17g f %.17g %.17g %.17g t %.17g %.17g %.17g\n", tag, i,
                   p[0], p[1], p[2], f[0], f[1], f[2], t[0], t[1], t[2]);
        }
    }
}

static void run(int quick)
{
    dWorldID w = dWorldCreate();
    dMass m;
    int i, s;
    tag = quick ? "quick" : "step";
    dWorldSetGravity(w, 0, 0, -9.81);
    for (i = 0; i < 4; i++) {
        b[i] = dBodyCreate(w);
        dMassSetBoxTotal(&m, 2.0, 0.5, 1.0, 1.5);
        dBodySetMass(b[i], &m);
        dBodySetMovedCallback(b[i], moved);
    }
    dBodySetKinematic(b[0]);
    dBodySetLinearVel(b[0], 1, -0.5, 0.25);
    dBodySetAngularVel(b[0], 0.5, 2, -1);
    dBodySetKinematic(b[1]);
    dBodySetAngularVel(b[1], 0, 0, 3);
    dBodySetLinearVel(b[2], 0, 1, 0);
    dBodyDisable(b[3]);
    printf("%s kinematic %d %d %d %d\n", tag, dBodyIsKinematic(b[0]), dBodyIsKinematic(b[1]),
           dBodyIsKinematic(b[2]), dBodyIsKinematic(b[3]));

    for (s = 0; s < 200; s++) {
        dBodyAddForce(b[0], 5, 5, 5);
        dBodyAddTorque(b[0], 1, 2, 3);
        dBodyAddTorque(b[2], 0.1, 0, 0);
        dBodyAddForce(b[3], 1, 0, 0);
        if (s == 100) {
            dBodySetDynamic(b[1]);
            printf("%s b1 dynamic again %d\n", tag, dBodyIsKinematic(b[1]));
        }
        if (quick) dWorldQuickStep(w, 0.02); else dWorldStep(w, 0.02);
        if (s < 3 || s % 20 == 19) {
            for (i = 0; i < 4; i++) {
                const dReal *p = dBodyGetPosition(b[i]), *q = dBodyGetQuaternion(b[i]);
                const dReal *v = dBodyGetLinearVel(b[i]), *a = dBodyGetAngularVel(b[i]);
                printf("%s s%d b%d p %.17g %.17g %.17g q %.17g %.17g %.17g %.17g v %.17g %.17g %.17g w %.17g %.17g %.17g\n",
                       tag, s, i, p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], a[0], a[1], a[2]);
            }
        }
    }
    printf("%s disabled force %.17g %.17g %.17g enabled %d\n", tag, dBodyGetForce(b[3])[0],
           dBodyGetForce(b[3])[1], dBodyGetForce(b[3])[2], dBodyIsEnabled(b[3]));
    dWorldDestroy(w);
}

int main(void)
{
    dInitODE2(0);
    run(0);
    run(1);
    dCloseODE();
    return 0;
}
