/* The hash space tests' pair printing: each geom is named by its index in
 * `geoms`, the order the test created it in, so the printed pairs compare
 * between libraries whatever the handles' addresses. */
#ifndef SPACE_PAIR_PRINT_H
#define SPACE_PAIR_PRINT_H

#include <ode/ode.h>
#include <stdio.h>

#ifndef PAIR_PRINT_MAX_GEOMS
#define PAIR_PRINT_MAX_GEOMS 1024
#endif

static dGeomID geoms[PAIR_PRINT_MAX_GEOMS];
static int ngeoms;

static inline int index_of(dGeomID g)
{
    int i;
    for (i = 0; i < ngeoms; i++)
        if (geoms[i] == g) return i;
    return -1;
}

/* Near callback: prints " (a,b:n)", n the contacts dCollide finds (at
 * most 4). */
static inline void print_pair_contacts(void *data, dGeomID a, dGeomID b)
{
    dContactGeom c[4];
    int n = dCollide(a, b, 4, c, sizeof(dContactGeom));
    (void)data;
    printf(" (%d,%d:%d)", index_of(a), index_of(b), n);
}

/* Near callback: prints " (a,b)". */
static inline void print_pair(void *data, dGeomID a, dGeomID b)
{
    (void)data;
    printf(" (%d,%d)", index_of(a), index_of(b));
}

#endif
