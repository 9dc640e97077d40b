/* DIFF-TOL rel=0 abs=0 */
/* Every joint type stepped before any anchor, axis or parameter is set,
 * with both steppers: attached to two bodies, to one body (body 2 = the
 * static environment) and reversed (body 1 = the environment). The joints
 * run on ODE's constructor defaults, which must give Debian's trajectory
 * bit for bit. Left out are the cases Debian aborts on: the double hinge
 * (its zero default axis turns the bodies NaN; see
 * t_joint_defaults_finite.c) and hinge2/transmission attached to one body
 * (refused by dJointAttach). Prints positions, quaternions and velocities
 * every 10 steps. */
#include <ode/ode.h>
#include <stdio.h>

static const char *names[] = {"none", "ball", "hinge", "slider", "contact", "universal", "hinge2", "fixed",
                              "null", "amotor", "lmotor", "plane2d", "pr", "pu", "piston", "dball", "dhinge",
                              "transmission"};

static dJointID create(dWorldID w, int type)
{
    switch (type) {
    case dJointTypeBall: return dJointCreateBall(w, 0);
    case dJointTypeHinge: return dJointCreateHinge(w, 0);
    case dJointTypeSlider: return dJointCreateSlider(w, 0);
    case dJointTypeUniversal: return dJointCreateUniversal(w, 0);
    case dJointTypeHinge2: return dJointCreateHinge2(w, 0);
    case dJointTypeFixed: return dJointCreateFixed(w, 0);
    case dJointTypeNull: return dJointCreateNull(w, 0);
    case dJointTypeAMotor: return dJointCreateAMotor(w, 0);
    case dJointTypeLMotor: return dJointCreateLMotor(w, 0);
    case dJointTypePlane2D: return dJointCreatePlane2D(w, 0);
    case dJointTypePR: return dJointCreatePR(w, 0);
    case dJointTypePU: return dJointCreatePU(w, 0);
    case dJointTypePiston: return dJointCreatePiston(w, 0);
    case dJointTypeDBall: return dJointCreateDBall(w, 0);
    case dJointTypeTransmission: return dJointCreateTransmission(w, 0);
    }
    return 0;
}

static void print_body(const char *tag, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *a = dBodyGetAngularVel(b);
    printf(" %s %.17g %.17g %.17g  %.17g %.17g %.17g %.17g  %.17g %.17g %.17g  %.17g %.17g %.17g", tag, p[0], p[1],
           p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], a[0], a[1], a[2]);
}

static void run(int type, int quick, int attach)
{
    dWorldID w = dWorldCreate();
    dBodyID a, b;
    dMass m;
    dQuaternion q;
    dJointID j;
    int i;
    dWorldSetGravity(w, 0, 0, -9.81);
    a = dBodyCreate(w);
    b = dBodyCreate(w);
    dMassSetBox(&m, 1, 1, 0.5, 0.3);
    dBodySetMass(a, &m);
    dMassSetBox(&m, 2, 0.4, 0.5, 0.6);
    dBodySetMass(b, &m);
    dBodySetPosition(a, 0.1, 0.2, 1);
    dBodySetPosition(b, 1.1, -0.3, 1.4);
    dQFromAxisAndAngle(q, 0.3, 1, -0.4, 0.7);
    dBodySetQuaternion(a, q);
    dQFromAxisAndAngle(q, -1, 0.2, 0.5, 1.1);
    dBodySetQuaternion(b, q);
    dBodySetLinearVel(a, 0.3, 0, 0.1);
    dBodySetAngularVel(a, -0.1, 0.4, 0.2);
    dBodySetLinearVel(b, -0.2, 0.1, 0.3);
    dBodySetAngularVel(b, 0.2, -0.5, 0.3);
    j = create(w, type);
    if (attach == 0)
        dJointAttach(j, a, b);
    else if (attach == 1)
        dJointAttach(j, a, 0);
    else
        dJointAttach(j, 0, b);
    for (i = 1; i <= 60; i++) {
        if (quick)
            dWorldQuickStep(w, 0.01);
        else
            dWorldStep(w, 0.01);
        if (i % 10 == 0) {
            printf("%s %s attach%d step%d", names[type], quick ? "quick" : "step", attach, i);
            print_body("a", a);
            print_body("b", b);
            printf("\n");
        }
    }
    dWorldDestroy(w);
}

int main(void)
{
    int type, quick, attach;
    dInitODE2(0);
    dRandSetSeed(1);
    for (type = dJointTypeBall; type <= dJointTypeTransmission; type++) {
        if (type == dJointTypeContact || type == dJointTypeDHinge)
            continue;
        for (quick = 0; quick < 2; quick++)
            for (attach = 0; attach < 3; attach++) {
                if (attach && (type == dJointTypeHinge2 || type == dJointTypeTransmission))
                    continue;
                run(type, quick, attach);
            }
    }
    dCloseODE();
    return 0;
}
