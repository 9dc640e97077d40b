/* DIFF-TOL rel=0 abs=0 */
/* ODE's random generator: sequences after dRandSetSeed must be identical
 * (the solver's constraint shuffling depends on it). */
#include <ode/ode.h>
#include <stdio.h>
#include <limits.h>

int main(void) {
    printf("testrand %d seed-after %lu\n", dTestRand(), dRandGetSeed());
    unsigned long seeds[] = {0, 1, 12345, 0xffffffffUL, 0x123456789abcdefUL, 4294967296UL};
    for (int s = 0; s < 6; s++) {
        dRandSetSeed(seeds[s]);
        printf("seed %lu get %lu:", seeds[s], dRandGetSeed());
        for (int i = 0; i < 12; i++) printf(" %lu", dRand());
        printf(" get %lu\n", dRandGetSeed());
    }
    int ns[] = {0, 1, 2, 3, 4, 5, 7, 15, 16, 17, 100, 255, 256, 257, 1000, 65535, 65536, 65537,
                1000000, INT_MAX, -1, -2, -5, -100000, INT_MIN};
    dRandSetSeed(777);
    for (int k = 0; k < (int)(sizeof ns / sizeof ns[0]); k++) {
        printf("randint %d:", ns[k]);
        for (int i = 0; i < 40; i++) printf(" %d", dRandInt(ns[k]));
        printf("\n");
    }
    printf("testrand %d seed-kept %lu\n", dTestRand(), dRandGetSeed());
    printf("real:");
    for (int i = 0; i < 20; i++) printf(" %.17g", dRandReal());
    printf("\n");
    dReal v[10];
    dMakeRandomVector(v, 10, 2.5);
    printf("vector:");
    for (int i = 0; i < 10; i++) printf(" %.17g", v[i]);
    printf("\n");
    dReal A[5 * 8];
    for (int i = 0; i < 40; i++) A[i] = -7;
    dMakeRandomMatrix(A, 5, 6, 0.5);
    printf("matrix:");
    for (int i = 0; i < 40; i++) printf(" %.17g", A[i]);
    printf("\n");
    dMakeRandomMatrix(A, 3, 1, 3.0);
    printf("matrix-col:");
    for (int i = 0; i < 4; i++) printf(" %.17g", A[i]);
    printf("\nfinal seed %lu\n", dRandGetSeed());
    return 0;
}
