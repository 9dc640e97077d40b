/* DIFF-TOL rel=0 abs=0 */
/* dBoxBox, dBoxTouchesBox and dClosestLineSegmentPoints on random boxes
 * and segments (parallel, touching and degenerate cases included). The
 * output fields start as markers, so the trace also shows which ones each
 * call writes (dBoxBox writes only pos and depth of each contact). */
#include "ref_prim_common.h"
#include <stdlib.h>

#define MARK 12345.0

static void print_v(const double *v, int n)
{
    int i;
    for (i = 0; i < n; i++) printf(" %.17g", v[i]);
}

static void seg_case(const dVector3 a1, const dVector3 a2, const dVector3 b1, const dVector3 b2)
{
    dVector3 c1 = {MARK, MARK, MARK, MARK}, c2 = {MARK, MARK, MARK, MARK};
    dClosestLineSegmentPoints(a1, a2, b1, b2, c1, c2);
    printf("seg");
    print_v(c1, 4);
    print_v(c2, 4);
    printf("\n");
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1500, k, i, j;
    static const int flags[] = {1, 2, 3, 4, 8, 0, (int)(4 | CONTACTS_UNIMPORTANT), (int)(8 | CONTACTS_UNIMPORTANT)};
    dInitODE2(0);

    for (k = 0; k < n; k++) {
        dVector3 a1 = {0, 0, 0, 0}, a2 = {0, 0, 0, 0}, b1 = {0, 0, 0, 0}, b2 = {0, 0, 0, 0};
        double d[3], l;
        rand_offset(a1, (double[3]){2, 2, 2}, 1);
        rand_offset(a2, (double[3]){2, 2, 2}, 1);
        rand_offset(b1, (double[3]){2, 2, 2}, 1);
        rand_offset(b2, (double[3]){2, 2, 2}, 1);
        switch (k % 6) {
        case 0: /* parallel */
            rand_unit(d); l = urand(-1, 3);
            for (i = 0; i < 3; i++) { a2[i] = a1[i] + d[i]; b2[i] = b1[i] + l * d[i]; }
            break;
        case 1: memcpy(a2, a1, sizeof a2); break;  /* point vs segment */
        case 2: memcpy(a2, a1, sizeof a2); memcpy(b2, b1, sizeof b2); break;
        case 3: memcpy(b1, a2, sizeof b1); break;  /* shared end */
        }
        seg_case(a1, a2, b1, b2);
    }

    for (k = 0; k < n; k++) {
        dMatrix3 R1, R2;
        dVector3 s1, s2, p1, p2, off;
        double h1[3], h2[3];
        for (i = 0; i < 3; i++) { h1[i] = urand(0.05, 1.5); h2[i] = urand(0.05, 1.5); s1[i] = 2 * h1[i]; s2[i] = 2 * h2[i]; }
        s1[3] = s2[3] = 0;
        rand_rotation(R1);
        if (k % 5 == 0) memcpy(R2, R1, sizeof R2); else rand_rotation(R2);
        rand_offset(p1, (double[3]){3, 3, 3}, 1);
        for (i = 0; i < 3; i++) off[i] = h1[i] + h2[i];
        rand_offset(p2, off, 1.1);
        for (i = 0; i < 3; i++) p2[i] += p1[i];
        p1[3] = p2[3] = 0;
        printf("touch %d\n", dBoxTouchesBox(p1, R1, s1, p2, R2, s2));
        for (j = 0; j < 8; j++) {
            dContactGeom c[9];
            dVector3 normal = {MARK, MARK, MARK, MARK};
            dReal depth = MARK;
            int code = -7, m, q;
            for (q = 0; q < 9; q++) {
                for (i = 0; i < 4; i++) { c[q].pos[i] = MARK; c[q].normal[i] = MARK; }
                c[q].depth = MARK; c[q].side1 = c[q].side2 = 99;
            }
            m = dBoxBox(p1, R1, s1, p2, R2, s2, normal, &depth, &code, flags[j], c, sizeof(dContactGeom));
            printf("boxbox %d %d %d", flags[j], m, code);
            print_v(normal, 4);
            printf(" %.17g", depth);
            for (q = 0; q < 9; q++) {
                print_v(c[q].pos, 4);
                print_v(c[q].normal, 4);
                printf(" %.17g %d %d", c[q].depth, c[q].side1, c[q].side2);
            }
            printf("\n");
        }
    }
    dCloseODE();
    return 0;
}
