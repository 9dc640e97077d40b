/* Runs every inline helper of odemath.h on pseudo-random data and prints
 * the results as hexadecimal floats: built once against ODE's headers and
 * once against ours, the outputs must be identical to the last bit. */
#include <ode/ode.h>
#include <stdio.h>

static unsigned long long state = 0x2545F4914F6CDD1DULL;

static dReal rnd(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (dReal)((long long)(state >> 11) - (1LL << 52)) / (dReal)(1LL << 50);
}

static void fill(dReal *v, int n)
{
    int i;
    for (i = 0; i < n; ++i) v[i] = rnd();
}

static void show(const char *what, const dReal *v, int n)
{
    int i;
    printf("%s", what);
    for (i = 0; i < n; ++i) printf(" %a", v[i]);
    printf("\n");
}

int main(void)
{
    int round;
    for (round = 0; round < 200; ++round) {
        dReal a[16], b[16], c[16], r[16], s;
        fill(a, 16); fill(b, 16); fill(c, 16); fill(r, 16);
        s = rnd();

        dZeroVector3(r); show("zero3", r, 4);
        dAssignVector3(r, a[0], a[1], a[2]); show("assign3", r, 4);
        fill(r, 16); dZeroMatrix3(r); show("zeroM3", r, 12);
        fill(r, 16); dZeroMatrix4(r); show("zeroM4", r, 16);
        dAddVectors3(r, a, b); show("add", r, 3);
        dSubtractVectors3(r, a, b); show("sub", r, 3);
        dAddVectorScaledVector3(r, a, b, s); show("addscaled", r, 3);
        dAddScaledVectors3(r, a, b, s, c[0]); show("addscaled2", r, 3);
        dAddThreeScaledVectors3(r, a, b, c, s, c[1], c[2]); show("addscaled3", r, 3);
        dCopyVector3(r, a); dScaleVector3(r, s); show("scale", r, 3);
        dNegateVector3(r); show("negate", r, 3);
        dCopyScaledVector3(r, b, s); show("copyscaled", r, 3);
        dCopyNegatedVector3(r, b); show("copyneg", r, 3);
        fill(r, 16); dCopyVector4(r, a); show("copy4", r, 4);
        fill(r, 16); dCopyMatrix4x4(r, a); show("copyM44", r, 16);
        fill(r, 16); dCopyMatrix4x3(r, a); show("copyM43", r, 16);
        dGetMatrixColumn3(r, a, round % 3); show("column", r, 3);
        r[0] = dCalcVectorLength3(a); r[1] = dCalcVectorLengthSquare3(a);
        r[2] = dCalcPointDepth3(a, b, c); r[3] = dCalcPointsDistance3(a, b);
        show("lengths", r, 4);
        r[0] = dCalcVectorDot3(a, b); r[1] = dCalcVectorDot3_13(a, b); r[2] = dCalcVectorDot3_31(a, b);
        r[3] = dCalcVectorDot3_33(a, b); r[4] = dCalcVectorDot3_14(a, b); r[5] = dCalcVectorDot3_41(a, b);
        r[6] = dCalcVectorDot3_44(a, b);
        show("dots", r, 7);
        fill(r, 16); dCalcVectorCross3(r, a, b); show("cross", r, 12);
        fill(r, 16); dCalcVectorCross3_114(r, a, b); show("cross114", r, 12);
        fill(r, 16); dCalcVectorCross3_141(r, a, b); show("cross141", r, 12);
        fill(r, 16); dCalcVectorCross3_144(r, a, b); show("cross144", r, 12);
        fill(r, 16); dCalcVectorCross3_411(r, a, b); show("cross411", r, 12);
        fill(r, 16); dCalcVectorCross3_414(r, a, b); show("cross414", r, 12);
        fill(r, 16); dCalcVectorCross3_441(r, a, b); show("cross441", r, 12);
        fill(r, 16); dCalcVectorCross3_444(r, a, b); show("cross444", r, 12);
        dCopyVector3(r, c); dAddVectorCross3(r, a, b); show("addcross", r, 3);
        dCopyVector3(r, c); dSubtractVectorCross3(r, a, b); show("subcross", r, 3);
        fill(r, 16); dSetCrossMatrixPlus(r, a, 4); show("crossplus", r, 12);
        fill(r, 16); dSetCrossMatrixMinus(r, a, 4); show("crossminus", r, 12);
        dMultiply0_331(r, a, b); show("m0_331", r, 3);
        dMultiply1_331(r, a, b); show("m1_331", r, 3);
        dMultiply0_133(r, a, b); show("m0_133", r, 3);
        fill(r, 16); dMultiply0_333(r, a, b); show("m0_333", r, 12);
        fill(r, 16); dMultiply1_333(r, a, b); show("m1_333", r, 12);
        fill(r, 16); dMultiply2_333(r, a, b); show("m2_333", r, 12);
        dCopyVector3(r, c); dMultiplyAdd0_331(r, a, b); show("ma0_331", r, 3);
        dCopyVector3(r, c); dMultiplyAdd1_331(r, a, b); show("ma1_331", r, 3);
        dCopyVector3(r, c); dMultiplyAdd0_133(r, a, b); show("ma0_133", r, 3);
        dCopyMatrix4x4(r, c); dMultiplyAdd0_333(r, a, b); show("ma0_333", r, 12);
        dCopyMatrix4x4(r, c); dMultiplyAdd1_333(r, a, b); show("ma1_333", r, 12);
        dCopyMatrix4x4(r, c); dMultiplyAdd2_333(r, a, b); show("ma2_333", r, 12);
        r[0] = dCalcMatrix3Det(a); show("det", r, 1);
        fill(r, 16); r[15] = dInvertMatrix3(r, a); show("inv", r, 16);
        r[0] = dMin(a[0], b[0]); r[1] = dMax(a[0], b[0]); show("minmax", r, 2);
        /* legacy macros */
        dOP(r, +, a, b); show("dOP", r, 3);
        dOPC(r, *, a, s); show("dOPC", r, 3);
        dOPE(r, -=, b); show("dOPE", r, 3);
        dOPEC(r, *=, s); show("dOPEC", r, 3);
        dOPE2(r, =, a, -, b); show("dOPE2", r, 3);
        fill(r, 16); dCROSS(r, =, a, b); show("dCROSS", r, 3);
        fill(r, 16); dCROSS144(r, +=, a, b); show("dCROSS144", r, 12);
        fill(r, 16); dCROSS441(r, -=, a, b); show("dCROSS441", r, 12);
        fill(r, 16); dCROSSMAT(r, a, 4, +, -); show("dCROSSMAT", r, 12);
        r[0] = dDOT(a, b); r[1] = dDOT41(a, b); r[2] = dLENGTH(a); r[3] = dDISTANCE(a, b);
        show("legacy", r, 4);
        /* (dVALIDVEC3 and friends are left out: ODE's header maps dIsNan to
         * _isnan, which glibc does not have.) */
        r[0] = dACCESS33(a, 1, 2); r[1] = dPAD(round % 9);
        show("access", r, 2);
        r[0] = dRecip(s); r[1] = dSqrt(dFabs(s)); r[2] = dRecipSqrt(dFabs(s) + 1); r[3] = dAtan2(s, a[0]);
        show("scalar", r, 4);
    }
    return 0;
}
