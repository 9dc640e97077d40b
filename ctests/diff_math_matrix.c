/* DIFF-TOL rel=0 abs=0 */
/* matrix.h and the matrix helpers of misc.h on fixed pseudo-random data.
 * Inputs come from a private generator (not the library's), so only the
 * routines under test differ between runs. Every result is printed with 17
 * significant digits: the traces of ODE and of a faithful re-implementation
 * are identical. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

#define PAD(n) dPAD(n)
#define MAXN 24
#define MAXSKIP 28

static unsigned long long st = 88172645463325252ULL;
static double urand(void) { /* xorshift64, uniform in [-1, 1) */
    st ^= st << 13; st ^= st >> 7; st ^= st << 17;
    return (double)(st >> 11) / 4503599627370496.0 - 1.0;
}

static void pr(const char *label, const dReal *v, int n) {
    printf("%s", label);
    for (int i = 0; i < n; i++) printf(" %.17g", v[i]);
    printf("\n");
}

static void prmat(const char *label, const dReal *a, int rows, int cols, int skip) {
    for (int i = 0; i < rows; i++) {
        printf("%s[%d]", label, i);
        for (int j = 0; j < cols; j++) printf(" %.17g", a[i * skip + j]);
        printf("\n");
    }
}

/* Symmetric positive definite n×n matrix with stride skip: M*M' + n*I. */
static void make_spd(dReal *A, int n, int skip) {
    dReal M[MAXN * MAXN];
    for (int i = 0; i < n * n; i++) M[i] = urand();
    memset(A, 0, sizeof(dReal) * MAXN * MAXSKIP);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = (i == j) ? n : 0;
            for (int k = 0; k < n; k++) s += M[i * n + k] * M[j * n + k];
            A[i * skip + j] = s;
        }
}

int main(void) {
    static dReal A[MAXN * MAXSKIP], B[MAXN * MAXSKIP], C[MAXN * MAXSKIP], L[MAXN * MAXSKIP];
    static dReal d[MAXN], b[MAXN], x[MAXN], a[MAXN];
    char label[64];

    /* dDot over lengths that exercise the 4-wide groups and the tail. */
    for (int n = 0; n <= 13; n++) {
        for (int i = 0; i < n; i++) { a[i] = urand(); b[i] = urand() * 1e3; }
        printf("dot n=%d %.17g\n", n, dDot(a, b, n));
    }

    /* dMultiply0/1/2 on padded matrices of assorted shapes. */
    int shapes[][3] = {{1, 1, 1}, {1, 3, 2}, {3, 3, 3}, {2, 5, 7}, {6, 4, 1}, {5, 9, 6}};
    for (int s = 0; s < 6; s++) {
        int p = shapes[s][0], q = shapes[s][1], r = shapes[s][2];
        for (int i = 0; i < MAXN * MAXSKIP; i++) { B[i] = urand(); C[i] = urand(); A[i] = 0; }
        dMultiply0(A, B, C, p, q, r); sprintf(label, "mul0 %d%d%d", p, q, r); prmat(label, A, p, r, PAD(r));
        dMultiply1(A, B, C, p, q, r); sprintf(label, "mul1 %d%d%d", p, q, r); prmat(label, A, p, r, PAD(r));
        dMultiply2(A, B, C, p, q, r); sprintf(label, "mul2 %d%d%d", p, q, r); prmat(label, A, p, r, PAD(r));
    }

    /* Cholesky family on padded SPD matrices. */
    for (int n = 1; n <= 12; n++) {
        int skip = PAD(n);
        make_spd(A, n, skip);
        for (int i = 0; i < n; i++) b[i] = urand();
        printf("ispd n=%d %d\n", n, dIsPositiveDefinite(A, n));
        memcpy(L, A, sizeof(L));
        int ok = dFactorCholesky(L, n);
        sprintf(label, "chol n=%d ok=%d", n, ok); prmat(label, L, n, n, skip);
        memcpy(x, b, sizeof(x));
        dSolveCholesky(L, x, n);
        sprintf(label, "cholsolve n=%d", n); pr(label, x, n);
        memset(B, 0, sizeof(B));
        ok = dInvertPDMatrix(A, B, n);
        sprintf(label, "inv n=%d ok=%d", n, ok); prmat(label, B, n, skip, skip);
        /* An indefinite matrix fails. */
        A[(n - 1) * skip + (n - 1)] = -50.0;
        printf("ispd-neg n=%d %d\n", n, dIsPositiveDefinite(A, n));
        memcpy(L, A, sizeof(L));
        printf("chol-neg n=%d %d\n", n, dFactorCholesky(L, n));
        printf("inv-neg n=%d %d\n", n, dInvertPDMatrix(A, B, n));
    }

    /* LDLT factor and solves, with padded and wider strides. */
    for (int n = 1; n <= MAXN; n++) {
        for (int wide = 0; wide < 2; wide++) {
            int skip = wide ? n + 3 : PAD(n);
            if (skip > MAXSKIP) skip = MAXSKIP;
            make_spd(A, n, skip);
            memcpy(L, A, sizeof(L));
            dFactorLDLT(L, d, n, skip);
            sprintf(label, "ldlt n=%d s=%d", n, skip);
            for (int i = 0; i < n; i++) {
                printf("%s L[%d]", label, i);
                for (int j = 0; j < i; j++) printf(" %.17g", L[i * skip + j]);
                printf("\n");
            }
            sprintf(label, "ldlt-d n=%d s=%d", n, skip); pr(label, d, n);
            for (int i = 0; i < n; i++) b[i] = urand() * 10;
            memcpy(x, b, sizeof(x)); dSolveL1(L, x, n, skip);
            sprintf(label, "l1 n=%d s=%d", n, skip); pr(label, x, n);
            memcpy(x, b, sizeof(x)); dSolveL1T(L, x, n, skip);
            sprintf(label, "l1t n=%d s=%d", n, skip); pr(label, x, n);
            memcpy(x, b, sizeof(x)); dScaleVector(x, d, n);
            sprintf(label, "scale n=%d", n); pr(label, x, n);
            memcpy(x, b, sizeof(x)); dVectorScale(x, b, n);
            sprintf(label, "vscale n=%d", n); pr(label, x, n);
            memcpy(x, b, sizeof(x)); dSolveLDLT(L, d, x, n, skip);
            sprintf(label, "ldltsolve n=%d s=%d", n, skip); pr(label, x, n);

            /* Rank update of the first row/column. */
            for (int i = 0; i < n; i++) a[i] = urand() * 0.1;
            memcpy(C, L, sizeof(C)); memcpy(x, d, sizeof(x));
            dLDLTAddTL(C, x, a, n, skip);
            sprintf(label, "addtl n=%d s=%d", n, skip); prmat(label, C, n, n, skip);
            sprintf(label, "addtl-d n=%d s=%d", n, skip); pr(label, x, n);
        }
    }

    /* dLDLTRemove: factor a permuted principal submatrix of a larger SPD
     * matrix, then remove each row in turn. */
    for (int n1 = 2; n1 <= 14; n1 += 3) {
        int skip = PAD(n1);
        make_spd(B, n1, skip);
        dReal *rows[MAXN];
        for (int i = 0; i < n1; i++) rows[i] = B + i * skip;
        for (int n2 = 1; n2 <= n1; n2 += 2) {
            int p[MAXN];
            for (int i = 0; i < n2; i++) p[i] = (i * 5 + n1 / 2) % n1;
            /* make p a permutation subset: fix duplicates by linear probing */
            int used[MAXN] = {0};
            for (int i = 0; i < n2; i++) { while (used[p[i]]) p[i] = (p[i] + 1) % n1; used[p[i]] = 1; }
            for (int r = 0; r < n2; r++) {
                memset(L, 0, sizeof(L));
                for (int i = 0; i < n2; i++)
                    for (int j = 0; j < n2; j++) L[i * skip + j] = B[p[i] * skip + p[j]];
                dFactorLDLT(L, d, n2, skip);
                dLDLTRemove(rows, p, L, d, n1, n2, r, skip);
                sprintf(label, "remove n1=%d n2=%d r=%d", n1, n2, r);
                for (int i = 0; i < n2; i++) {
                    printf("%s L[%d]", label, i);
                    for (int j = 0; j < n2; j++) printf(" %.17g", L[i * skip + j]);
                    printf("\n");
                }
                pr(label, d, n2);
            }
        }
    }

    /* dRemoveRowCol on a full matrix. */
    for (int n = 1; n <= 7; n++) {
        for (int r = 0; r < n; r++) {
            int skip = PAD(n) + 1;
            for (int i = 0; i < n * skip; i++) A[i] = i;
            dRemoveRowCol(A, n, skip, r);
            sprintf(label, "rrc n=%d r=%d", n, r); prmat(label, A, n, skip, skip);
        }
    }

    /* misc.h matrix helpers. */
    for (int i = 0; i < MAXN * MAXSKIP; i++) { A[i] = urand(); B[i] = urand(); }
    printf("maxdiff %.17g %.17g %.17g\n", dMaxDifference(A, B, 5, 7), dMaxDifference(A, B, 1, 1), dMaxDifference(A, B, 0, 3));
    printf("maxdifflt %.17g %.17g\n", dMaxDifferenceLowerTriangle(A, B, 6), dMaxDifferenceLowerTriangle(A, B, 1));
    dClearUpperTriangle(A, 6);
    prmat("clearupper", A, 6, 8, 8);
    dSetZero(A, 5); pr("setzero", A, 8);
    dSetValue(A, 3, 2.5); pr("setvalue", A, 8);
    fflush(stdout);
    dPrintMatrix(B, 3, 5, "%10.4f", stdout);
    dPrintMatrix(B, 2, 1, "<%g>", stdout);
    dPrintMatrix(B, 0, 4, "%g", stdout);
    fflush(stdout);
    return 0;
}
