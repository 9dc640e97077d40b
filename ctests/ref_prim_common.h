/* Shared driver of the ref_prim_*.c programs: random placements of two
 * primitive geoms, collided with dCollide for several flag values, printed
 * with full precision so tests/collide_prim_*.rs can replay them through
 * the pure Rust colliders. Run against Debian's libode.so.8 only.
 *
 * Output, one placement:
 *   P <pair> <a: 4 shape params> <a: pos[3] R[12]> <b: 4 params> <b: pos[3] R[12]>
 * then for each flag value:
 *   F <flags> <count> { pos[3] normal[3] depth side1 side2 g1_is_a g2_is_b } * count
 * Shape params: sphere (r,0,0,0), box (lx,ly,lz,0), capsule (r,len,0,0),
 * plane (a,b,c,d as stored, pose all zero), ray (length, first_contact,
 * backface_cull, closest_hit).
 */
#include <ode/ode.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#ifndef CONTACTS_UNIMPORTANT
#define CONTACTS_UNIMPORTANT 0x80000000
#endif

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static inline uint64_t rng_next(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* Uniform in [lo, hi). */
static inline double urand(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng_next() >> 11) * (1.0 / 9007199254740992.0));
}

static inline int irand(int n) { return (int)(rng_next() % (uint64_t)n); }

static inline void rand_unit(double v[3])
{
    double l;
    do {
        v[0] = urand(-1, 1); v[1] = urand(-1, 1); v[2] = urand(-1, 1);
        l = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    } while (l < 1e-4 || l > 1);
    l = sqrt(l);
    v[0] /= l; v[1] /= l; v[2] /= l;
}

/* Exact rotations: identity, axis permutations and sign flips. */
static inline void exact_rotation(dMatrix3 R, int which)
{
    static const signed char m[8][9] = {
        {1,0,0, 0,1,0, 0,0,1},
        {0,-1,0, 1,0,0, 0,0,1},   /* 90 deg about z */
        {1,0,0, 0,0,-1, 0,1,0},   /* 90 deg about x */
        {0,0,1, 0,1,0, -1,0,0},   /* 90 deg about y */
        {1,0,0, 0,-1,0, 0,0,-1},  /* 180 deg about x */
        {0,0,1, 1,0,0, 0,1,0},    /* cyclic permutation */
        {-1,0,0, 0,-1,0, 0,0,1},  /* 180 deg about z */
        {0,1,0, 0,0,1, 1,0,0},
    };
    int i, j;
    memset(R, 0, sizeof(dMatrix3));
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) R[i * 4 + j] = m[which & 7][i * 3 + j];
}

/* Random rotation: mostly random quaternions, sometimes exact ones or a
 * rotation about a single coordinate axis (parallel faces/axes). */
static inline void rand_rotation(dMatrix3 R)
{
    int k = irand(10);
    if (k == 0) { exact_rotation(R, irand(8)); return; }
    if (k == 1) {
        double ax[3] = {0, 0, 0};
        ax[irand(3)] = 1;
        dRFromAxisAndAngle(R, ax[0], ax[1], ax[2], urand(-M_PI, M_PI));
        return;
    }
    dQuaternion q;
    double l;
    do {
        q[0] = urand(-1, 1); q[1] = urand(-1, 1); q[2] = urand(-1, 1); q[3] = urand(-1, 1);
        l = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    } while (l < 1e-3 || l > 1);
    l = sqrt(l);
    q[0] /= l; q[1] /= l; q[2] /= l; q[3] /= l;
    dQtoR(q, R);
}

static inline void place(dGeomID g, const double p[3], const dMatrix3 R)
{
    dGeomSetPosition(g, p[0], p[1], p[2]);
    dGeomSetRotation(g, R);
}

static inline void print_geom(dGeomID g)
{
    int i;
    double par[4] = {0, 0, 0, 0};
    int cls = dGeomGetClass(g);
    switch (cls) {
    case dSphereClass: par[0] = dGeomSphereGetRadius(g); break;
    case dBoxClass: { dVector3 s; dGeomBoxGetLengths(g, s); par[0] = s[0]; par[1] = s[1]; par[2] = s[2]; break; }
    case dCapsuleClass: { dReal r, l; dGeomCapsuleGetParams(g, &r, &l); par[0] = r; par[1] = l; break; }
    case dPlaneClass: { dVector4 p; dGeomPlaneGetParams(g, p); for (i = 0; i < 4; i++) par[i] = p[i]; break; }
    case dRayClass: {
        par[0] = dGeomRayGetLength(g);
        par[1] = dGeomRayGetFirstContact(g);
        par[2] = dGeomRayGetBackfaceCull(g);
        par[3] = dGeomRayGetClosestHit(g);
        break;
    }
    }
    for (i = 0; i < 4; i++) printf(" %.17g", par[i]);
    if (cls == dPlaneClass) {
        for (i = 0; i < 15; i++) printf(" 0");
    } else {
        const dReal *p = dGeomGetPosition(g);
        const dReal *R = dGeomGetRotation(g);
        for (i = 0; i < 3; i++) printf(" %.17g", p[i]);
        for (i = 0; i < 12; i++) printf(" %.17g", R[i]);
    }
}

/* Collides a with b for each flag value and prints the results. */
static inline void run_case(const char *pair, dGeomID a, dGeomID b, const int *flags, int nflags)
{
    dContactGeom c[16];
    int f, i, j;
    printf("P %s", pair);
    print_geom(a);
    print_geom(b);
    printf("\n");
    for (f = 0; f < nflags; f++) {
        int n;
        memset(c, 0, sizeof(c));
        n = dCollide(a, b, flags[f], c, sizeof(dContactGeom));
        printf("F %d %d", flags[f], n);
        for (i = 0; i < n; i++) {
            for (j = 0; j < 3; j++) printf(" %.17g", c[i].pos[j]);
            for (j = 0; j < 3; j++) printf(" %.17g", c[i].normal[j]);
            printf(" %.17g %d %d %d %d", c[i].depth, c[i].side1, c[i].side2, c[i].g1 == a, c[i].g2 == b);
        }
        printf("\n");
    }
}

static const int std_flags[] = {1, 2, 4, (int)(4 | CONTACTS_UNIMPORTANT)};
#define N_STD_FLAGS 4

/* A point near the origin-centred region of half-size `h` (scaled by s). */
static inline void rand_offset(double out[3], const double h[3], double s)
{
    int i;
    for (i = 0; i < 3; i++) out[i] = urand(-s * h[i], s * h[i]);
}

/* out = p + R * v */
static inline void local_to_world(double out[3], const double p[3], const dMatrix3 R, const double v[3])
{
    int i;
    for (i = 0; i < 3; i++) out[i] = p[i] + R[i * 4] * v[0] + R[i * 4 + 1] * v[1] + R[i * 4 + 2] * v[2];
}
