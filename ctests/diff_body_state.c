/* DIFF-TOL rel=1e-12 abs=1e-14 */
/* Differential test of the dBody* state functions: every getter, setter and
 * frame conversion on pseudo-random inputs, including non-normalised
 * quaternions and non-orthogonal rotation matrices. Output is compared
 * between Debian's libode.so.8 and ours. Uses only dWorldCreate/Destroy
 * besides dBody*; all inputs are valid (bad input has its own test). */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) { /* xorshift64, uniform in [0,1) */
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static double srand1(double s) { return (2.0 * urand() - 1.0) * s; }

static void pv(const char *label, const dReal *v, int n) {
    printf("%s", label);
    for (int i = 0; i < n; i++) printf(" %.17g", v[i]);
    printf("\n");
}
static void pm(const char *label, const dReal *R) { /* 3x3 of a padded matrix */
    printf("%s", label);
    for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) printf(" %.17g", R[i * 4 + j]);
    printf("\n");
}

static void dump(const char *tag, dBodyID b) {
    printf("== %s\n", tag);
    pv("pos", dBodyGetPosition(b), 3);
    pm("R", dBodyGetRotation(b));
    pv("q", dBodyGetQuaternion(b), 4);
    pv("lvel", dBodyGetLinearVel(b), 3);
    pv("avel", dBodyGetAngularVel(b), 3);
    pv("force", dBodyGetForce(b), 3);
    pv("torque", dBodyGetTorque(b), 3);
    dVector3 v; dMatrix3 R; dQuaternion q;
    memset(v, 0, sizeof v); dBodyCopyPosition(b, v); pv("copypos", v, 3);
    dBodyCopyRotation(b, R); pm("copyR", R);
    dBodyCopyQuaternion(b, q); pv("copyq", q, 4);
    dMass m; dBodyGetMass(b, &m);
    printf("mass %.17g\n", m.mass); pv("massc", m.c, 3); pm("massI", m.I);
    printf("kinematic %d enabled %d gravity %d gyro %d finite %d\n", dBodyIsKinematic(b), dBodyIsEnabled(b),
           dBodyGetGravityMode(b), dBodyGetGyroscopicMode(b), dBodyGetFiniteRotationMode(b));
    dBodyGetFiniteRotationAxis(b, v); pv("finiteaxis", v, 3);
    printf("adis flag %d steps %d time %.17g samples %d lin %.17g ang %.17g\n", dBodyGetAutoDisableFlag(b),
           dBodyGetAutoDisableSteps(b), dBodyGetAutoDisableTime(b), dBodyGetAutoDisableAverageSamplesCount(b),
           dBodyGetAutoDisableLinearThreshold(b), dBodyGetAutoDisableAngularThreshold(b));
    printf("damping %.17g %.17g thresholds %.17g %.17g maxang %.17g\n", dBodyGetLinearDamping(b),
           dBodyGetAngularDamping(b), dBodyGetLinearDampingThreshold(b), dBodyGetAngularDampingThreshold(b),
           dBodyGetMaxAngularSpeed(b));
    printf("joints %d firstgeom %d\n", dBodyGetNumJoints(b), dBodyGetFirstGeom(b) != 0);
}

/* A random rotation matrix from a random unit quaternion. */
static void rand_rot(dReal *R) {
    double a = srand1(1), b = srand1(1), c = srand1(1), d = srand1(1);
    double l = sqrt(a * a + b * b + c * c + d * d);
    a /= l; b /= l; c /= l; d /= l;
    double M[9] = {1 - 2 * (c * c + d * d), 2 * (b * c - a * d), 2 * (b * d + a * c),
                   2 * (b * c + a * d), 1 - 2 * (b * b + d * d), 2 * (c * d - a * b),
                   2 * (b * d - a * c), 2 * (c * d + a * b), 1 - 2 * (b * b + c * c)};
    for (int i = 0; i < 3; i++) { for (int j = 0; j < 3; j++) R[i * 4 + j] = M[i * 3 + j]; R[i * 4 + 3] = 0; }
}

/* A positive definite inertia R diag(d) R^T with zero centre of mass. */
static void rand_mass(dMass *m) {
    memset(m, 0, sizeof *m);
    m->mass = 0.1 + urand() * 10;
    double d[3] = {0.05 + urand(), 0.05 + urand(), 0.05 + urand()};
    dMatrix3 R; rand_rot(R);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++) s += R[i * 4 + k] * d[k] * R[j * 4 + k];
            m->I[i * 4 + j] = s;
        }
    for (int i = 0; i < 3; i++) for (int j = 0; j < i; j++) m->I[i * 4 + j] = m->I[j * 4 + i];
}

int main(void) {
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w);
    printf("world ok %d\n", dBodyGetWorld(b) == w);
    dump("fresh", b);

    /* Orientation from quaternions, some far from unit length. */
    for (int k = 0; k < 40; k++) {
        dQuaternion q = {srand1(1), srand1(1), srand1(1), srand1(1)};
        double s = k % 4 == 0 ? 1e-5 : k % 4 == 1 ? 1e5 : k % 4 == 2 ? 1 : 0.3;
        for (int i = 0; i < 4; i++) q[i] *= s;
        dBodySetQuaternion(b, q);
        pv("setq q", dBodyGetQuaternion(b), 4);
        pm("setq R", dBodyGetRotation(b));
    }
    /* Orientation from matrices: rotations, scaled rows, skewed rows,
     * negative-trace rotations, sign flips. */
    for (int k = 0; k < 60; k++) {
        dMatrix3 R; rand_rot(R);
        switch (k % 6) {
        case 0: break;
        case 1: for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) R[i * 4 + j] *= 0.5 + urand() * 3; break;
        case 2: for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) R[i * 4 + j] += srand1(0.2); break;
        case 3: for (int j = 0; j < 3; j++) R[4 + j] = R[j] * 0.5 + R[4 + j]; break; /* row 1 not orthogonal */
        case 4: for (int j = 0; j < 3; j++) { R[j] *= 3; R[8 + j] = srand1(5); } break;
        case 5: for (int i = 0; i < 3; i++) R[i * 4 + 3] = srand1(9); break; /* garbage padding */
        }
        dBodySetRotation(b, R);
        pm("setR R", dBodyGetRotation(b));
        pv("setR pad", dBodyGetRotation(b) + 3, 1);
        pv("setR q", dBodyGetQuaternion(b), 4);
    }
    {   /* special matrices: identity, 180-degree turns, tiny and huge rows */
        dMatrix3 S[7] = {{1, 0.3, 0, 0, 1, 0.3 + 1e-10, 2e-11, 0, 0, 0, 1, 0}, /* nearly parallel rows */
                         {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, {-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0},
                         {1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0}, {-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0},
                         {1e-200, 0, 0, 0, 0, 1e-200, 1e-201, 0, 0, 0, 1, 0}, {0, 1e150, 0, 0, 1e150, 1, 0, 0, 0, 0, -1, 0}};
        for (int k = 0; k < 7; k++) {
            dBodySetRotation(b, S[k]);
            pm("special R", dBodyGetRotation(b));
            pv("special q", dBodyGetQuaternion(b), 4);
        }
    }

    /* Positions, velocities, forces in every frame, conversions. */
    for (int k = 0; k < 40; k++) {
        dMatrix3 R; rand_rot(R);
        dBodySetRotation(b, R);
        dBodySetPosition(b, srand1(10), srand1(10), srand1(10));
        dBodySetLinearVel(b, srand1(3), srand1(3), srand1(3));
        dBodySetAngularVel(b, srand1(3), srand1(3), srand1(3));
        dBodySetForce(b, srand1(1), srand1(1), srand1(1));
        dBodySetTorque(b, srand1(1), srand1(1), srand1(1));
        dBodyAddForce(b, srand1(5), srand1(5), srand1(5));
        dBodyAddTorque(b, srand1(5), srand1(5), srand1(5));
        dBodyAddRelForce(b, srand1(5), srand1(5), srand1(5));
        dBodyAddRelTorque(b, srand1(5), srand1(5), srand1(5));
        dBodyAddForceAtPos(b, srand1(5), srand1(5), srand1(5), srand1(20), srand1(20), srand1(20));
        dBodyAddForceAtRelPos(b, srand1(5), srand1(5), srand1(5), srand1(2), srand1(2), srand1(2));
        dBodyAddRelForceAtPos(b, srand1(5), srand1(5), srand1(5), srand1(20), srand1(20), srand1(20));
        dBodyAddRelForceAtRelPos(b, srand1(5), srand1(5), srand1(5), srand1(2), srand1(2), srand1(2));
        pv("force", dBodyGetForce(b), 3);
        pv("torque", dBodyGetTorque(b), 3);
        pv("lvel", dBodyGetLinearVel(b), 3);
        pv("avel", dBodyGetAngularVel(b), 3);
        pv("pos", dBodyGetPosition(b), 3);
        dVector3 r = {7, 7, 7, 7}; /* element 3 must stay untouched */
        dBodyGetRelPointPos(b, srand1(4), srand1(4), srand1(4), r); pv("relpointpos", r, 4);
        dBodyGetRelPointVel(b, srand1(4), srand1(4), srand1(4), r); pv("relpointvel", r, 4);
        dBodyGetPointVel(b, srand1(4), srand1(4), srand1(4), r); pv("pointvel", r, 4);
        dBodyGetPosRelPoint(b, srand1(4), srand1(4), srand1(4), r); pv("posrelpoint", r, 4);
        dBodyVectorToWorld(b, srand1(4), srand1(4), srand1(4), r); pv("vectortoworld", r, 4);
        dBodyVectorFromWorld(b, srand1(4), srand1(4), srand1(4), r); pv("vectorfromworld", r, 4);
        /* round trips */
        double p[3] = {srand1(4), srand1(4), srand1(4)};
        dVector3 a, c;
        dBodyGetRelPointPos(b, p[0], p[1], p[2], a);
        dBodyGetPosRelPoint(b, a[0], a[1], a[2], c); pv("roundtrip", c, 3);
    }

    /* Mass, kinematic and dynamic. */
    for (int k = 0; k < 20; k++) {
        dMass m; rand_mass(&m);
        if (k % 5 == 4) m.c[k % 3] = 2e-16; /* within ODE's tolerance */
        dBodySetMass(b, &m);
        dMass g; dBodyGetMass(b, &g);
        printf("mass %.17g kin %d\n", g.mass, dBodyIsKinematic(b)); pv("c", g.c, 4); pv("I", g.I, 12);
        if (k % 3 == 0) {
            dBodySetKinematic(b);
            dBodyGetMass(b, &g);
            printf("kinematic %d mass %.17g\n", dBodyIsKinematic(b), g.mass);
            if (k % 2 == 0) dBodySetDynamic(b); else dBodySetMass(b, &m);
            printf("dynamic again %d\n", dBodyIsKinematic(b));
        }
        dBodySetDynamic(b); /* harmless on a dynamic body */
        printf("still dynamic %d\n", dBodyIsKinematic(b));
    }

    /* Rotation modes, gravity, gyroscopic flag, enabling. */
    for (int k = 0; k < 12; k++) {
        double s = k % 3 == 0 ? 1e-300 : k % 3 == 1 ? 1e300 : 1;
        dBodySetFiniteRotationAxis(b, srand1(s), srand1(s), k == 6 ? 0 : srand1(s));
        dBodySetFiniteRotationMode(b, k % 2 ? 7 : 0);
        dVector3 a = {5, 5, 5, 5}; dBodyGetFiniteRotationAxis(b, a); pv("axis", a, 4);
        printf("mode %d\n", dBodyGetFiniteRotationMode(b));
    }
    dBodySetFiniteRotationAxis(b, 0, 0, 0);
    dBodySetFiniteRotationAxis(b, -0.0, 0, 0);
    { dVector3 a; dBodyGetFiniteRotationAxis(b, a); pv("axis zero", a, 3); }
    dBodySetGravityMode(b, 0); printf("gravity %d\n", dBodyGetGravityMode(b));
    dBodySetGravityMode(b, -3); printf("gravity %d\n", dBodyGetGravityMode(b));
    dBodySetGyroscopicMode(b, 0); printf("gyro %d\n", dBodyGetGyroscopicMode(b));
    dBodySetGyroscopicMode(b, 42); printf("gyro %d\n", dBodyGetGyroscopicMode(b));
    dBodyDisable(b); printf("enabled %d\n", dBodyIsEnabled(b));
    dBodyEnable(b); printf("enabled %d\n", dBodyIsEnabled(b));

    /* Auto-disable and damping settings. */
    for (int k = 0; k < 10; k++) {
        dBodySetAutoDisableFlag(b, k % 2);
        dBodySetAutoDisableLinearThreshold(b, urand());
        dBodySetAutoDisableAngularThreshold(b, urand() * 100);
        dBodySetAutoDisableSteps(b, (int)(urand() * 100));
        dBodySetAutoDisableTime(b, urand() * 3);
        dBodySetAutoDisableAverageSamplesCount(b, (unsigned)(urand() * 20));
        dBodySetLinearDamping(b, k == 3 ? 0 : urand());
        dBodySetAngularDamping(b, urand());
        if (k % 4 == 1) dBodySetDamping(b, urand(), k == 5 ? 0 : urand());
        dBodySetLinearDampingThreshold(b, urand() * 2);
        dBodySetAngularDampingThreshold(b, urand() * 7);
        dBodySetMaxAngularSpeed(b, k % 3 == 0 ? dInfinity : urand() * 50);
        dump("settings", b);
        if (k % 3 == 2) { dBodySetAutoDisableFlag(b, 0); dump("adis off", b); }
        if (k % 4 == 3) { dBodySetAutoDisableDefaults(b); dBodySetDampingDefaults(b); dump("defaults", b); }
    }
    dBodySetAutoDisableAverageSamplesCount(b, 0); printf("samples %d\n", dBodyGetAutoDisableAverageSamplesCount(b));

    /* Data, callbacks, several bodies, destruction order. */
    dBodySetData(b, (void *)&rng);
    printf("data %d\n", dBodyGetData(b) == (void *)&rng);
    dBodySetMovedCallback(b, 0);
    dBodyID bs[8];
    for (int i = 0; i < 8; i++) { bs[i] = dBodyCreate(w); dBodySetPosition(bs[i], i, 2 * i, 3 * i); }
    dBodyDestroy(bs[3]); dBodyDestroy(bs[0]);
    for (int i = 0; i < 8; i++) if (i != 3 && i != 0) { pv("pos", dBodyGetPosition(bs[i]), 3); printf("w %d\n", dBodyGetWorld(bs[i]) == w); }
    dump("body b at end", b);
    dWorldDestroy(w);
    printf("done\n");
    return 0;
}
