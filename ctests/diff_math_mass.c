/* DIFF-TOL rel=0 abs=0 */
/* Every dMass* function (but the trimesh ones) on fixed and pseudo-random
 * inputs, including dMassCheck's messages (file:line suffix stripped). */
#include <ode/ode.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <math.h>

static unsigned long long st = 0x9E3779B97F4A7C15ULL;
static double urand(void) { /* xorshift64, uniform in [-1, 1) */
    st ^= st << 13; st ^= st >> 7; st ^= st << 17;
    return (double)(st >> 11) / 4503599627370496.0 - 1.0;
}

static void on_message(int num, const char *fmt, va_list ap) {
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    char *cut = strstr(buf, " [");
    if (cut) *cut = 0;
    printf("message %d: %s\n", num, buf);
}

static void pm(const char *label, const dMass *m) {
    printf("%s m=%.17g c=%.17g %.17g %.17g I=", label, m->mass, m->c[0], m->c[1], m->c[2]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) printf(" %.17g", m->I[i * 4 + j]);
    printf("\n");
}

/* A rotation matrix from a unit quaternion (computed here, not by ODE). */
static void rot(dReal *R, double a, double b, double c, double d) {
    double n = sqrt(a * a + b * b + c * c + d * d);
    a /= n; b /= n; c /= n; d /= n;
    memset(R, 0, 12 * sizeof(dReal));
    R[0] = a*a + b*b - c*c - d*d; R[1] = 2*(b*c - a*d);         R[2] = 2*(b*d + a*c);
    R[4] = 2*(b*c + a*d);         R[5] = a*a - b*b + c*c - d*d; R[6] = 2*(c*d - a*b);
    R[8] = 2*(b*d - a*c);         R[9] = 2*(c*d + a*b);         R[10] = a*a - b*b - c*c + d*d;
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    dSetMessageHandler(on_message);
    dMass m, m2;
    dReal R[12];

    dMassSetZero(&m); pm("zero", &m);
    printf("check zero %d\n", dMassCheck(&m));
    dMassSetParameters(&m, 2.5, 0.1, -0.2, 0.3, 1.5, 2.5, 3.5, 0.1, -0.2, 0.05); pm("params", &m);
    printf("check params %d\n", dMassCheck(&m));
    dMassSetParameters(&m, -1, 0, 0, 0, 1, 1, 1, 0, 0, 0); pm("params-neg", &m);
    dMassSetParameters(&m, 1, 0, 0, 0, 1, -1, 1, 0, 0, 0); pm("params-notpd", &m);
    dMassSetParameters(&m, 1, 10, 0, 0, 1, 1, 1, 0, 0, 0); pm("params-com", &m);

    dMassSetSphere(&m, 3.0, 0.7); pm("sphere", &m);
    dMassSetSphereTotal(&m, 4.0, 0.25); pm("spheretotal", &m);
    for (int dir = 1; dir <= 3; dir++) {
        char l[64];
        dMassSetCapsule(&m, 1.3, dir, 0.4, 1.7); sprintf(l, "capsule%d", dir); pm(l, &m);
        dMassSetCapsuleTotal(&m, 5.0, dir, 0.4, 1.7); sprintf(l, "capsuletotal%d", dir); pm(l, &m);
        dMassSetCappedCylinder(&m, 0.9, dir, 0.3, 0.6); sprintf(l, "ccyl%d", dir); pm(l, &m);
        dMassSetCappedCylinderTotal(&m, 2.0, dir, 0.3, 0.6); sprintf(l, "ccyltotal%d", dir); pm(l, &m);
        dMassSetCylinder(&m, 2.2, dir, 0.5, 0.9); sprintf(l, "cyl%d", dir); pm(l, &m);
        dMassSetCylinderTotal(&m, 7.0, dir, 0.5, 0.9); sprintf(l, "cyltotal%d", dir); pm(l, &m);
    }
    dMassSetBox(&m, 1.1, 0.3, 0.7, 1.9); pm("box", &m);
    dMassSetBoxTotal(&m, 3.0, 0.3, 0.7, 1.9); pm("boxtotal", &m);
    dMassSetBoxTotal(&m, 0.0, 1, 1, 1); pm("boxtotal-zero", &m);
    dMassSetSphere(&m, 1.0, 0.0); pm("sphere-r0", &m);

    dMassSetBox(&m, 1.0, 1, 2, 3);
    dMassAdjust(&m, 10.0); pm("adjust", &m);
    dMassTranslate(&m, 0.5, -1.5, 2.0); pm("translate", &m);
    rot(R, 0.9, 0.1, -0.3, 0.2);
    dMassRotate(&m, R); pm("rotate", &m);
    dMassTranslate(&m, -0.25, 0.75, 0.125); pm("translate2", &m);
    dMassSetSphere(&m2, 2.0, 0.5);
    dMassTranslate(&m2, 1, 1, 1);
    dMassAdd(&m, &m2); pm("add", &m);
    dMassAdd(&m, &m); pm("add-self", &m);
    printf("check composite %d\n", dMassCheck(&m));

    /* Pseudo-random sweeps through every operation. */
    for (int k = 0; k < 60; k++) {
        char l[64];
        double r1 = fabs(urand()) + 0.05, r2 = fabs(urand()) * 3 + 0.01, r3 = fabs(urand()) * 2 + 0.01;
        int dir = 1 + k % 3;
        switch (k % 5) {
        case 0: dMassSetBox(&m, r1 * 10, r2, r3, r1); break;
        case 1: dMassSetCapsule(&m, r1 * 10, dir, r2, r3); break;
        case 2: dMassSetCylinderTotal(&m, r1 * 10, dir, r2, r3); break;
        case 3: dMassSetSphere(&m, r1 * 10, r2); break;
        default: dMassSetCappedCylinderTotal(&m, r1, dir, r2, r3); break;
        }
        sprintf(l, "rnd%d set", k); pm(l, &m);
        dMassTranslate(&m, urand() * 3, urand() * 3, urand() * 3);
        sprintf(l, "rnd%d trans", k); pm(l, &m);
        rot(R, urand(), urand(), urand(), urand());
        dMassRotate(&m, R);
        sprintf(l, "rnd%d rot", k); pm(l, &m);
        dMassAdjust(&m, r3 * 4);
        sprintf(l, "rnd%d adj", k); pm(l, &m);
        dMassAdd(&m2, &m);
        sprintf(l, "rnd%d sum", k); pm(l, &m2);
        printf("rnd%d check %d %d\n", k, dMassCheck(&m), dMassCheck(&m2));
    }
    return 0;
}
