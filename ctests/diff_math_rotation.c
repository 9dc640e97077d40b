/* DIFF-TOL rel=0 abs=0 */
/* Every function of rotation.h and the exported functions of odemath.h on
 * pseudo-random inputs; the trace must be bit-identical to ODE's. */
#include <ode/ode.h>
#include <stdio.h>

static unsigned long long state = 88172645463325252ULL;
static double rnd(void) { /* xorshift64, in [-1, 1) */
    state ^= state << 13; state ^= state >> 7; state ^= state << 17;
    return (double)(state >> 11) / 4503599627370496.0 - 1.0;
}
static void pv(const char *l, const dReal *v, int n) {
    printf("%s", l);
    for (int i = 0; i < n; i++) printf(" %.17g", v[i]);
    printf("\n");
}

int main(void) {
    for (int it = 0; it < 300; it++) {
        dMatrix3 R; dQuaternion q, q2, q3; dVector3 v, p, qq; dVector4 v4; dReal dq[4];
        double s = (it % 3 == 0) ? 1e-3 : (it % 3 == 1 ? 1.0 : 1e3);
        double ax = rnd() * s, ay = rnd() * s, az = rnd() * s, ang = rnd() * 7;
        dRSetIdentity(R); pv("RSetIdentity", R, 12);
        dRFromAxisAndAngle(R, ax, ay, az, ang); pv("RFromAxisAndAngle", R, 12);
        dRFromEulerAngles(R, rnd() * 4, rnd() * 4, rnd() * 4); pv("RFromEulerAngles", R, 12);
        dRFrom2Axes(R, ax, ay, az, rnd(), rnd(), rnd()); pv("RFrom2Axes", R, 12);
        dRFromZAxis(R, ax, ay, az); pv("RFromZAxis", R, 12);
        dQSetIdentity(q); pv("QSetIdentity", q, 4);
        dQFromAxisAndAngle(q, ax, ay, az, ang); pv("QFromAxisAndAngle", q, 4);
        dQFromAxisAndAngle(q2, rnd(), rnd(), rnd(), rnd() * 7);
        dQMultiply0(q3, q, q2); pv("QMultiply0", q3, 4);
        dQMultiply1(q3, q, q2); pv("QMultiply1", q3, 4);
        dQMultiply2(q3, q, q2); pv("QMultiply2", q3, 4);
        dQMultiply3(q3, q, q2); pv("QMultiply3", q3, 4);
        dRfromQ(R, q3); pv("RfromQ", R, 12);
        dQfromR(q2, R); pv("QfromR", q2, 4);
        /* matrices that take each branch of dQfromR */
        dRFromAxisAndAngle(R, (it & 1) ? 1 : 0.1, (it & 2) ? 1 : 0.1, (it & 4) ? 1 : 0.1, 2.5 + rnd() * 0.6);
        dQfromR(q2, R); pv("QfromR2", q2, 4);
        v[0] = rnd() * 5; v[1] = rnd() * 5; v[2] = rnd() * 5;
        dDQfromW(dq, v, q); pv("DQfromW", dq, 4);
        v[0] = ax; v[1] = ay; v[2] = az; v[3] = 0;
        printf("SafeNormalize3 %d", dSafeNormalize3(v)); pv("", v, 3);
        v[0] = ax; v[1] = ay; v[2] = az;
        dNormalize3(v); pv("Normalize3", v, 3);
        v4[0] = ax; v4[1] = ay; v4[2] = az; v4[3] = ang;
        printf("SafeNormalize4 %d", dSafeNormalize4(v4)); pv("", v4, 4);
        v4[0] = ax; v4[1] = ay; v4[2] = az; v4[3] = ang;
        dNormalize4(v4); pv("Normalize4", v4, 4);
        dPlaneSpace(v, p, qq); pv("PlaneSpace.p", p, 3); pv("PlaneSpace.q", qq, 3);
        dRFromAxisAndAngle(R, ax, ay, az, ang);
        for (int i = 0; i < 12; i++) if ((i & 3) != 3) R[i] += rnd() * 1e-2;
        printf("OrthogonalizeR %d", dOrthogonalizeR(R)); pv("", R, 12);
    }
    /* edge cases with defined results */
    dVector3 z = {0, 0, 0, 0};
    printf("SafeNormalize3.zero %d", dSafeNormalize3(z)); pv("", z, 3);
    dVector4 z4 = {0, 0, 0, 0};
    printf("SafeNormalize4.zero %d", dSafeNormalize4(z4)); pv("", z4, 4);
    dVector3 tiny = {1e-310, -3e-310, 2e-310};
    printf("SafeNormalize3.tiny %d", dSafeNormalize3(tiny)); pv("", tiny, 3);
    dQuaternion q; dQFromAxisAndAngle(q, 0, 0, 0, 1.0); pv("QFromAxisAndAngle.zero", q, 4);
    dMatrix3 R; dRSetIdentity(R); dRFrom2Axes(R, 1, 0, 0, 2, 0, 0); pv("RFrom2Axes.parallel", R, 12);
    dMatrix3 Z = {0}; printf("OrthogonalizeR.zero %d\n", dOrthogonalizeR(Z));
    return 0;
}
