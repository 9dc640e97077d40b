/* fuzz_api: a seeded random-call fuzzer of the ODE C API.
 *
 * It drives our libode.so through its real C ABI with random call sequences
 * over every object kind (worlds, bodies, every joint type, joint groups,
 * geoms of every class including trimesh, convex, heightfield, transforms
 * and a user class, the four space kinds, mass helpers, both steppers,
 * collisions with callbacks that misbehave) and feeds them bad input: NULL,
 * destroyed, wrong-kind and foreign handles, NaN, infinities, huge and
 * negative numbers, out-of-range indices and counts.
 *
 * After every call it checks:
 *   crash/hang   each seed runs in a forked child under an alarm;
 *   panic        the library reports a caught Rust panic on the debug
 *                channel as an "internal error" (d_ERR_IASSERT);
 *   silent       an input known to be bad was accepted without a report;
 *   changed      a call that was reported (rejected) changed the observable
 *                state of an object it was given (hashed through getters);
 *   nan          an object's state became NaN/inf after a call whose
 *                inputs were finite; contacts that are not finite;
 *   error        a report on ODE's error channel (dError), which the
 *                library must never raise.
 * Findings are printed with the seed, the call index and the last calls.
 * Usage: see fuzz/README.md or `fuzz_api --help`.
 */
#define _GNU_SOURCE
#include <ode/ode.h>
#include <ode/ode_ext.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------
 * Known-issue exclusions.
 *
 * Inputs that crash the library or are accepted silently today and are
 * being fixed on other branches. While an exclusion is on, the generator
 * keeps away from the input (or does not count the outcome as a finding).
 * Each is a plain 0/1 switch: set it to 0 once the fix is merged, and the
 * fuzzer covers the input again. `--no-exclusions` turns them all off.
 * ---------------------------------------------------------------------- */
static int EXCL_TRANSFORM_CYCLES = 0;   /* crashes: a transform holding a space or itself -> stack overflow */
static int EXCL_CONVEX_BAD_POLYGONS = 0;/* crashes: polygon vertex index >= pointcount -> out-of-bounds read */
static int EXCL_SAP_DISABLED_PAIR = 0;  /* crashes: SAP self-collide after its set of colliding geoms shrank (disabled,
                                           removed, all infinite) reuses stale pairs -> panic; no SAP self-collide */
static int EXCL_TRIMESH_PREPROCESS_UNBUILT = 0; /* crashes: preprocess of never-built trimesh data -> panic */
static int EXCL_SILENT_BAD_VALUES = 0;  /* nanpolicy: unknown joint params, negative counts, NaN in convex/trimesh data,
                                           unknown joint types, bad finite-rotation modes, rand(0), ... accepted silently */
static int EXCL_ODE_NAN_CONTACTS = 0;   /* new, for the lead to decide: NaN bit-identical to Debian's ODE from finite
                                           input: sphere-cylinder with the sphere's centre on the cylinder's axis (NaN
                                           normal); an axis whose components are all subnormal (normalises to NaN) */

/* ------------------------------------------------------------------------ */

#define MAXOBJ 1024
#define RING 48
#define RINGLEN 320

/* K_THRIMPL: a threading implementation (sub 1: multi-threaded); K_POOL: a
 * thread pool. */
enum Kind { K_WORLD, K_BODY, K_JOINT, K_GROUP, K_GEOM, K_TMDATA, K_HFDATA, K_THRIMPL, K_POOL, K_NKINDS };
static const char kind_letter[K_NKINDS] = { 'w', 'b', 'j', 'g', 'e', 't', 'h', 'i', 'p' };
static const int kind_cap[K_NKINDS] = { 3, 24, 40, 4, 40, 4, 4, 3, 2 };

typedef struct {
    void *h;
    int id;       /* serial number, for the trace */
    int kind;
    int alive;
    int sub;      /* joint type, geom class */
    int world;    /* registry index of the world (bodies, joints), -1 else */
    const double *cvx; /* a convex's point array (the library reads the host's) */
    /* heightfield data: width, depth, scale, offset, thickness of the last
     * accepted build (a heightfield geom's AABB and contacts follow them) */
    double hfp[5];
    int has_hfp;
    /* threading: an implementation's shutdown was requested (and not
     * cleared since); the serial id of the implementation a pool's threads
     * were told to serve, until a wait for idle or -1 */
    int thr_shut, thr_serving;
    /* trimesh data: triangles of the last accepted build; the quality of
     * the face normals the data holds (TMN_*); the use flags the host
     * handed in (the data keeps them; NULL: none) and their length */
    int tm_ntri, tm_nq, tm_flags_len;
    const unsigned char *tm_flags;
} Obj;

static Obj objs[MAXOBJ];
static int nobj, serial;

typedef struct {
    const char *name;
    int bad;          /* an input is known bad: a report is required */
    int dontcare;     /* an input is questionable: a report is allowed */
    int nonfinite;    /* some real input was NaN or infinite */
    int excluded;     /* a known issue applies to this call */
    int nested;       /* callbacks may run other API calls inside this one */
    int step;         /* a time step */
    int may_destroy;  /* objects other than the arguments may die */
    int no_change_check; /* a report here is not a rejection (collisions go on after a report) */
    int ode_nan;      /* input on which Debian's ODE itself yields NaN (EXCL_ODE_NAN_CONTACTS) */
    int touched[12];
    int ntouched;
} Call;

static Call cur;

/* options and counters */
static unsigned long long seed_now;
static long call_index, calls_per_seed = 20000;
static int opt_trace, opt_verbose, deep_every = 16;
static long n_calls, n_bad, n_reported, n_unexpected, n_excluded, n_findings, n_contacts;
static int findings_this_seed;

/* reports */
static long rep_uassert, rep_panic, rep_iassert, rep_error, rep_msg, rep_warn, rep_guard, rep_debug_other;
static char last_msg[512];
static int in_probe;

/* ---------------------------------------------------------------- random */
static uint64_t rs;
static uint64_t rnd(void) {
    rs += 0x9E3779B97F4A7C15ull;
    uint64_t z = rs;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int rn(int n) { return n <= 0 ? 0 : (int)(rnd() % (uint64_t)n); }
static int chance(int percent) { return rn(100) < percent; }
static double runi(double a, double b) { return a + (b - a) * ((rnd() >> 11) * (1.0 / 9007199254740992.0)); }

/* A real for an argument: mostly ordinary, sometimes extreme or not finite. */
static double rreal_w(int bad_pct) {
    int r = rn(1000);
    if (r < 600) return runi(-5, 5);
    if (r < 680) { static const double v[] = { 0, 1, -1, 0.5, 2, 10, -0.0 }; return v[rn(7)]; }
    if (r < 740) { static const double v[] = { 1e-300, -1e-300, 4.9e-324, 1e-12, -1e-9, 1e-6 }; return v[rn(6)]; }
    if (r < 820) {
        static const double v[] = { 1e6, -1e6, 1e18, -1e18, 1e300, -1e300, DBL_MAX, -DBL_MAX, 2e297 };
        return v[rn(9)];
    }
    if (r < 1000 - bad_pct * 10) return runi(-100, 100);
    cur.nonfinite = 1;
    if (r < 1000 - bad_pct * 5) { cur.bad = 1; return NAN; }
    cur.dontcare = 1; /* an infinity is meaningful in some places (joint stops) */
    return chance(50) ? INFINITY : -INFINITY;
}
static double rreal(void) { return rreal_w(10); }
/* A real that must be finite by contract: infinity is bad too. */
static double rfin(void) {
    int was = cur.dontcare;
    double v = rreal();
    if (isinf(v)) { cur.bad = 1; cur.dontcare = was; }
    return v;
}
/* A size that ODE asserts non-negative. */
static double rsize(void) {
    int r = rn(100);
    if (r < 80) return runi(0.05, 3);
    if (r < 84) return 0;
    if (r < 88) { cur.bad = 1; return -runi(0.1, 3); }
    return rfin();
}

static int rint_any(void) {
    static const int v[] = { 0, 1, 2, 3, -1, -5, 4, 7, 100, 0x7fffffff, (int)0x80000000, 0xff, 0x300 };
    return chance(70) ? rn(4) : v[rn(13)];
}

/* -------------------------------------------------------------- registry */
static Obj *obj_new(void *h, int kind, int sub, int world) {
    if (!h) return NULL;
    /* An address reused by the library is no longer a stale handle. */
    for (int i = 0; i < nobj; i++)
        if (objs[i].h == h) { objs[i].h = NULL; objs[i].alive = 0; }
    int slot = -1;
    if (nobj < MAXOBJ) slot = nobj++;
    else {
        for (int t = 0; t < 64 && slot < 0; t++) { int i = rn(MAXOBJ); if (!objs[i].alive) slot = i; }
        if (slot < 0) for (int i = 0; i < MAXOBJ; i++) if (!objs[i].alive) { slot = i; break; }
        if (slot < 0) return NULL; /* cannot happen with the caps */
    }
    Obj *o = &objs[slot];
    o->h = h; o->id = serial++; o->kind = kind; o->alive = 1; o->sub = sub; o->world = world; o->cvx = NULL; o->has_hfp = 0;
    o->thr_shut = 0; o->thr_serving = -1;
    o->tm_ntri = 0; o->tm_nq = 0; o->tm_flags_len = 0; o->tm_flags = NULL;
    return o;
}
static int count_live(int kind) {
    int n = 0;
    for (int i = 0; i < nobj; i++) n += objs[i].alive && objs[i].kind == kind;
    return n;
}
static Obj *random_obj(int kind, int alive, int (*filter)(Obj *)) {
    int idx[MAXOBJ], n = 0;
    for (int i = 0; i < nobj; i++)
        if (objs[i].h && objs[i].kind == kind && objs[i].alive == alive && (!filter || filter(&objs[i]))) idx[n++] = i;
    return n ? &objs[idx[rn(n)]] : NULL;
}
static int is_space_obj(Obj *o) { return o->kind == K_GEOM && o->sub >= dFirstSpaceClass && o->sub <= dLastSpaceClass; }
static int is_geom_not_space(Obj *o) { return o->kind == K_GEOM && !is_space_obj(o); }

static void touch(Obj *o) {
    if (!o || !o->alive || cur.ntouched >= 12) return;
    int idx = (int)(o - objs);
    for (int i = 0; i < cur.ntouched; i++) if (cur.touched[i] == idx) return;
    cur.touched[cur.ntouched++] = idx;
}

/* Names for the trace. */
static char namebuf[8][24];
static int namepos;
static const char *N(Obj *o) {
    char *b = namebuf[namepos++ & 7];
    if (!o) return "NULL";
    if (o->kind == K_JOINT || o->kind == K_GEOM) snprintf(b, 24, "%s%c%d/%d", o->alive ? "" : "dead:", kind_letter[o->kind], o->id, o->sub);
    else snprintf(b, 24, "%s%c%d", o->alive ? "" : "dead:", kind_letter[o->kind], o->id);
    return b;
}
static void *H(Obj *o) { return o ? o->h : NULL; }

/* Picks a handle argument of `kind`. `nullok`: NULL is valid here. The
 * result may be NULL, destroyed or of another kind (then the call is bad). */
static Obj *pick_f(int kind, int nullok, int (*filter)(Obj *)) {
    int r = rn(100);
    Obj *o = NULL;
    if (r < 84) {
        o = random_obj(kind, 1, filter);
        if (!o && kind == K_GEOM && filter == is_space_obj) o = NULL;
        if (!o && !nullok) cur.bad = 1;
    } else if (r < 88) {
        if (!nullok) cur.bad = 1;
    } else if (r < 93) {
        o = random_obj(kind, 0, NULL);
        if (!o) { if (!nullok) cur.bad = 1; }
        else cur.bad = 1;
    } else {
        int k = rn(K_NKINDS);
        if (k == kind) k = (k + 1) % K_NKINDS;
        o = random_obj(k, 1, NULL);
        if (o || !nullok) cur.bad = 1;
        if (!o && nullok) return NULL;
    }
    touch(o);
    return o;
}
static Obj *pick(int kind, int nullok) { return pick_f(kind, nullok, NULL); }
/* A space argument: a live non-space geom is the wrong kind. */
static Obj *pick_space(int nullok) {
    if (chance(6)) { Obj *o = random_obj(K_GEOM, 1, is_geom_not_space); if (o) { cur.bad = 1; touch(o); return o; } }
    Obj *o = pick_f(K_GEOM, nullok, is_space_obj);
    return o;
}

/* ------------------------------------------------------------- trace ring */
static char ring[RING][RINGLEN];
static long ring_n;
static void tracef(const char *fmt, ...) {
    char *b = ring[ring_n++ % RING];
    int n = snprintf(b, RINGLEN, "#%ld ", call_index);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b + n, RINGLEN - n, fmt, ap);
    va_end(ap);
    if (opt_trace) { fputs(b, stdout); fputc('\n', stdout); fflush(stdout); }
}
#define TRACE(...) tracef(__VA_ARGS__)
#define G17 "%.17g"

static void dump_ring(int fd) {
    char head[] = "  last calls:\n";
    if (write(fd, head, strlen(head)) < 0) return;
    long from = ring_n > RING ? ring_n - RING : 0;
    for (long i = from; i < ring_n; i++) {
        const char *s = ring[i % RING];
        if (write(fd, "    ", 4) < 0 || write(fd, s, strnlen(s, RINGLEN)) < 0 || write(fd, "\n", 1) < 0) return;
    }
}

static void finding(const char *what, const char *detail) {
    n_findings++;
    findings_this_seed++;
    if (findings_this_seed > 5) return; /* one seed's echo of the same cause */
    printf("FINDING %s: seed %llu call %ld (%s): %s\n", what, seed_now, call_index, cur.name ? cur.name : "?", detail);
    printf("  replay: fuzz_api --seed %llu --calls %ld --trace\n", seed_now, call_index + 1);
    fflush(stdout);
    dump_ring(1);
    fflush(stdout);
}

/* -------------------------------------------------------------- handlers */
static void on_debug(int num, const char *fmt, va_list ap) {
    vsnprintf(last_msg, sizeof last_msg, fmt, ap);
    if (num == d_ERR_UASSERT) rep_uassert++;
    else if (num == d_ERR_IASSERT && strstr(last_msg, "internal error")) rep_panic++;
    else if (num == d_ERR_IASSERT) rep_iassert++;
    else rep_debug_other++;
    if (opt_verbose > 1) printf("    debug %d: %s\n", num, last_msg);
}
static void on_error(int num, const char *fmt, va_list ap) {
    vsnprintf(last_msg, sizeof last_msg, fmt, ap);
    rep_error++;
    if (opt_verbose > 1) printf("    error %d: %s\n", num, last_msg);
}
static void on_message(int num, const char *fmt, va_list ap) {
    char b[512];
    vsnprintf(b, sizeof b, fmt, ap);
    rep_msg++;
    /* A warning: the library reports input ODE accepts but that makes no
     * sense, and proceeds as ODE does (the call is not refused). */
    if (num == d_ERR_UASSERT && !in_probe) rep_warn++;
    /* The step's guard: a body would have left the step non-finite; it
     * was kept finite and its island disabled (README, "Non-finite step
     * results"). Joint getters of that island may read the step's NaN. */
    if (num == d_ERR_IASSERT && !in_probe && strstr(b, "non-finite state")) rep_guard++;
    if (opt_verbose > 1) printf("    message %d: %s\n", num, b);
}

/* ------------------------------------------------------------ state hash */
typedef struct { uint64_t h; int nonfinite, extreme; } Hash;
/* The library's threshold for huge finite values (error::HUGE_INPUT). */
#define HUGE 1e100
static Hash hs;
/* The last call was refused (reported on the debug channel). */
static int last_refused;
/* What is being hashed, to name the first non-finite value of a finding. */
static const char *hctx = "";
static char nf_ctx[160];
static void note_nf(double v) { if (!nf_ctx[0]) snprintf(nf_ctx, sizeof nf_ctx, "%s = %g", hctx, v); }
static void hb(const void *p, size_t n) {
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) { hs.h ^= c[i]; hs.h *= 0x100000001B3ull; }
}
static void hi(long v) { hb(&v, sizeof v); }
static void hp(const void *p) { hb(&p, sizeof p); }
/* A real that must be finite in a sane state. */
static void hd(double v) {
    if (!isfinite(v)) { hs.nonfinite = 1; note_nf(v); }
    /* Values beyond HUGE make the state tainted: the library reports every
     * way in (a setter's warning, a step's warning; README, "Huge finite
     * values"), and what follows from them (overflow to inf or NaN in
     * getters, AABBs, joint rows) is what that report announced. */
    if (fabs(v) > HUGE && isfinite(v)) hs.extreme = 1;
    if (v == 0) v = 0;
    hb(&v, sizeof v);
}
static void hdn(const dReal *v, int n) { if (!v) { hi(-77); return; } for (int i = 0; i < n; i++) hd(v[i]); }
/* A real that may be infinite (stops, AABB of a plane) but not NaN. */
static void hda(double v) { if (isnan(v)) { hs.nonfinite = 1; note_nf(v); } if (fabs(v) > HUGE && isfinite(v)) hs.extreme = 1; if (v == 0) v = 0; hb(&v, sizeof v); }

typedef void (*JV)(dJointID, dVector3);
typedef dReal (*JR)(dJointID);
typedef struct { const char *name; int type; JV fn; } JVEnt;
typedef struct { const char *name; int type; JR fn; } JREnt;
static const JVEnt jv_tab[] = {
#define E(n, t) { #n, t, n }
    E(dJointGetBallAnchor, dJointTypeBall), E(dJointGetBallAnchor2, dJointTypeBall),
    E(dJointGetHingeAnchor, dJointTypeHinge), E(dJointGetHingeAnchor2, dJointTypeHinge), E(dJointGetHingeAxis, dJointTypeHinge),
    E(dJointGetSliderAxis, dJointTypeSlider),
    E(dJointGetHinge2Anchor, dJointTypeHinge2), E(dJointGetHinge2Anchor2, dJointTypeHinge2),
    E(dJointGetHinge2Axis1, dJointTypeHinge2), E(dJointGetHinge2Axis2, dJointTypeHinge2),
    E(dJointGetUniversalAnchor, dJointTypeUniversal), E(dJointGetUniversalAnchor2, dJointTypeUniversal),
    E(dJointGetUniversalAxis1, dJointTypeUniversal), E(dJointGetUniversalAxis2, dJointTypeUniversal),
    E(dJointGetPRAnchor, dJointTypePR), E(dJointGetPRAxis1, dJointTypePR), E(dJointGetPRAxis2, dJointTypePR),
    E(dJointGetPUAnchor, dJointTypePU), E(dJointGetPUAxis1, dJointTypePU), E(dJointGetPUAxis2, dJointTypePU),
    E(dJointGetPUAxis3, dJointTypePU), E(dJointGetPUAxisP, dJointTypePU),
    E(dJointGetPistonAnchor, dJointTypePiston), E(dJointGetPistonAnchor2, dJointTypePiston), E(dJointGetPistonAxis, dJointTypePiston),
    E(dJointGetTransmissionContactPoint1, dJointTypeTransmission), E(dJointGetTransmissionContactPoint2, dJointTypeTransmission),
    E(dJointGetTransmissionAxis1, dJointTypeTransmission), E(dJointGetTransmissionAxis2, dJointTypeTransmission),
    E(dJointGetTransmissionAnchor1, dJointTypeTransmission), E(dJointGetTransmissionAnchor2, dJointTypeTransmission),
    E(dJointGetTransmissionAxis, dJointTypeTransmission),
    E(dJointGetDBallAnchor1, dJointTypeDBall), E(dJointGetDBallAnchor2, dJointTypeDBall),
    E(dJointGetDHingeAxis, dJointTypeDHinge), E(dJointGetDHingeAnchor1, dJointTypeDHinge), E(dJointGetDHingeAnchor2, dJointTypeDHinge),
};
static const JREnt jr_tab[] = {
    E(dJointGetHingeAngle, dJointTypeHinge), E(dJointGetHingeAngleRate, dJointTypeHinge),
    E(dJointGetSliderPosition, dJointTypeSlider), E(dJointGetSliderPositionRate, dJointTypeSlider),
    E(dJointGetHinge2Angle1, dJointTypeHinge2), E(dJointGetHinge2Angle2, dJointTypeHinge2),
    E(dJointGetHinge2Angle1Rate, dJointTypeHinge2), E(dJointGetHinge2Angle2Rate, dJointTypeHinge2),
    E(dJointGetUniversalAngle1, dJointTypeUniversal), E(dJointGetUniversalAngle2, dJointTypeUniversal),
    E(dJointGetUniversalAngle1Rate, dJointTypeUniversal), E(dJointGetUniversalAngle2Rate, dJointTypeUniversal),
    E(dJointGetPRPosition, dJointTypePR), E(dJointGetPRPositionRate, dJointTypePR), E(dJointGetPRAngle, dJointTypePR), E(dJointGetPRAngleRate, dJointTypePR),
    E(dJointGetPUPosition, dJointTypePU), E(dJointGetPUPositionRate, dJointTypePU), E(dJointGetPUAngle1, dJointTypePU),
    E(dJointGetPUAngle1Rate, dJointTypePU), E(dJointGetPUAngle2, dJointTypePU), E(dJointGetPUAngle2Rate, dJointTypePU),
    E(dJointGetPistonPosition, dJointTypePiston), E(dJointGetPistonPositionRate, dJointTypePiston),
    E(dJointGetPistonAngle, dJointTypePiston), E(dJointGetPistonAngleRate, dJointTypePiston),
    E(dJointGetTransmissionRatio, dJointTypeTransmission), E(dJointGetTransmissionAngle1, dJointTypeTransmission),
    E(dJointGetTransmissionAngle2, dJointTypeTransmission), E(dJointGetTransmissionRadius1, dJointTypeTransmission),
    E(dJointGetTransmissionRadius2, dJointTypeTransmission), E(dJointGetTransmissionBacklash, dJointTypeTransmission),
    E(dJointGetDBallDistance, dJointTypeDBall), E(dJointGetDHingeDistance, dJointTypeDHinge),
};
#undef E
#define NJV ((int)(sizeof jv_tab / sizeof jv_tab[0]))
#define NJR ((int)(sizeof jr_tab / sizeof jr_tab[0]))

typedef dReal (*JPG)(dJointID, int);
typedef void (*JPS)(dJointID, int, dReal);
typedef struct { const char *sname, *gname; int type; JPS set; JPG get; int groups; } JPEnt;
static const JPEnt jp_tab[] = {
#define P(s, g, t, n) { #s, #g, t, s, g, n }
    P(dJointSetBallParam, dJointGetBallParam, dJointTypeBall, 1),
    P(dJointSetHingeParam, dJointGetHingeParam, dJointTypeHinge, 1),
    P(dJointSetSliderParam, dJointGetSliderParam, dJointTypeSlider, 1),
    P(dJointSetHinge2Param, dJointGetHinge2Param, dJointTypeHinge2, 2),
    P(dJointSetUniversalParam, dJointGetUniversalParam, dJointTypeUniversal, 2),
    P(dJointSetPRParam, dJointGetPRParam, dJointTypePR, 2),
    P(dJointSetPUParam, dJointGetPUParam, dJointTypePU, 3),
    P(dJointSetPistonParam, dJointGetPistonParam, dJointTypePiston, 2),
    P(dJointSetFixedParam, dJointGetFixedParam, dJointTypeFixed, 1),
    P(dJointSetAMotorParam, dJointGetAMotorParam, dJointTypeAMotor, 3),
    P(dJointSetLMotorParam, dJointGetLMotorParam, dJointTypeLMotor, 3),
    P(dJointSetTransmissionParam, dJointGetTransmissionParam, dJointTypeTransmission, 1),
    P(dJointSetDBallParam, dJointGetDBallParam, dJointTypeDBall, 1),
    P(dJointSetDHingeParam, dJointGetDHingeParam, dJointTypeDHinge, 1),
    { "dJointSetPlane2DXParam", NULL, dJointTypePlane2D, dJointSetPlane2DXParam, NULL, 1 },
    { "dJointSetPlane2DYParam", NULL, dJointTypePlane2D, dJointSetPlane2DYParam, NULL, 1 },
    { "dJointSetPlane2DAngleParam", NULL, dJointTypePlane2D, dJointSetPlane2DAngleParam, NULL, 1 },
#undef P
};
#define NJP ((int)(sizeof jp_tab / sizeof jp_tab[0]))

static void hash_body(dBodyID b) {
    hctx = "body state";
    hdn(dBodyGetPosition(b), 3); hdn(dBodyGetRotation(b), 12); hdn(dBodyGetQuaternion(b), 4);
    hdn(dBodyGetLinearVel(b), 3); hdn(dBodyGetAngularVel(b), 3);
    hdn(dBodyGetForce(b), 3); hdn(dBodyGetTorque(b), 3);
    dMass m; memset(&m, 0, sizeof m); dBodyGetMass(b, &m); hd(m.mass); hdn(m.c, 3); hdn(m.I, 3); hdn(m.I + 4, 3); hdn(m.I + 8, 3);
    hi(dBodyIsEnabled(b)); hi(dBodyIsKinematic(b)); hi(dBodyGetGravityMode(b)); hi(dBodyGetFiniteRotationMode(b));
    dVector3 a = { 0, 0, 0 }; dBodyGetFiniteRotationAxis(b, a); hdn(a, 3);
    int nj = dBodyGetNumJoints(b); hi(nj);
    for (int i = 0; i < nj && i < 64; i++) hp(dBodyGetJoint(b, i));
    int k = 0;
    for (dGeomID g = dBodyGetFirstGeom(b); g && k < 64; g = dBodyGetNextGeom(g), k++) hp(g);
    hda(dBodyGetLinearDamping(b)); hda(dBodyGetAngularDamping(b));
    hda(dBodyGetLinearDampingThreshold(b)); hda(dBodyGetAngularDampingThreshold(b));
    hda(dBodyGetMaxAngularSpeed(b)); hi(dBodyGetGyroscopicMode(b));
    hda(dBodyGetAutoDisableLinearThreshold(b)); hda(dBodyGetAutoDisableAngularThreshold(b));
    hi(dBodyGetAutoDisableAverageSamplesCount(b)); hi(dBodyGetAutoDisableSteps(b));
    hda(dBodyGetAutoDisableTime(b)); hi(dBodyGetAutoDisableFlag(b));
    hp(dBodyGetData(b)); hp(dBodyGetWorld(b));
}

static void hash_joint(dJointID j, int type) {
    hctx = "joint bodies"; hi(dJointGetType(j)); hi(dJointGetNumBodies(j)); hp(dJointGetBody(j, 0)); hp(dJointGetBody(j, 1));
    /* The joint's getters read its bodies: their state is part of the input. */
    for (int k = 0; k < 2; k++) {
        dBodyID b = dJointGetBody(j, k);
        if (b) { hdn(dBodyGetPosition(b), 3); hdn(dBodyGetRotation(b), 12); hdn(dBodyGetLinearVel(b), 3); hdn(dBodyGetAngularVel(b), 3); }
    }
    hi(dJointIsEnabled(j)); hp(dJointGetData(j)); hp(dJointGetFeedback(j));
    for (int i = 0; i < NJV; i++) if (jv_tab[i].type == type) { hctx = jv_tab[i].name; dVector3 v = { 0, 0, 0 }; jv_tab[i].fn(j, v); hdn(v, 3); }
    for (int i = 0; i < NJR; i++) if (jr_tab[i].type == type) { hctx = jr_tab[i].name; double v = jr_tab[i].fn(j); if (type == dJointTypeTransmission) hda(v); else hd(v); }
    for (int i = 0; i < NJP; i++)
        if (jp_tab[i].type == type && jp_tab[i].get)
            for (int p = 0; p < dParamsInGroup; p++) hda(jp_tab[i].get(j, p));
    hctx = "joint extra";
    if (type == dJointTypeAMotor) {
        int n = dJointGetAMotorNumAxes(j); hi(n); hi(dJointGetAMotorMode(j));
        for (int a = 0; a < n && a < 3; a++) {
            dVector3 v = { 0, 0, 0 }; dJointGetAMotorAxis(j, a, v); hdn(v, 3); hi(dJointGetAMotorAxisRel(j, a));
            hd(dJointGetAMotorAngle(j, a)); hd(dJointGetAMotorAngleRate(j, a));
        }
    } else if (type == dJointTypeLMotor) {
        int n = dJointGetLMotorNumAxes(j); hi(n);
        for (int a = 0; a < n && a < 3; a++) { dVector3 v = { 0, 0, 0 }; dJointGetLMotorAxis(j, a, v); hdn(v, 3); }
    } else if (type == dJointTypeTransmission) {
        hi(dJointGetTransmissionMode(j));
    } else if (type == dJointTypeUniversal) {
        dReal a1 = 0, a2 = 0; dJointGetUniversalAngles(j, &a1, &a2); hd(a1); hd(a2);
    } else if (type == dJointTypePU) {
        dReal a1 = 0, a2 = 0; dJointGetPUAngles(j, &a1, &a2); hd(a1); hd(a2);
    }
}

static int user_class = -1;
static int ucls_mode;

/* Geoms held by a transform: their AABB is written by whichever transform
 * computation ran last (world frame), so it is not a property to compare. */
static dGeomID held[64];
static int nheld;
static int is_held(dGeomID g) { for (int i = 0; i < nheld; i++) if (held[i] == g) return 1; return 0; }

static void hash_held_shape(dGeomID c);
static void hash_geom(dGeomID g) {
    int cls = dGeomGetClass(g);
    hi(cls); hp(dGeomGetSpace(g)); hp(dGeomGetData(g)); hi(dGeomIsEnabled(g));
    hi((long)dGeomGetCategoryBits(g)); hi((long)dGeomGetCollideBits(g));
    int space = dGeomIsSpace(g);
    if (cls != dPlaneClass && !space) {
        hctx = "geom pos/rot"; hp(dGeomGetBody(g)); hdn(dGeomGetPosition(g), 3); hdn(dGeomGetRotation(g), 12);
        hctx = "geom offset"; hi(dGeomIsOffset(g)); hdn(dGeomGetOffsetPosition(g), 3); hdn(dGeomGetOffsetRotation(g), 12);
        hctx = "geom aabb";
        if (!is_held(g)) { dReal aabb[6] = { 0, 0, 0, 0, 0, 0 }; dGeomGetAABB(g, aabb); for (int i = 0; i < 6; i++) hda(aabb[i]); }
    }
    if (space) {
        dSpaceID s = (dSpaceID)g;
        int n = dSpaceGetNumGeoms(s); hi(n); hi(dSpaceGetCleanup(s)); hi(dSpaceGetSublevel(s)); hi(dSpaceGetManualCleanup(s));
        /* The set, not the order: a space reorders its list when it cleans
         * dirty geoms, which a getter may trigger. */
        if (cls != dQuadTreeSpaceClass) {
            uintptr_t x = 0, sum = 0;
            for (int i = 0; i < n && i < 64; i++) { uintptr_t v = (uintptr_t)dSpaceGetGeom(s, i); x ^= v * 0x9E3779B97F4A7C15ull; sum += v; }
            hb(&x, sizeof x); hb(&sum, sizeof sum);
        }
        if (cls == dHashSpaceClass) { int a, b; dHashSpaceGetLevels(s, &a, &b); hi(a); hi(b); }
    }
    hctx = "geom class data";
    switch (cls) {
    case dSphereClass: hd(dGeomSphereGetRadius(g)); break;
    case dBoxClass: { dVector3 l = { 0, 0, 0 }; dGeomBoxGetLengths(g, l); hdn(l, 3); break; }
    case dCapsuleClass: { dReal r = 0, l = 0; dGeomCapsuleGetParams(g, &r, &l); hd(r); hd(l); break; }
    case dCylinderClass: { dReal r = 0, l = 0; dGeomCylinderGetParams(g, &r, &l); hd(r); hd(l); break; }
    case dPlaneClass: { dVector4 p = { 0, 0, 0, 0 }; dGeomPlaneGetParams(g, p); hdn(p, 4); break; }
    case dRayClass: {
        hda(dGeomRayGetLength(g)); dVector3 s = { 0, 0, 0 }, d = { 0, 0, 0 }; dGeomRayGet(g, s, d); hdn(s, 3); hdn(d, 3);
        hi(dGeomRayGetFirstContact(g)); hi(dGeomRayGetBackfaceCull(g)); hi(dGeomRayGetClosestHit(g));
        break;
    }
    case dGeomTransformClass: {
        dGeomID c = dGeomTransformGetGeom(g);
        hp(c); hi(dGeomTransformGetCleanup(g)); hi(dGeomTransformGetInfo(g));
        /* The held geom's placement (from its body, if it has one) is input to the transform's box. */
        if (c && !dGeomIsSpace(c) && dGeomGetClass(c) != dPlaneClass) {
            hdn(dGeomGetPosition(c), 3); hdn(dGeomGetRotation(c), 12);
            if (dGeomGetBody(c)) { hdn(dBodyGetPosition(dGeomGetBody(c)), 3); hdn(dBodyGetRotation(dGeomGetBody(c)), 12); }
            if (dGeomIsOffset(c)) hdn(dGeomGetOffsetPosition(c), 3);
            /* So is its shape: sizes, a convex's points, a heightfield's
             * data (a huge one was reported when it was set, and the
             * transform's box overflows with it, as in ODE). */
            hash_held_shape(c);
        }
        break;
    }
    case dHeightfieldClass: hp(dGeomHeightfieldGetHeightfieldData(g)); break;
    case dTriMeshClass:
        hp(dGeomTriMeshGetData(g)); hi(dGeomTriMeshGetTriangleCount(g));
        hp((void *)dGeomTriMeshGetCallback(g)); hp((void *)dGeomTriMeshGetArrayCallback(g));
        hp((void *)dGeomTriMeshGetRayCallback(g)); hp((void *)dGeomTriMeshGetTriMergeCallback(g));
        break;
    default:
        if (cls == user_class) hp(dGeomGetClassData(g));
        break;
    }
}

static void hash_world(int wi) {
    dWorldID w = objs[wi].h;
    hctx = "world params"; dVector3 gr = { 0, 0, 0 }; dWorldGetGravity(w, gr); hdn(gr, 3);
    hda(dWorldGetERP(w)); hda(dWorldGetCFM(w)); hi(dWorldGetQuickStepNumIterations(w)); hda(dWorldGetQuickStepW(w));
    hda(dWorldGetContactMaxCorrectingVel(w)); hda(dWorldGetContactSurfaceLayer(w));
    hda(dWorldGetAutoDisableLinearThreshold(w)); hda(dWorldGetAutoDisableAngularThreshold(w));
    hi(dWorldGetAutoDisableAverageSamplesCount(w)); hi(dWorldGetAutoDisableSteps(w)); hda(dWorldGetAutoDisableTime(w));
    hi(dWorldGetAutoDisableFlag(w)); hda(dWorldGetLinearDampingThreshold(w)); hda(dWorldGetAngularDampingThreshold(w));
    hda(dWorldGetLinearDamping(w)); hda(dWorldGetAngularDamping(w)); hda(dWorldGetMaxAngularSpeed(w));
    hp(dWorldGetData(w));
    for (int i = 0; i < nobj; i++) {
        if (!objs[i].alive || objs[i].world != wi) continue;
        if (objs[i].kind == K_BODY) hash_body(objs[i].h);
        else if (objs[i].kind == K_JOINT) hash_joint(objs[i].h, objs[i].sub);
    }
}

static void hash_obj(int i) {
    Obj *o = &objs[i];
    if (!o->alive) return;
    hp(o->h);
    switch (o->kind) {
    case K_WORLD: hash_world(i); break;
    case K_BODY: hash_body(o->h); break;
    case K_JOINT: hash_joint(o->h, o->sub); break;
    case K_GEOM:
        hash_geom(o->h);
        /* A convex's points are input to its AABB and contacts. */
        if (o->cvx && o->sub == dConvexClass) { hctx = "convex points"; hdn(o->cvx, 24); }
        /* A heightfield's build parameters are input to its AABB (a huge
         * scale, reported when built, overflows it as in ODE). */
        if (o->sub == dHeightfieldClass) {
            dHeightfieldDataID hd = dGeomHeightfieldGetHeightfieldData(o->h);
            for (int j = 0; hd && j < nobj; j++)
                if (objs[j].alive && objs[j].kind == K_HFDATA && objs[j].h == hd && objs[j].has_hfp) {
                    hctx = "heightfield data"; hdn(objs[j].hfp, 5);
                }
        }
        break;
    case K_TMDATA: {
        /* The arrays the data holds (the host's normals and use flags, or
         * Preprocess's flags) and their sizes. */
        dsizeint sz = 0;
        hctx = "trimesh data arrays";
        hp(dGeomTriMeshDataGet2(o->h, dTRIMESHDATA_FACE_NORMALS, &sz)); hi((long)sz);
        hp(dGeomTriMeshDataGet2(o->h, dTRIMESHDATA_USE_FLAGS, &sz)); hi((long)sz);
        break;
    }
    case K_HFDATA: break;
    case K_GROUP: break;
    case K_THRIMPL: break;
    case K_POOL: break;
    }
}

/* The shape of a transform's child (its object's class parameters and
 * host arrays, as hash_obj hashes them), which the transform's AABB and
 * contacts read. */
static void hash_held_shape(dGeomID c) {
    for (int j = 0; j < nobj; j++)
        if (objs[j].alive && objs[j].kind == K_GEOM && objs[j].h == c) {
            const char *ctx = hctx;
            hash_obj(j);
            hctx = ctx;
            return;
        }
}

static int deep_now;
/* Per-object hashes of the last two passes, to name what changed. */
static uint64_t obj_hash[2][MAXOBJ];
static unsigned char obj_nonfinite[2][MAXOBJ];
static int obj_pass;
static Hash hash_touched(void) {
    long s_u = rep_uassert, s_p = rep_panic, s_i = rep_iassert, s_e = rep_error, s_o = rep_debug_other;
    long u0 = rep_uassert + rep_panic + rep_iassert + rep_error + rep_debug_other;
    in_probe = 1;
    hs.h = 0xCBF29CE484222325ull; hs.nonfinite = 0; hs.extreme = 0;
    nheld = 0;
    for (int i = 0; i < nobj && nheld < 64; i++)
        if (objs[i].alive && objs[i].kind == K_GEOM && objs[i].sub == dGeomTransformClass) {
            dGeomID c = dGeomTransformGetGeom(objs[i].h);
            if (c) held[nheld++] = c;
        }
    obj_pass ^= 1;
    memset(obj_hash[obj_pass], 0, sizeof obj_hash[obj_pass]);
    memset(obj_nonfinite[obj_pass], 0, sizeof obj_nonfinite[obj_pass]);
    int any_nonfinite = 0;
    nf_ctx[0] = 0;
    /* Each object hashed on its own, then combined in order. */
    uint64_t total = 0xCBF29CE484222325ull;
    for (int k = 0; k < (deep_now ? nobj : cur.ntouched); k++) {
        int i = deep_now ? k : cur.touched[k];
        if (!objs[i].alive) continue;
        hs.h = 0xCBF29CE484222325ull;
        hs.nonfinite = 0;
        hash_obj(i);
        obj_hash[obj_pass][i] = hs.h;
        obj_nonfinite[obj_pass][i] = (unsigned char)hs.nonfinite;
        any_nonfinite |= hs.nonfinite;
        total = (total ^ hs.h) * 0x100000001B3ull;
    }
    hs.h = total;
    hs.nonfinite = any_nonfinite;
    in_probe = 0;
    long u1 = rep_uassert + rep_panic + rep_iassert + rep_error + rep_debug_other;
    if (u1 != u0) {
        /* Getters may refuse legitimately (ODE asserts on a joint getter
         * that needs a body the joint does not have): only a panic, an
         * internal assertion or an error-channel report is a finding. */
        if (rep_panic != s_p || rep_iassert != s_i || rep_error != s_e) {
            char d[600]; snprintf(d, sizeof d, "a getter failed internally while hashing: %s", last_msg);
            finding("panic", d);
        } else if (opt_verbose > 1) printf("  note: getter report while hashing: %s\n", last_msg);
        rep_uassert = s_u; rep_panic = s_p; rep_iassert = s_i; rep_error = s_e; rep_debug_other = s_o;
    }
    return hs;
}

/* Liveness of every registered object, after calls that may destroy more
 * than their arguments: a destroyed handle is reported by the data getters. */
static void probe_alive(void) {
    long u0 = rep_uassert;
    in_probe = 1;
    for (int i = 0; i < nobj; i++) {
        Obj *o = &objs[i];
        if (!o->alive) continue;
        long before = rep_uassert;
        switch (o->kind) {
        case K_WORLD: (void)dWorldGetData(o->h); break;
        case K_BODY: (void)dBodyGetData(o->h); break;
        case K_JOINT: (void)dJointGetData(o->h); break;
        case K_GEOM: (void)dGeomGetData(o->h); break;
        case K_TMDATA: (void)dGeomTriMeshDataGet(o->h, dTRIMESHDATA_USE_FLAGS); break;
        default: break;
        }
        if (rep_uassert != before) o->alive = 0;
    }
    /* Bodies and joints of a dead world are dead too (no getter tells). */
    in_probe = 0;
    rep_uassert = u0;
}

/* ------------------------------------------------------------- pre/post */
static long c_uassert, c_panic, c_iassert, c_error, c_msg, c_warn, c_guard, c_other;
static Hash h_before;

static void begin(const char *name) {
    memset(&cur, 0, sizeof cur);
    cur.name = name;
}
static void pre(void) {
    deep_now = deep_every > 0 && rn(deep_every) == 0;
    h_before = hash_touched();
    c_uassert = rep_uassert; c_panic = rep_panic; c_iassert = rep_iassert; c_error = rep_error; c_msg = rep_msg; c_warn = rep_warn; c_guard = rep_guard; c_other = rep_debug_other;
}

/* Every live body's position, orientation and velocities are finite. */
static void check_bodies_finite(void) {
    for (int i = 0; i < nobj; i++) {
        Obj *o = &objs[i];
        if (!o->alive || o->kind != K_BODY) continue;
        const dReal *p = dBodyGetPosition(o->h), *q = dBodyGetQuaternion(o->h), *v = dBodyGetLinearVel(o->h), *w = dBodyGetAngularVel(o->h);
        if (!p || !q || !v || !w) continue;
        int ok = 1;
        for (int k = 0; k < 3; k++) ok &= isfinite(p[k]) && isfinite(v[k]) && isfinite(w[k]);
        for (int k = 0; k < 4; k++) ok &= isfinite(q[k]);
        if (!ok) {
            char d[200];
            snprintf(d, sizeof d, "body %s left non-finite by a step: pos %g %g %g", N(o), p[0], p[1], p[2]);
            finding("nan", d);
            return;
        }
    }
}

static void post(void) {
    long du = rep_uassert - c_uassert, dp = rep_panic - c_panic, di = rep_iassert - c_iassert, de = rep_error - c_error;
    long dw = rep_warn - c_warn, dg = rep_guard - c_guard;
    last_refused = du != 0;
    n_calls++;
    if (cur.bad) n_bad++;
    if (du || dw) n_reported++;
    if (cur.may_destroy) probe_alive();
    /* A touched object that died in the call is not hashed after it. */
    if (cur.may_destroy) {
        int k = 0;
        for (int i = 0; i < cur.ntouched; i++) if (objs[cur.touched[i]].alive) cur.touched[k++] = cur.touched[i];
        if (k != cur.ntouched) { cur.ntouched = k; deep_now = 0; h_before.h = 0; }
    }
    Hash h_after = hash_touched();
    char d[700];
    if (dp) { snprintf(d, sizeof d, "Rust panic caught and reported: %s", last_msg); finding("panic", d); }
    if (di) { snprintf(d, sizeof d, "internal assertion reported: %s", last_msg); finding("iassert", d); }
    if (de) { snprintf(d, sizeof d, "report on the error channel: %s", last_msg); finding("error", d); }
    if (cur.excluded) { n_excluded++; return; }
    if (cur.bad && du == 0 && dw == 0 && !cur.nested) {
        finding("silent", "input known to be bad was accepted without a report");
    }
    if (!cur.bad && !cur.dontcare && du && !cur.nested) {
        n_unexpected++;
        if (opt_verbose) printf("  note: unexpected report in %s: %s\n", cur.name, last_msg);
    }
    if (du && !cur.nested && !cur.may_destroy && !cur.no_change_check && h_before.h && h_after.h != h_before.h) {
        char msg[512]; memcpy(msg, last_msg, sizeof msg);
        /* which objects differ between the hash before and after the call */
        char which[160] = ""; size_t wl = 0;
        for (int i = 0; i < nobj && wl < sizeof which - 24; i++)
            if (obj_hash[0][i] != obj_hash[1][i] && objs[i].alive) wl += (size_t)snprintf(which + wl, sizeof which - wl, " %s", N(&objs[i]));
        Hash again = hash_touched();
        snprintf(d, sizeof d, "call reported (%s) but the state of its objects changed (%s)%s", msg, which,
                 again.h != h_after.h ? " [the getters alone change it: hashing twice differs]" : "");
        finding("changed", d);
    }
    /* A body's own state is never left non-finite (the step's guard). */
    if (cur.step) check_bodies_finite();
    /* NaN/inf in getters of objects whose state was sane before the call:
     * a finding unless the call reported (refused, which the "changed"
     * check covers, or warned: a huge finite value, which the library
     * accepts as ODE does and says that its arithmetic may overflow), or
     * the step's guard took a body over and said so. */
    int tainted_before = h_before.nonfinite || h_before.extreme;
    if (h_after.nonfinite && !tainted_before && h_before.h) {
        if (cur.ode_nan && EXCL_ODE_NAN_CONTACTS) { n_excluded++; return; }
        if (du == 0 && dw == 0 && dg == 0) {
            snprintf(d, sizeof d, "object state became NaN/inf%s without a report%s", cur.nonfinite ? " after a non-finite input" : " from finite input", deep_now ? " (deep)" : "");
            finding("nan", d);
            /* Name the objects that went non-finite. */
            if (findings_this_seed <= 5) {
                printf("  non-finite now:");
                for (int i = 0; i < nobj; i++) if (obj_nonfinite[obj_pass][i] && objs[i].alive) printf(" %s", N(&objs[i]));
                printf(" (first: %s)\n", nf_ctx);
            }
            /* Name the joint getters that went non-finite. */
            for (int t = 0; t < cur.ntouched && findings_this_seed <= 5; t++) {
                Obj *o = &objs[cur.touched[t]];
                if (!o->alive || o->kind != K_JOINT) continue;
                for (int i = 0; i < NJV; i++) if (jv_tab[i].type == o->sub) {
                    dVector3 v = { 0, 0, 0 }; jv_tab[i].fn(o->h, v);
                    if (!isfinite(v[0] + v[1] + v[2])) printf("  %s(%s) = %g %g %g\n", jv_tab[i].name, N(o), v[0], v[1], v[2]);
                }
                for (int i = 0; i < NJR; i++) if (jr_tab[i].type == o->sub) {
                    double v = jr_tab[i].fn(o->h);
                    if (!isfinite(v)) printf("  %s(%s) = %g\n", jr_tab[i].name, N(o), v);
                }
            }
        }
    }
}

#define CALL(...) do { pre(); __VA_ARGS__; post(); } while (0)

/* ================================================================ ops === */
static dJointFeedback feedbacks[8];
static int cb_depth;


static void rand_rot(dMatrix3 R) {
    int r = rn(100);
    if (r < 70) dRFromEulerAngles(R, runi(-3, 3), runi(-3, 3), runi(-3, 3));
    else if (r < 80) { for (int i = 0; i < 12; i++) R[i] = runi(-2, 2); cur.dontcare = 1; }
    else if (r < 88) { memset(R, 0, sizeof(dMatrix3)); cur.dontcare = 1; }
    else { dRSetIdentity(R); int e = rn(9); R[e / 3 * 4 + e % 3] = rreal(); }
}
static void rand_quat(dQuaternion q) {
    int r = rn(100);
    if (r < 70) dQFromAxisAndAngle(q, runi(-1, 1), runi(-1, 1), runi(-1, 1) + 0.01, runi(-3, 3));
    else if (r < 80) { memset(q, 0, sizeof(dQuaternion)); cur.dontcare = 1; }
    else { for (int i = 0; i < 4; i++) q[i] = runi(-2, 2); q[rn(4)] = rreal(); cur.dontcare = 1; }
}

/* ---- worlds */
static void op_world_create(void) {
    if (count_live(K_WORLD) >= kind_cap[K_WORLD]) return;
    begin("dWorldCreate"); TRACE("dWorldCreate()");
    dWorldID w = NULL;
    CALL(w = dWorldCreate());
    obj_new(w, K_WORLD, 0, -1);
    /* Each world gets a ground and a few bodies to make steps interesting. */
}
static void op_world_destroy(void) {
    if (!chance(10)) return;
    begin("dWorldDestroy");
    Obj *w = pick(K_WORLD, 0);
    TRACE("dWorldDestroy(%s)", N(w));
    cur.may_destroy = 1;
    CALL(dWorldDestroy(H(w)));
    if (w && w->alive == 0) {
        for (int i = 0; i < nobj; i++) if (objs[i].world == (int)(w - objs)) { if (objs[i].kind == K_BODY) objs[i].alive = 0; }
    }
    probe_alive();
}

typedef void (*W1)(dWorldID, dReal);
static const struct { const char *n; W1 f; } w1_tab[] = {
#define E(n) { #n, n }
    E(dWorldSetERP), E(dWorldSetCFM), E(dWorldSetQuickStepW), E(dWorldSetContactMaxCorrectingVel),
    E(dWorldSetContactSurfaceLayer), E(dWorldSetAutoDisableLinearThreshold), E(dWorldSetAutoDisableAngularThreshold),
    E(dWorldSetAutoDisableTime), E(dWorldSetLinearDampingThreshold), E(dWorldSetAngularDampingThreshold),
    E(dWorldSetLinearDamping), E(dWorldSetAngularDamping), E(dWorldSetMaxAngularSpeed),
};
typedef void (*WI)(dWorldID, int);
static const struct { const char *n; WI f; int neg_silent; } wi_tab[] = {
    { "dWorldSetQuickStepNumIterations", dWorldSetQuickStepNumIterations, 1 },
    { "dWorldSetAutoDisableSteps", dWorldSetAutoDisableSteps, 1 },
    { "dWorldSetAutoDisableFlag", dWorldSetAutoDisableFlag, 0 },
};
static void op_world_set(void) {
    begin("world setter");
    Obj *w = pick(K_WORLD, 0);
    int r = rn(10);
    if (r < 6) {
        int i = rn(sizeof w1_tab / sizeof w1_tab[0]);
        cur.name = w1_tab[i].n;
        double v = rreal();
        if (isinf(v)) cur.dontcare = 1;
        /* Debian's ODE stores these without checks; only NaN is bad here. */
        if (chance(50) && !isnan(v)) v = fabs(v) < 1 ? fabs(v) : v;
        TRACE("%s(%s, " G17 ")", cur.name, N(w), v);
        CALL(w1_tab[i].f(H(w), v));
    } else if (r < 8) {
        int i = rn(3); cur.name = wi_tab[i].n;
        int v = rint_any();
        /* A negative iteration count is reported (ODE would hang); negative
         * auto-disable steps act as 0 in ODE too and stay silent. */
        if (v < 0 && wi_tab[i].neg_silent) { if (i == 0) cur.bad = 1; else cur.dontcare = 1; }
        if (i == 0 && v > 1000) v = 1000; /* iteration counts cost time, not safety */
        TRACE("%s(%s, %d)", cur.name, N(w), v);
        CALL(wi_tab[i].f(H(w), v));
    } else if (r < 9) {
        cur.name = "dWorldSetGravity";
        double x = 0, y = 0, z = -9.81;
        if (chance(40)) { x = rreal(); y = rreal(); z = rreal(); }
        TRACE("dWorldSetGravity(%s, " G17 ", " G17 ", " G17 ")", N(w), x, y, z);
        CALL(dWorldSetGravity(H(w), x, y, z));
    } else {
        int k = rn(3);
        if (k == 0) {
            cur.name = "dWorldSetAutoDisableAverageSamplesCount";
            unsigned v = (unsigned)rn(12);
            TRACE("%s(%s, %u)", cur.name, N(w), v);
            CALL(dWorldSetAutoDisableAverageSamplesCount(H(w), v));
        } else if (k == 1) {
            cur.name = "dWorldSetDamping";
            double a = rreal(), b = rreal();
            TRACE("dWorldSetDamping(%s, " G17 ", " G17 ")", N(w), a, b);
            cur.dontcare |= isinf(a) || isinf(b);
            CALL(dWorldSetDamping(H(w), a, b));
        } else {
            cur.name = "dWorldSetData";
            TRACE("dWorldSetData(%s, %p)", N(w), (void *)&feedbacks[1]);
            CALL(dWorldSetData(H(w), &feedbacks[1]));
        }
    }
}

static void moved_cb(dBodyID b);
static void op_world_step(void) {
    begin("dWorldStep");
    Obj *w = pick(K_WORLD, 0);
    int quick = chance(50);
    cur.name = quick ? "dWorldQuickStep" : "dWorldStep";
    double dt = chance(85) ? (chance(70) ? 0.01 : runi(0.001, 0.05)) : rreal();
    if (!isnan(dt) && !(dt > 0)) { cur.bad = 1; } /* ODE asserts stepsize > 0 */
    if (isinf(dt)) cur.bad = 1;
    cur.step = 1; cur.nested = 1; cur.may_destroy = 1; /* moved callbacks may do anything */
    TRACE("%s(%s, " G17 ")", cur.name, N(w), dt);
    if (quick) CALL(dWorldQuickStep(H(w), dt));
    else CALL(dWorldStep(H(w), dt));
}
static void op_world_misc(void) {
    begin("world misc");
    Obj *w = pick(K_WORLD, 0);
    int r = rn(6);
    if (r == 0) {
        cur.name = "dWorldImpulseToForce";
        double dt = chance(80) ? 0.01 : rreal(); double x = rreal(), y = rreal(), z = rreal();
        dVector3 out; int nullout = chance(5); if (nullout) cur.bad = 1;
        TRACE("dWorldImpulseToForce(%s, " G17 ", " G17 ", " G17 ", " G17 ", %s)", N(w), dt, x, y, z, nullout ? "NULL" : "out");
        CALL(dWorldImpulseToForce(H(w), dt, x, y, z, nullout ? NULL : out));
    } else if (r == 1) {
        cur.name = "dWorldCleanupWorkingMemory"; TRACE("dWorldCleanupWorkingMemory(%s)", N(w));
        CALL(dWorldCleanupWorkingMemory(H(w)));
    } else if (r == 2) {
        cur.name = "dWorldUseSharedWorkingMemory";
        Obj *o = pick(K_WORLD, 1);
        TRACE("dWorldUseSharedWorkingMemory(%s, %s)", N(w), N(o));
        cur.dontcare = 1; cur.ntouched = 0; /* shares memory, not state */
        CALL(dWorldUseSharedWorkingMemory(H(w), H(o)));
    } else if (r == 3) {
        cur.name = "dWorldSetStepMemoryReservationPolicy";
        dWorldStepReserveInfo info; memset(&info, 0, sizeof info);
        info.struct_size = sizeof info; info.reserve_factor = (float)runi(-1, 3); info.reserve_minimum = (unsigned)rn(100000);
        int usenull = chance(30);
        if (!usenull && info.reserve_factor < 1) cur.bad = 1;
        TRACE("dWorldSetStepMemoryReservationPolicy(%s, %s factor %g min %u)", N(w), usenull ? "NULL" : "info", info.reserve_factor, info.reserve_minimum);
        CALL(dWorldSetStepMemoryReservationPolicy(H(w), usenull ? NULL : &info));
    } else if (r == 4) {
        cur.name = "dWorldSetStepIslandsProcessingMaxThreadCount";
        unsigned v = (unsigned)rint_any();
        TRACE("%s(%s, %u)", cur.name, N(w), v);
        CALL(dWorldSetStepIslandsProcessingMaxThreadCount(H(w), v));
    } else {
        cur.name = "world getters"; TRACE("world getters(%s)", N(w));
        dVector3 g;
        CALL(dWorldGetGravity(H(w), g); (void)dWorldGetERP(H(w)); (void)dWorldGetCFM(H(w)); (void)dWorldGetQuickStepNumIterations(H(w)));
    }
}

/* ---- bodies */
static void op_body_create(void) {
    if (count_live(K_BODY) >= kind_cap[K_BODY]) return;
    begin("dBodyCreate");
    Obj *w = pick(K_WORLD, 0);
    TRACE("dBodyCreate(%s)", N(w));
    dBodyID b = NULL;
    CALL(b = dBodyCreate(H(w)));
    Obj *o = obj_new(b, K_BODY, 0, w ? (int)(w - objs) : -1);
    if (o && chance(70)) {
        /* Start most bodies in a sane place so steps and contacts happen. */
        dBodySetPosition(b, runi(-2, 2), runi(-2, 2), runi(0, 3));
        dMass m; dMassSetBox(&m, 1, runi(0.2, 1), runi(0.2, 1), runi(0.2, 1)); dBodySetMass(b, &m);
    }
}
static void op_body_destroy(void) {
    if (!chance(30)) return;
    begin("dBodyDestroy");
    Obj *b = pick(K_BODY, 0);
    TRACE("dBodyDestroy(%s)", N(b));
    /* Joints and geoms of the body stay alive but change. */
    cur.may_destroy = 1;
    CALL(dBodyDestroy(H(b)));
}
typedef void (*B3)(dBodyID, dReal, dReal, dReal);
static const struct { const char *n; B3 f; } b3_tab[] = {
    E(dBodySetPosition), E(dBodySetLinearVel), E(dBodySetAngularVel), E(dBodyAddForce), E(dBodyAddTorque),
    E(dBodyAddRelForce), E(dBodyAddRelTorque), E(dBodySetForce), E(dBodySetTorque), E(dBodySetFiniteRotationAxis),
};
typedef void (*B6)(dBodyID, dReal, dReal, dReal, dReal, dReal, dReal);
static const struct { const char *n; B6 f; } b6_tab[] = {
    E(dBodyAddForceAtPos), E(dBodyAddForceAtRelPos), E(dBodyAddRelForceAtPos), E(dBodyAddRelForceAtRelPos),
};
typedef void (*B1)(dBodyID, dReal);
static const struct { const char *n; B1 f; } b1_tab[] = {
    E(dBodySetLinearDamping), E(dBodySetAngularDamping), E(dBodySetLinearDampingThreshold), E(dBodySetAngularDampingThreshold),
    E(dBodySetMaxAngularSpeed), E(dBodySetAutoDisableLinearThreshold), E(dBodySetAutoDisableAngularThreshold), E(dBodySetAutoDisableTime),
};
typedef void (*B0)(dBodyID);
static const struct { const char *n; B0 f; } b0_tab[] = {
    E(dBodyEnable), E(dBodyDisable), E(dBodySetDynamic), E(dBodySetKinematic), E(dBodySetAutoDisableDefaults), E(dBodySetDampingDefaults),
};
typedef void (*BQ)(dBodyID, dReal, dReal, dReal, dVector3);
static const struct { const char *n; BQ f; } bq_tab[] = {
    E(dBodyGetRelPointPos), E(dBodyGetRelPointVel), E(dBodyGetPointVel), E(dBodyGetPosRelPoint), E(dBodyVectorToWorld), E(dBodyVectorFromWorld),
};
#define NE(t) ((int)(sizeof t / sizeof t[0]))

static void op_body_set(void) {
    begin("body setter");
    Obj *b = pick(K_BODY, 0);
    int r = rn(100);
    if (r < 35) {
        int i = rn(NE(b3_tab)); cur.name = b3_tab[i].n;
        double x, y, z;
        if (chance(50)) { x = runi(-3, 3); y = runi(-3, 3); z = runi(-1, 4); } else { x = rfin(); y = rfin(); z = rfin(); }
        TRACE("%s(%s, " G17 ", " G17 ", " G17 ")", cur.name, N(b), x, y, z);
        if (i == 9 && fmax(fabs(x), fmax(fabs(y), fabs(z))) < DBL_MIN) cur.ode_nan = 1;
        CALL(b3_tab[i].f(H(b), x, y, z));
    } else if (r < 45) {
        int i = rn(NE(b6_tab)); cur.name = b6_tab[i].n;
        double v[6]; for (int k = 0; k < 6; k++) v[k] = chance(70) ? runi(-5, 5) : rfin();
        TRACE("%s(%s, " G17 ", " G17 ", " G17 ", " G17 ", " G17 ", " G17 ")", cur.name, N(b), v[0], v[1], v[2], v[3], v[4], v[5]);
        CALL(b6_tab[i].f(H(b), v[0], v[1], v[2], v[3], v[4], v[5]));
    } else if (r < 55) {
        int i = rn(NE(b1_tab)); cur.name = b1_tab[i].n;
        double v = rreal(); if (isinf(v)) cur.dontcare = 1;
        if (!isnan(v) && v < 0) cur.dontcare = 1;
        TRACE("%s(%s, " G17 ")", cur.name, N(b), v);
        CALL(b1_tab[i].f(H(b), v));
    } else if (r < 63) {
        int i = rn(NE(b0_tab)); cur.name = b0_tab[i].n;
        TRACE("%s(%s)", cur.name, N(b));
        CALL(b0_tab[i].f(H(b)));
    } else if (r < 70) {
        int k = rn(6); int v = rint_any();
        static const char *names[] = { "dBodySetFiniteRotationMode", "dBodySetGravityMode", "dBodySetGyroscopicMode",
                                       "dBodySetAutoDisableSteps", "dBodySetAutoDisableFlag", "dBodySetAutoDisableAverageSamplesCount" };
        cur.name = names[k];
        /* ODE-compatible and silent (README "Input ODE accepts"): any nonzero
         * finite rotation mode is on; negative auto-disable steps act as 0. */
        if (k == 0 && (v < 0 || v > 1)) cur.dontcare = 1;
        if (k == 3 && v < 0) cur.dontcare = 1;
        if (k == 5) v = rn(12);
        TRACE("%s(%s, %d)", cur.name, N(b), v);
        switch (k) {
        case 0: CALL(dBodySetFiniteRotationMode(H(b), v)); break;
        case 1: CALL(dBodySetGravityMode(H(b), v)); break;
        case 2: CALL(dBodySetGyroscopicMode(H(b), v)); break;
        case 3: CALL(dBodySetAutoDisableSteps(H(b), v)); break;
        case 4: CALL(dBodySetAutoDisableFlag(H(b), v)); break;
        default: CALL(dBodySetAutoDisableAverageSamplesCount(H(b), (unsigned)v)); break;
        }
    } else if (r < 76) {
        cur.name = "dBodySetRotation"; dMatrix3 R; rand_rot(R);
        TRACE("dBodySetRotation(%s, [" G17 " " G17 " " G17 " ...])", N(b), R[0], R[1], R[2]);
        CALL(dBodySetRotation(H(b), R));
    } else if (r < 81) {
        cur.name = "dBodySetQuaternion"; dQuaternion q; rand_quat(q);
        TRACE("dBodySetQuaternion(%s, [" G17 " " G17 " " G17 " " G17 "])", N(b), q[0], q[1], q[2], q[3]);
        CALL(dBodySetQuaternion(H(b), q));
    } else if (r < 88) {
        cur.name = "dBodySetMass"; dMass m; int t = rn(10);
        if (t < 6) dMassSetBox(&m, runi(0.1, 3), runi(0.1, 2), runi(0.1, 2), runi(0.1, 2));
        else if (t < 7) { dMassSetZero(&m); cur.bad = 1; }
        else if (t < 8) { dMassSetSphere(&m, 1, 1); m.mass = -1; cur.bad = 1; }
        else if (t < 9) { dMassSetSphere(&m, 1, 1); int e = rn(9); m.I[e / 3 * 4 + e % 3] = rreal(); cur.dontcare = 1; if (cur.nonfinite) cur.bad = 1; }
        else { dMassSetSphere(&m, 1, 1); dMassTranslate(&m, runi(-1, 1), runi(-1, 1), runi(-1, 1)); cur.dontcare = 1; }
        int nullm = chance(4); if (nullm) cur.bad = 1;
        TRACE("dBodySetMass(%s, %s mass " G17 ")", N(b), nullm ? "NULL" : "m", m.mass);
        CALL(dBodySetMass(H(b), nullm ? NULL : &m));
    } else if (r < 90) {
        cur.name = "dBodySetDamping"; double a = rreal(), c = rreal(); cur.dontcare |= isinf(a) || isinf(c);
        TRACE("dBodySetDamping(%s, " G17 ", " G17 ")", N(b), a, c);
        CALL(dBodySetDamping(H(b), a, c));
    } else if (r < 92) {
        cur.name = "dBodySetMovedCallback";
        int none = chance(40);
        TRACE("dBodySetMovedCallback(%s, %s)", N(b), none ? "NULL" : "moved_cb");
        CALL(dBodySetMovedCallback(H(b), none ? NULL : moved_cb));
    } else {
        cur.name = "dBodySetData";
        TRACE("dBodySetData(%s, %p)", N(b), (void *)&feedbacks[2]);
        CALL(dBodySetData(H(b), &feedbacks[2]));
    }
}
static void op_body_get(void) {
    begin("body getter");
    Obj *b = pick(K_BODY, 0);
    int r = rn(4);
    if (r < 2) {
        int i = rn(NE(bq_tab)); cur.name = bq_tab[i].n;
        double x = rfin(), y = rfin(), z = rfin(); dVector3 out; int nullout = chance(5); if (nullout) cur.bad = 1;
        TRACE("%s(%s, " G17 ", " G17 ", " G17 ", %s)", cur.name, N(b), x, y, z, nullout ? "NULL" : "out");
        CALL(bq_tab[i].f(H(b), x, y, z, nullout ? NULL : out));
        if (!nullout && !cur.nonfinite && b && b->alive && !cur.bad && (fabs(x) + fabs(y) + fabs(z) < 1e100)) {
            if (!(isfinite(out[0]) && isfinite(out[1]) && isfinite(out[2])) && !h_before.nonfinite && !h_before.extreme) {
                /* A step may have driven the body far away (known issue);
                 * only a result from sane state counts. */
                finding("nan", "point/vector transform of finite input returned non-finite");
            }
        }
    } else if (r == 2) {
        cur.name = "dBodyGetJoint"; int i = chance(70) ? rn(4) : rint_any();
        int n = (b && b->alive && !cur.bad) ? dBodyGetNumJoints(H(b)) : 0;
        if (i < 0 || i >= n) cur.dontcare = 1; /* ODE returns NULL past the end, asserts on negative */
        if (i < 0) cur.bad = 1;
        TRACE("dBodyGetJoint(%s, %d)", N(b), i);
        CALL((void)dBodyGetJoint(H(b), i));
    } else {
        cur.name = "dBodyGetMass"; dMass m; int nullm = chance(5); if (nullm) cur.bad = 1;
        TRACE("dBodyGetMass(%s, %s)", N(b), nullm ? "NULL" : "m");
        CALL(dBodyGetMass(H(b), nullm ? NULL : &m));
    }
}

/* ---- joints */
static const int jtypes[] = { dJointTypeBall, dJointTypeHinge, dJointTypeSlider, dJointTypeContact, dJointTypeUniversal,
                              dJointTypeHinge2, dJointTypeFixed, dJointTypeNull, dJointTypeAMotor, dJointTypeLMotor,
                              dJointTypePlane2D, dJointTypePR, dJointTypePU, dJointTypePiston, dJointTypeDBall,
                              dJointTypeDHinge, dJointTypeTransmission };
static void rand_contact(dContact *c) {
    memset(c, 0, sizeof *c);
    c->surface.mode = (int)(rnd() & 0x7fff);
    c->surface.mu = chance(20) ? dInfinity : runi(0, 2);
    c->surface.mu2 = runi(0, 2); c->surface.rho = runi(0, 0.1); c->surface.rho2 = runi(0, .1); c->surface.rhoN = runi(0, .1);
    c->surface.bounce = runi(0, 1); c->surface.bounce_vel = runi(0, 1); c->surface.soft_erp = runi(0, 1); c->surface.soft_cfm = runi(0, 0.1);
    c->surface.motion1 = runi(-1, 1); c->surface.motion2 = runi(-1, 1); c->surface.motionN = runi(-1, 1);
    c->surface.slip1 = runi(0, 0.1); c->surface.slip2 = runi(0, 0.1);
    c->geom.pos[0] = runi(-2, 2); c->geom.pos[1] = runi(-2, 2); c->geom.pos[2] = runi(-1, 1);
    c->geom.normal[2] = 1; c->geom.depth = runi(0, 0.1);
    c->fdir1[0] = 1;
    if (chance(10)) {
        /* soft_cfm is read only with dContactSoftCFM in the mode: NaN there is undecided */
        double *f[] = { &c->surface.mu, &c->geom.depth, &c->geom.normal[0], &c->geom.pos[1], &c->surface.soft_cfm };
        int i = rn(5);
        int was_bad = cur.bad;
        *f[i] = rreal();
        if (i == 4 && !(c->surface.mode & dContactSoftCFM)) { cur.bad = was_bad; cur.dontcare = 1; }
        if (i == 0 && isinf(c->surface.mu)) cur.dontcare = 1;
    }
}
static Obj *make_joint(Obj *w, Obj *g, int type, dContact *c) {
    dJointID j = NULL;
    switch (type) {
    case dJointTypeBall: j = dJointCreateBall(H(w), H(g)); break;
    case dJointTypeHinge: j = dJointCreateHinge(H(w), H(g)); break;
    case dJointTypeSlider: j = dJointCreateSlider(H(w), H(g)); break;
    case dJointTypeContact: j = dJointCreateContact(H(w), H(g), c); break;
    case dJointTypeUniversal: j = dJointCreateUniversal(H(w), H(g)); break;
    case dJointTypeHinge2: j = dJointCreateHinge2(H(w), H(g)); break;
    case dJointTypeFixed: j = dJointCreateFixed(H(w), H(g)); break;
    case dJointTypeNull: j = dJointCreateNull(H(w), H(g)); break;
    case dJointTypeAMotor: j = dJointCreateAMotor(H(w), H(g)); break;
    case dJointTypeLMotor: j = dJointCreateLMotor(H(w), H(g)); break;
    case dJointTypePlane2D: j = dJointCreatePlane2D(H(w), H(g)); break;
    case dJointTypePR: j = dJointCreatePR(H(w), H(g)); break;
    case dJointTypePU: j = dJointCreatePU(H(w), H(g)); break;
    case dJointTypePiston: j = dJointCreatePiston(H(w), H(g)); break;
    case dJointTypeDBall: j = dJointCreateDBall(H(w), H(g)); break;
    case dJointTypeDHinge: j = dJointCreateDHinge(H(w), H(g)); break;
    default: j = dJointCreateTransmission(H(w), H(g)); break;
    }
    return obj_new(j, K_JOINT, type, w && w->alive ? (int)(w - objs) : -1);
}
static void op_joint_create(void) {
    if (count_live(K_JOINT) >= kind_cap[K_JOINT]) return;
    begin("dJointCreate*");
    Obj *w = pick(K_WORLD, 0);
    Obj *g = chance(60) ? NULL : pick(K_GROUP, 1);
    int type = jtypes[rn(NE(jtypes))];
    int fl_bad = cur.bad, fl_nf = cur.nonfinite, fl_dc = cur.dontcare;
    dContact c; rand_contact(&c);
    if (type != dJointTypeContact) { cur.bad = fl_bad; cur.nonfinite = fl_nf; cur.dontcare = fl_dc; }
    int nullc = type == dJointTypeContact && chance(5);
    if (nullc) cur.bad = 1;
    if (type == dJointTypeContact)
        TRACE("dJointCreateContact(%s, %s, %s mode 0x%x mu " G17 " depth " G17 " n0 " G17 " p1 " G17 " cfm " G17 ")", N(w), N(g), nullc ? "NULL" : "c",
              c.surface.mode, c.surface.mu, c.geom.depth, c.geom.normal[0], c.geom.pos[1], c.surface.soft_cfm);
    else TRACE("dJointCreate type %d (%s, %s)", type, N(w), N(g));
    Obj *o = NULL;
    CALL(o = make_joint(w, g, type, nullc ? NULL : &c));
    /* Attach most new joints at once. */
    if (o && chance(70)) {
        Obj *b1 = random_obj(K_BODY, 1, NULL), *b2 = random_obj(K_BODY, 1, NULL);
        if (b1 && b1->world == o->world && b2 && b2->world == o->world && b1 != b2) dJointAttach(o->h, b1->h, chance(20) ? NULL : b2->h);
        else if (b1 && b1->world == o->world) dJointAttach(o->h, b1->h, NULL);
    }
}
static void op_joint_destroy(void) {
    if (!chance(30)) return;
    begin("dJointDestroy");
    Obj *j = pick(K_JOINT, 0);
    TRACE("dJointDestroy(%s)", N(j));
    cur.may_destroy = 1;
    CALL(dJointDestroy(H(j)));
}
static void op_joint_attach(void) {
    begin("dJointAttach");
    Obj *j = pick(K_JOINT, 0);
    Obj *b1 = chance(15) ? NULL : pick(K_BODY, 1), *b2 = chance(30) ? NULL : pick(K_BODY, 1);
    if (b1 && b2 && b1 == b2) cur.bad = 1;
    if (j && j->alive && ((b1 && b1->alive && b1->kind == K_BODY && b1->world != j->world) || (b2 && b2->alive && b2->kind == K_BODY && b2->world != j->world)))
        cur.bad = 1; /* bodies of another world */
    TRACE("dJointAttach(%s, %s, %s)", N(j), N(b1), N(b2));
    CALL(dJointAttach(H(j), H(b1), H(b2)));
}
typedef void (*J3)(dJointID, dReal, dReal, dReal);
typedef struct { const char *n; int type; J3 f; int axis; } J3Ent;
static const J3Ent j3_tab[] = {
#define A(n, t, ax) { #n, t, n, ax }
    A(dJointSetBallAnchor, dJointTypeBall, 0), A(dJointSetBallAnchor2, dJointTypeBall, 0),
    A(dJointSetHingeAnchor, dJointTypeHinge, 0), A(dJointSetHingeAxis, dJointTypeHinge, 1),
    A(dJointSetSliderAxis, dJointTypeSlider, 1),
    A(dJointSetHinge2Anchor, dJointTypeHinge2, 0), A(dJointSetHinge2Axis1, dJointTypeHinge2, 1), A(dJointSetHinge2Axis2, dJointTypeHinge2, 1),
    A(dJointSetUniversalAnchor, dJointTypeUniversal, 0), A(dJointSetUniversalAxis1, dJointTypeUniversal, 1), A(dJointSetUniversalAxis2, dJointTypeUniversal, 1),
    A(dJointSetPRAnchor, dJointTypePR, 0), A(dJointSetPRAxis1, dJointTypePR, 1), A(dJointSetPRAxis2, dJointTypePR, 1),
    A(dJointSetPUAnchor, dJointTypePU, 0), A(dJointSetPUAxis1, dJointTypePU, 1), A(dJointSetPUAxis2, dJointTypePU, 1),
    A(dJointSetPUAxis3, dJointTypePU, 1), A(dJointSetPUAxisP, dJointTypePU, 1),
    A(dJointSetPistonAnchor, dJointTypePiston, 0), A(dJointSetPistonAxis, dJointTypePiston, 1),
    A(dJointSetTransmissionAxis1, dJointTypeTransmission, 1), A(dJointSetTransmissionAxis2, dJointTypeTransmission, 1),
    A(dJointSetTransmissionAnchor1, dJointTypeTransmission, 0), A(dJointSetTransmissionAnchor2, dJointTypeTransmission, 0),
    A(dJointSetTransmissionAxis, dJointTypeTransmission, 1),
    A(dJointSetDBallAnchor1, dJointTypeDBall, 0), A(dJointSetDBallAnchor2, dJointTypeDBall, 0),
    A(dJointSetDHingeAxis, dJointTypeDHinge, 1), A(dJointSetDHingeAnchor1, dJointTypeDHinge, 0), A(dJointSetDHingeAnchor2, dJointTypeDHinge, 0),
#undef A
};
typedef void (*J1)(dJointID, dReal);
static const struct { const char *n; int type; J1 f; } j1_tab[] = {
    { "dJointAddHingeTorque", dJointTypeHinge, dJointAddHingeTorque }, { "dJointAddSliderForce", dJointTypeSlider, dJointAddSliderForce },
    { "dJointAddPRTorque", dJointTypePR, dJointAddPRTorque }, { "dJointAddPUTorque", dJointTypePU, dJointAddPUTorque },
    { "dJointAddPistonForce", dJointTypePiston, dJointAddPistonForce },
    { "dJointSetTransmissionRatio", dJointTypeTransmission, dJointSetTransmissionRatio },
    { "dJointSetTransmissionRadius1", dJointTypeTransmission, dJointSetTransmissionRadius1 },
    { "dJointSetTransmissionRadius2", dJointTypeTransmission, dJointSetTransmissionRadius2 },
    { "dJointSetTransmissionBacklash", dJointTypeTransmission, dJointSetTransmissionBacklash },
    { "dJointSetDBallDistance", dJointTypeDBall, dJointSetDBallDistance },
};

static int joint_type_of(Obj *j) { return j && j->alive && j->kind == K_JOINT ? j->sub : -1; }
/* Is a function for joint type `want` bad on a joint of type `have`? A
 * DHinge is a DBall in ODE, and the DHinge anchor/param functions are the
 * DBall ones; ODE checks neither, so the pair is left undecided. */
static void check_type(int want, int have) {
    if (have < 0 || have == want) return;
    if ((want == dJointTypeDBall || want == dJointTypeDHinge) && (have == dJointTypeDBall || have == dJointTypeDHinge)) { cur.dontcare = 1; return; }
    cur.bad = 1;
}

static void op_joint_set(void) {
    begin("joint setter");
    int r = rn(100);
    Obj *j;
    /* Mostly a joint of the right type, sometimes any (wrong type is bad). */
    if (r < 40) {
        const J3Ent *e = &j3_tab[rn(NE(j3_tab))];
        cur.name = e->n;
        j = pick(K_JOINT, 0);
        if (chance(70)) { Obj *m = NULL; for (int t = 0; t < 8 && !m; t++) { Obj *c = random_obj(K_JOINT, 1, NULL); if (c && c->sub == e->type) m = c; }
            if (m) { cur.ntouched = 0; cur.bad = 0; j = m; touch(j); } }
        int jt = joint_type_of(j);
        check_type(e->type, jt);
        double x, y, z;
        if (e->axis && chance(10)) { x = y = z = 0; cur.dontcare = 1; }
        else if (chance(60)) { x = runi(-2, 2); y = runi(-2, 2); z = runi(-2, 2); } else { x = rfin(); y = rfin(); z = rfin(); }
        if (e->axis && !cur.nonfinite && fabs(x) + fabs(y) + fabs(z) < 1e-150) cur.dontcare = 1;
        if (e->axis && (fabs(x) > 1e150 || fabs(y) > 1e150 || fabs(z) > 1e150)) cur.dontcare = 1;
        /* all components subnormal: ODE's normalisation gives NaN too */
        if (e->axis && fmax(fabs(x), fmax(fabs(y), fabs(z))) < DBL_MIN) cur.ode_nan = 1;
        TRACE("%s(%s, " G17 ", " G17 ", " G17 ")", cur.name, N(j), x, y, z);
        CALL(e->f(H(j), x, y, z));
    } else if (r < 65) {
        const JPEnt *e = &jp_tab[rn(NJP)];
        cur.name = e->sname;
        j = pick(K_JOINT, 0);
        if (chance(70)) { Obj *m = NULL; for (int t = 0; t < 8 && !m; t++) { Obj *c = random_obj(K_JOINT, 1, NULL); if (c && c->sub == e->type) m = c; }
            if (m) { cur.ntouched = 0; cur.bad = 0; j = m; touch(j); } }
        int jt = joint_type_of(j);
        check_type(e->type, jt);
        int p;
        if (chance(85)) p = rn(dParamsInGroup) + 0x100 * rn(e->groups);
        else {
            static const int badp[] = { 14, 15, 0xff, -1, 0x300, 0x10e, 0x7fffffff };
            p = badp[rn(7)];
            if (EXCL_SILENT_BAD_VALUES) cur.dontcare = 1; else cur.bad = 1;
        }
        double v = chance(50) ? runi(-3, 3) : rreal();
        TRACE("%s(%s, %d, " G17 ")", cur.name, N(j), p, v);
        CALL(e->set(H(j), p, v));
    } else if (r < 73) {
        int i = rn(NE(j1_tab)); cur.name = j1_tab[i].n;
        j = pick(K_JOINT, 0);
        int want_type = j1_tab[i].type;
        if (chance(70)) { Obj *m = NULL; for (int t = 0; t < 8 && !m; t++) { Obj *c = random_obj(K_JOINT, 1, NULL); if (c && c->sub == j1_tab[i].type) m = c; }
            if (m) { cur.ntouched = 0; cur.bad = 0; j = m; touch(j); } }
        int jt = joint_type_of(j);
        check_type(want_type, jt);
        double v = rreal(); if (!cur.nonfinite && v <= 0 && strstr(cur.name, "Radius")) cur.dontcare = 1;
        if (isinf(v) && strstr(cur.name, "Add")) cur.bad = 1;
        if (strstr(cur.name, "Ratio") || strstr(cur.name, "Backlash") || strstr(cur.name, "Distance")) cur.dontcare = 1;
        TRACE("%s(%s, " G17 ")", cur.name, N(j), v);
        CALL(j1_tab[i].f(H(j), v));
    } else if (r < 88) {
        /* AMotor, LMotor, transmission mode, hinge2 axes, offsets, 2/3-torques. */
        j = pick(K_JOINT, 0);
        int jt = joint_type_of(j);
        int k = rn(12);
        int anum = chance(80) ? rn(3) : rint_any();
        double x = runi(-1, 1), y = runi(-1, 1), z = runi(-1, 1) + 0.1;
        if ((k == 1 || k == 2 || k == 5 || k >= 7) && k != 11 && chance(40)) x = rfin();
        int need = -1;
        switch (k) {
        case 0: cur.name = "dJointSetAMotorNumAxes"; need = dJointTypeAMotor; if (anum < 0 || anum > 3) cur.bad = 1;
            TRACE("%s(%s, %d)", cur.name, N(j), anum); if (jt >= 0 && jt != need) cur.bad = 1; CALL(dJointSetAMotorNumAxes(H(j), anum)); break;
        case 1: { cur.name = "dJointSetAMotorAxis"; need = dJointTypeAMotor; int rel = chance(80) ? rn(3) : rint_any();
            if (anum < 0 || anum > 2) cur.bad = 1;
            if (rel < 0 || rel > 2) cur.bad = 1;
            TRACE("%s(%s, %d, %d, " G17 ", " G17 ", " G17 ")", cur.name, N(j), anum, rel, x, y, z);
            if (jt >= 0 && jt != need) cur.bad = 1;
            CALL(dJointSetAMotorAxis(H(j), anum, rel, x, y, z)); break; }
        case 2: cur.name = "dJointSetAMotorAngle"; need = dJointTypeAMotor; if (anum < 0 || anum > 2) cur.bad = 1;
            TRACE("%s(%s, %d, " G17 ")", cur.name, N(j), anum, x); if (jt >= 0 && jt != need) cur.bad = 1;
            CALL(dJointSetAMotorAngle(H(j), anum, x)); break;
        case 3: { cur.name = "dJointSetAMotorMode"; need = dJointTypeAMotor; int m = chance(80) ? rn(2) : rint_any();
            if (m < 0 || m > 1) cur.bad = 1;
            TRACE("%s(%s, %d)", cur.name, N(j), m); if (jt >= 0 && jt != need) cur.bad = 1; CALL(dJointSetAMotorMode(H(j), m)); break; }
        case 4: cur.name = "dJointSetLMotorNumAxes"; need = dJointTypeLMotor; if (anum < 0 || anum > 3) cur.bad = 1;
            TRACE("%s(%s, %d)", cur.name, N(j), anum); if (jt >= 0 && jt != need) cur.bad = 1; CALL(dJointSetLMotorNumAxes(H(j), anum)); break;
        case 5: { cur.name = "dJointSetLMotorAxis"; need = dJointTypeLMotor; int rel = chance(80) ? rn(3) : rint_any();
            if (anum < 0 || anum > 2 || rel < 0 || rel > 2) cur.bad = 1;
            TRACE("%s(%s, %d, %d, " G17 ", " G17 ", " G17 ")", cur.name, N(j), anum, rel, x, y, z);
            if (jt >= 0 && jt != need) cur.bad = 1;
            CALL(dJointSetLMotorAxis(H(j), anum, rel, x, y, z)); break; }
        case 6: { cur.name = "dJointSetTransmissionMode"; need = dJointTypeTransmission; int m = chance(80) ? rn(3) : rint_any();
            if (m < 0 || m > 2) cur.bad = 1;
            TRACE("%s(%s, %d)", cur.name, N(j), m); if (jt >= 0 && jt != need) cur.bad = 1; CALL(dJointSetTransmissionMode(H(j), m)); break; }
        case 7: { cur.name = "dJointSetHinge2Axes"; need = dJointTypeHinge2; dReal a1[4] = { x, y, z, 0 }, a2[4] = { y, z, x, 0 };
            int n1 = chance(30), n2 = chance(30);
            TRACE("%s(%s, %s, %s)", cur.name, N(j), n1 ? "NULL" : "a1", n2 ? "NULL" : "a2");
            if (jt >= 0 && jt != need) cur.bad = 1;
            cur.dontcare = 1; /* parallel axes are ODE's assert */
            CALL(dJointSetHinge2Axes(H(j), n1 ? NULL : a1, n2 ? NULL : a2)); break; }
        case 8: { int t = rn(4); double ang = chance(80) ? runi(-3, 3) : rfin();
            static const char *nm[] = { "dJointSetHingeAxisOffset", "dJointSetUniversalAxis1Offset", "dJointSetUniversalAxis2Offset", "dJointSetPUAnchorOffset" };
            static const int ty[] = { dJointTypeHinge, dJointTypeUniversal, dJointTypeUniversal, dJointTypePU };
            cur.name = nm[t]; need = ty[t]; if (jt >= 0 && jt != need) cur.bad = 1; cur.dontcare = 1;
            TRACE("%s(%s, " G17 ", " G17 ", " G17 ", " G17 ")", cur.name, N(j), x, y, z, ang);
            if (t == 0) CALL(dJointSetHingeAxisOffset(H(j), x, y, z, ang));
            else if (t == 1) CALL(dJointSetUniversalAxis1Offset(H(j), x, y, z, ang, -ang));
            else if (t == 2) CALL(dJointSetUniversalAxis2Offset(H(j), x, y, z, ang, -ang));
            else CALL(dJointSetPUAnchorOffset(H(j), x, y, z, ang, -ang, ang));
            break; }
        case 9: { int t = rn(4); double d = chance(80) ? runi(-1, 1) : rfin();
            static const char *nm[] = { "dJointSetHingeAnchorDelta", "dJointSetSliderAxisDelta", "dJointSetPistonAnchorOffset", "dJointSetPUAnchorDelta" };
            static const int ty[] = { dJointTypeHinge, dJointTypeSlider, dJointTypePiston, dJointTypePU };
            cur.name = nm[t]; need = ty[t]; if (jt >= 0 && jt != need) cur.bad = 1; cur.dontcare = 1;
            TRACE("%s(%s, " G17 ", " G17 ", " G17 ", " G17 ", ...)", cur.name, N(j), x, y, z, d);
            if (t == 0) CALL(dJointSetHingeAnchorDelta(H(j), x, y, z, d, d, d));
            else if (t == 1) CALL(dJointSetSliderAxisDelta(H(j), x, y, z, d, d, d));
            else if (t == 2) CALL(dJointSetPistonAnchorOffset(H(j), x, y, z, d, d, d));
            else CALL(dJointSetPUAnchorDelta(H(j), x, y, z, d, d, d));
            break; }
        case 10: { int t = rn(3);
            static const char *nm[] = { "dJointAddHinge2Torques", "dJointAddUniversalTorques", "dJointAddAMotorTorques" };
            static const int ty[] = { dJointTypeHinge2, dJointTypeUniversal, dJointTypeAMotor };
            cur.name = nm[t]; need = ty[t]; if (jt >= 0 && jt != need) cur.bad = 1;
            TRACE("%s(%s, " G17 ", " G17 ", " G17 ")", cur.name, N(j), x, y, z);
            if (t == 0) CALL(dJointAddHinge2Torques(H(j), x, y));
            else if (t == 1) CALL(dJointAddUniversalTorques(H(j), x, y));
            else CALL(dJointAddAMotorTorques(H(j), x, y, z));
            break; }
        default:
            cur.name = "dJointSetFixed"; need = dJointTypeFixed; if (jt >= 0 && jt != need) cur.bad = 1;
            TRACE("dJointSetFixed(%s)", N(j)); CALL(dJointSetFixed(H(j))); break;
        }
    } else if (r < 94) {
        j = pick(K_JOINT, 0);
        int k = rn(4);
        static const char *nm[] = { "dJointEnable", "dJointDisable", "dJointSetFeedback", "dJointSetData" };
        cur.name = nm[k];
        TRACE("%s(%s)", cur.name, N(j));
        if (k == 0) CALL(dJointEnable(H(j)));
        else if (k == 1) CALL(dJointDisable(H(j)));
        else if (k == 2) CALL(dJointSetFeedback(H(j), chance(30) ? NULL : &feedbacks[rn(8)]));
        else CALL(dJointSetData(H(j), &feedbacks[3]));
    } else {
        /* getters with indices */
        j = pick(K_JOINT, 0);
        int jt = joint_type_of(j);
        int k = rn(5), idx = chance(70) ? rn(3) : rint_any();
        dVector3 out;
        if (k == 0) { cur.name = "dJointGetBody"; if (idx < 0 || idx > 1) cur.bad = 1; TRACE("dJointGetBody(%s, %d)", N(j), idx); CALL((void)dJointGetBody(H(j), idx)); }
        else if (k == 1) { cur.name = "dJointGetAMotorAxis"; if (jt >= 0 && jt != dJointTypeAMotor) cur.bad = 1; if (idx < 0 || idx > 2) cur.bad = 1;
            TRACE("dJointGetAMotorAxis(%s, %d)", N(j), idx); CALL(dJointGetAMotorAxis(H(j), idx, out)); }
        else if (k == 2) { cur.name = "dJointGetAMotorAngle"; if (jt >= 0 && jt != dJointTypeAMotor) cur.bad = 1; if (idx < 0 || idx > 2) cur.bad = 1;
            TRACE("dJointGetAMotorAngle(%s, %d)", N(j), idx); CALL((void)dJointGetAMotorAngle(H(j), idx)); }
        else if (k == 3) { cur.name = "dJointGetLMotorAxis"; if (jt >= 0 && jt != dJointTypeLMotor) cur.bad = 1; if (idx < 0 || idx > 2) cur.bad = 1;
            TRACE("dJointGetLMotorAxis(%s, %d)", N(j), idx); CALL(dJointGetLMotorAxis(H(j), idx, out)); }
        else { const JVEnt *e = &jv_tab[rn(NJV)]; cur.name = e->name; check_type(e->type, jt);
            int nullout = chance(5); if (nullout) cur.bad = 1;
            TRACE("%s(%s, %s)", cur.name, N(j), nullout ? "NULL" : "out"); CALL(e->fn(H(j), nullout ? NULL : out)); }
    }
}

static void op_group(void) {
    int r = rn(10);
    if (r < 3 && count_live(K_GROUP) < kind_cap[K_GROUP]) {
        begin("dJointGroupCreate"); int n = chance(80) ? rn(10) : rint_any();
        TRACE("dJointGroupCreate(%d)", n);
        dJointGroupID g = NULL; CALL(g = dJointGroupCreate(n)); obj_new(g, K_GROUP, 0, -1);
    } else if (r < 8) {
        begin("dJointGroupEmpty"); Obj *g = pick(K_GROUP, 0); TRACE("dJointGroupEmpty(%s)", N(g));
        cur.may_destroy = 1; CALL(dJointGroupEmpty(H(g)));
    } else {
        begin("dJointGroupDestroy"); Obj *g = pick(K_GROUP, 0); TRACE("dJointGroupDestroy(%s)", N(g));
        cur.may_destroy = 1;
        long r0 = rep_uassert;
        CALL(dJointGroupDestroy(H(g)));
        if (g && g->alive && g->kind == K_GROUP && rep_uassert == r0) g->alive = 0; /* no getter tells a group's death */
    }
}
static void op_connect(void) {
    begin("connectivity");
    Obj *a = pick(K_BODY, 1), *b = pick(K_BODY, 1);
    int r = rn(4);
    if (r == 0) { cur.name = "dAreConnected"; if (!a) cur.bad = 1; TRACE("dAreConnected(%s, %s)", N(a), N(b)); CALL((void)dAreConnected(H(a), H(b))); }
    else if (r == 1) { cur.name = "dAreConnectedExcluding"; int t = chance(80) ? rn(18) : rint_any();
        if (!a) cur.bad = 1;
        if (t < 0 || t > 17) cur.dontcare = 1; /* excludes nothing, as in ODE: silent by design */
        TRACE("dAreConnectedExcluding(%s, %s, %d)", N(a), N(b), t); CALL((void)dAreConnectedExcluding(H(a), H(b), t)); }
    /* ODE swaps a NULL first body with the second; only both NULL is bad. */
    else if (r == 2) { cur.name = "dConnectingJoint"; if (!a && !b) cur.bad = 1;
        TRACE("dConnectingJoint(%s, %s)", N(a), N(b)); CALL((void)dConnectingJoint(H(a), H(b))); }
    else { cur.name = "dConnectingJointList"; dJointID list[MAXOBJ]; int nullout = chance(5);
        if (nullout) cur.bad = 1;
        if (!a && !b) cur.bad = 1;
        TRACE("dConnectingJointList(%s, %s, %s)", N(a), N(b), nullout ? "NULL" : "list");
        CALL((void)dConnectingJointList(H(a), H(b), nullout ? NULL : list)); }
}

/* ---- geoms and spaces */
static const double cube_planes[] = { 1, 0, 0, 1, -1, 0, 0, 1, 0, 1, 0, 1, 0, -1, 0, 1, 0, 0, 1, 1, 0, 0, -1, 1 };
static const double cube_points[] = { 1, 1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1, 1, 1, -1, -1, 1, -1, -1, -1, -1, 1, -1, -1 };
static const unsigned cube_polys[] = { 4, 0, 3, 7, 4, 4, 1, 5, 6, 2, 4, 0, 4, 5, 1, 4, 3, 2, 6, 7, 4, 0, 1, 2, 3, 4, 4, 7, 6, 5 };
/* 64 slots referenced by accepted convexes (ODE keeps the host's arrays),
 * plus slot 64 for inputs that must be refused, so that a refused call's
 * NaN or bad index never lands in arrays a live convex reads. */
static double cvx_planes[65][24];
static double cvx_points[65][24];
static unsigned cvx_polys[65][30];
static int cvx_next;

static dReal hf_cb(void *data, int x, int z);
static int tri_cb(dGeomID m, dGeomID o, int idx);
static void tri_array_cb(dGeomID m, dGeomID o, const int *idx, int n);
static int tri_ray_cb(dGeomID m, dGeomID r, int idx, dReal u, dReal v);
static int tri_merge_cb(dGeomID m, int a, int b);

/* A slot no live convex reads, so that a new convex never rewrites the
 * points of an older one behind the library's back (at most 40 geoms live). */
static int cvx_free_slot(int start) {
    for (int t = 0; t < 64; t++) {
        int s = (start + t) & 63, used = 0;
        for (int i = 0; i < nobj && !used; i++) used = objs[i].alive && objs[i].cvx == cvx_points[s];
        if (!used) return s;
    }
    return start & 63;
}

static void convex_args(const double **pl, unsigned *npl, const double **pt, unsigned *npt, const unsigned **po) {
    const int keep = cvx_free_slot(cvx_next++), k = 64;
    const int bad_before = cur.bad;
    cur.bad = 0; /* set below when these arrays are bad */
    memcpy(cvx_planes[k], cube_planes, sizeof cube_planes);
    memcpy(cvx_points[k], cube_points, sizeof cube_points);
    memcpy(cvx_polys[k], cube_polys, sizeof cube_polys);
    int was_bad = cur.bad, was_nonfinite = cur.nonfinite;
    double s = chance(80) ? runi(0.2, 1.5) : (EXCL_SILENT_BAD_VALUES ? fabs(rreal_w(0)) : fabs(rfin()));
    (void)was_bad; (void)was_nonfinite;
    for (int i = 0; i < 24; i++) cvx_points[k][i] *= s;
    for (int i = 0; i < 6; i++) cvx_planes[k][i * 4 + 3] *= s;
    *npl = 6; *npt = 8;
    if (!EXCL_CONVEX_BAD_POLYGONS && chance(10)) {
        int at = 1 + rn(20);
        unsigned v = chance(50) ? 8 + (unsigned)rn(5) : 0xffffffffu;
        cvx_polys[k][at] = v;
        /* Slots 5, 10, 15, 20 hold vertex counts: a count of 8 (= the
         * point count) re-reads the following entries as one polygon of 8
         * valid indices, which ODE accepts too. */
        if (at % 5 == 0 && v == 8) cur.dontcare = 1; else cur.bad = 1;
    }
    if (!EXCL_SILENT_BAD_VALUES && chance(5)) { cvx_points[k][rn(24)] = NAN; cur.bad = 1; cur.nonfinite = 1; }
    if (!EXCL_CONVEX_BAD_POLYGONS && chance(3)) { *npl = 0; cur.bad = 1; }
    int slot = k;
    const int bad_here = cur.bad;
    cur.bad |= bad_before;
    if (!bad_here) {
        /* Expected to be accepted: give it a slot of its own. */
        memcpy(cvx_planes[keep], cvx_planes[k], sizeof cvx_planes[k]);
        memcpy(cvx_points[keep], cvx_points[k], sizeof cvx_points[k]);
        memcpy(cvx_polys[keep], cvx_polys[k], sizeof cvx_polys[k]);
        slot = keep;
    }
    *pl = cvx_planes[slot]; *pt = cvx_points[slot]; *po = cvx_polys[slot];
}

static Obj *new_tmdata_built(void);
static int is_hfdata(Obj *o) { (void)o; return 1; }

static void op_geom_create(void) {
    if (count_live(K_GEOM) >= kind_cap[K_GEOM]) return;
    begin("dCreate*");
    Obj *s = chance(80) ? pick_space(1) : NULL;
    int cls = rn(14);
    dGeomID g = NULL;
    const double *new_cvx = NULL;
    switch (cls) {
    case 0: { cur.name = "dCreateSphere"; double r = rsize(); TRACE("dCreateSphere(%s, " G17 ")", N(s), r); CALL(g = dCreateSphere(H(s), r)); break; }
    case 1: { cur.name = "dCreateBox"; double a = rsize(), b = rsize(), c = rsize(); TRACE("dCreateBox(%s, " G17 ", " G17 ", " G17 ")", N(s), a, b, c); CALL(g = dCreateBox(H(s), a, b, c)); break; }
    case 2: { cur.name = "dCreateCapsule"; double a = rsize(), b = rsize(); TRACE("dCreateCapsule(%s, " G17 ", " G17 ")", N(s), a, b); CALL(g = dCreateCapsule(H(s), a, b)); break; }
    case 3: { cur.name = "dCreateCylinder"; double a = rsize(), b = rsize(); TRACE("dCreateCylinder(%s, " G17 ", " G17 ")", N(s), a, b); CALL(g = dCreateCylinder(H(s), a, b)); break; }
    case 4: { cur.name = "dCreatePlane"; double a = 0, b = 0, c = 1, d = chance(70) ? 0 : rfin();
        if (chance(20)) { a = rfin(); b = rfin(); c = rfin(); }
        if (a == 0 && b == 0 && c == 0) { if (EXCL_SILENT_BAD_VALUES) cur.dontcare = 1; else cur.bad = 1; }
        if (!cur.nonfinite && fabs(a) + fabs(b) + fabs(c) < 1e-100) cur.dontcare = 1;
        if (!cur.nonfinite && (fabs(a) > 1e150 || fabs(b) > 1e150 || fabs(c) > 1e150)) cur.dontcare = 1;
        TRACE("dCreatePlane(%s, " G17 ", " G17 ", " G17 ", " G17 ")", N(s), a, b, c, d); CALL(g = dCreatePlane(H(s), a, b, c, d)); break; }
    case 5: { cur.name = "dCreateRay"; double l = chance(80) ? runi(0.1, 5) : rreal(); if (isinf(l) && EXCL_SILENT_BAD_VALUES) { l = 5; cur.nonfinite = 0; cur.dontcare = 0; } if (!isnan(l) && l < 0) cur.dontcare = 1;
        TRACE("dCreateRay(%s, " G17 ")", N(s), l); CALL(g = dCreateRay(H(s), l)); break; }
    case 6: { cur.name = "dCreateConvex"; const double *pl, *pt; const unsigned *po; unsigned npl, npt;
        convex_args(&pl, &npl, &pt, &npt, &po);
        TRACE("dCreateConvex(%s, planes %u, points %u)", N(s), npl, npt);
        CALL(g = dCreateConvex(H(s), pl, npl, pt, npt, po)); new_cvx = pt; break; }
    case 7: { cur.name = "dCreateGeomTransform"; TRACE("dCreateGeomTransform(%s)", N(s)); CALL(g = dCreateGeomTransform(H(s))); break; }
    case 8: { cur.name = "dCreateHeightfield"; Obj *d = pick_f(K_HFDATA, 0, is_hfdata); int pl = rn(2);
        TRACE("dCreateHeightfield(%s, %s, %d)", N(s), N(d), pl); CALL(g = dCreateHeightfield(H(s), H(d), pl)); break; }
    case 9: { cur.name = "dCreateTriMesh"; Obj *d = chance(10) ? pick(K_TMDATA, 1) : new_tmdata_built();
        if (d) touch(d);
        int cbs = rn(8);
        TRACE("dCreateTriMesh(%s, %s, cbs %d)", N(s), N(d), cbs);
        CALL(g = dCreateTriMesh(H(s), H(d), (cbs & 1) ? tri_cb : NULL, (cbs & 2) ? tri_array_cb : NULL, (cbs & 4) ? tri_ray_cb : NULL));
        break; }
    case 10: {
        if (user_class < 0) return;
        cur.name = "dCreateGeom"; cur.bad = 0; cur.ntouched = 0; int c = chance(90) ? user_class : rint_any();
        if (c != user_class) cur.bad = 1;
        if (c >= 0 && c < dFirstUserClass) cur.dontcare = 1; /* ODE creates built-in classes' objects raw */
        if (c >= 0 && c < dFirstUserClass) return;
        TRACE("dCreateGeom(%d)", c); CALL(g = dCreateGeom(c));
        if (g && s && s->alive && is_space_obj(s)) dSpaceAdd(s->h, g);
        break; }
    default: {
        /* spaces */
        int k = rn(4);
        if (k == 0) { cur.name = "dSimpleSpaceCreate"; TRACE("dSimpleSpaceCreate(%s)", N(s)); CALL(g = (dGeomID)dSimpleSpaceCreate(H(s))); cls = dSimpleSpaceClass; }
        else if (k == 1) { cur.name = "dHashSpaceCreate"; TRACE("dHashSpaceCreate(%s)", N(s)); CALL(g = (dGeomID)dHashSpaceCreate(H(s))); cls = dHashSpaceClass; }
        else if (k == 2) { cur.name = "dQuadTreeSpaceCreate"; dVector3 c = { 0, 0, 0 }, e = { 10, 10, 10 };
            int depth = chance(85) ? 1 + rn(5) : rint_any();
            if (depth < 0) cur.bad = 1; /* depth 0 is one block in ODE too */
            if (depth > 12) cur.dontcare = 1;
            if (chance(10)) { e[rn(3)] = rreal(); if (!isnan(e[0] + e[1] + e[2]) && !cur.nonfinite) cur.dontcare = 1; }
            TRACE("dQuadTreeSpaceCreate(%s, c, e " G17 " " G17 " " G17 ", %d)", N(s), e[0], e[1], e[2], depth);
            CALL(g = (dGeomID)dQuadTreeSpaceCreate(H(s), c, e, depth)); cls = dQuadTreeSpaceClass; }
        else { cur.name = "dSweepAndPruneSpaceCreate"; int ax = chance(80) ? dSAP_AXES_XYZ + rn(6) : rint_any();
            static const int valid[] = { dSAP_AXES_XYZ, dSAP_AXES_XZY, dSAP_AXES_YXZ, dSAP_AXES_YZX, dSAP_AXES_ZXY, dSAP_AXES_ZYX };
            int ok = 0; for (int i = 0; i < 6; i++) ok |= ax == valid[i];
            if (!ok) cur.dontcare = 1;
            TRACE("dSweepAndPruneSpaceCreate(%s, %d)", N(s), ax); CALL(g = (dGeomID)dSweepAndPruneSpaceCreate(H(s), ax)); cls = dSweepAndPruneSpaceClass; }
        cls = g ? dGeomGetClass(g) : cls;
        obj_new(g, K_GEOM, cls, -1);
        return;
    }
    }
    if (g) {
        int c = dGeomGetClass(g);
        Obj *o = obj_new(g, K_GEOM, c, -1);
        if (o && c == dConvexClass) o->cvx = new_cvx;
        if (c != dPlaneClass && chance(60)) dGeomSetPosition(g, runi(-3, 3), runi(-3, 3), runi(-1, 3));
        if (c != dPlaneClass && chance(40)) { Obj *b = random_obj(K_BODY, 1, NULL); if (b) dGeomSetBody(g, b->h); }
    }
}

static void op_geom_destroy(void) {
    if (!chance(25)) return;
    begin("dGeomDestroy");
    Obj *g = pick(K_GEOM, 0);
    int asspace = g && is_space_obj(g) && chance(50);
    cur.name = asspace ? "dSpaceDestroy" : "dGeomDestroy";
    TRACE("%s(%s)", cur.name, N(g));
    cur.may_destroy = 1;
    if (asspace) CALL(dSpaceDestroy(H(g)));
    else CALL(dGeomDestroy(H(g)));
}

static int geom_placeable(Obj *g) { return g && g->alive && g->kind == K_GEOM && g->sub != dPlaneClass && !is_space_obj(g); }

static void op_geom_set(void) {
    begin("geom setter");
    Obj *g = pick(K_GEOM, 0);
    int live = g && g->alive && g->kind == K_GEOM;
    int cls = live ? g->sub : -1;
    int r = rn(100);
    if (r < 25) {
        static const char *nm[] = { "dGeomSetPosition", "dGeomSetOffsetPosition", "dGeomSetOffsetWorldPosition" };
        int k = chance(70) ? 0 : 1 + rn(2);
        cur.name = nm[k];
        double x = chance(70) ? runi(-3, 3) : rfin(), y = chance(70) ? runi(-3, 3) : rfin(), z = chance(70) ? runi(-1, 3) : rfin();
        if (live && !geom_placeable(g)) cur.bad = 1;
        if (k && live && !dGeomGetBody(g->h)) cur.bad = 1;
        TRACE("%s(%s, " G17 ", " G17 ", " G17 ")", cur.name, N(g), x, y, z);
        if (k == 0) CALL(dGeomSetPosition(H(g), x, y, z));
        else if (k == 1) CALL(dGeomSetOffsetPosition(H(g), x, y, z));
        else CALL(dGeomSetOffsetWorldPosition(H(g), x, y, z));
    } else if (r < 35) {
        int k = rn(6);
        static const char *nm[] = { "dGeomSetRotation", "dGeomSetQuaternion", "dGeomSetOffsetRotation", "dGeomSetOffsetQuaternion", "dGeomSetOffsetWorldRotation", "dGeomSetOffsetWorldQuaternion" };
        cur.name = nm[k];
        dMatrix3 R; dQuaternion q; if (k & 1) rand_quat(q); else rand_rot(R);
        if (live && !geom_placeable(g)) cur.bad = 1;
        if (k >= 2 && live && !dGeomGetBody(g->h)) cur.bad = 1;
        TRACE("%s(%s, ...)", cur.name, N(g));
        switch (k) {
        case 0: CALL(dGeomSetRotation(H(g), R)); break;
        case 1: CALL(dGeomSetQuaternion(H(g), q)); break;
        case 2: CALL(dGeomSetOffsetRotation(H(g), R)); break;
        case 3: CALL(dGeomSetOffsetQuaternion(H(g), q)); break;
        case 4: CALL(dGeomSetOffsetWorldRotation(H(g), R)); break;
        default: CALL(dGeomSetOffsetWorldQuaternion(H(g), q)); break;
        }
    } else if (r < 45) {
        cur.name = "dGeomSetBody";
        Obj *b = pick(K_BODY, 1);
        if (live && !geom_placeable(g) && b) cur.bad = 1;
        if (live && b && cls == dTriMeshClass) cur.dontcare = 1;
        TRACE("dGeomSetBody(%s, %s)", N(g), N(b));
        CALL(dGeomSetBody(H(g), H(b)));
    } else if (r < 55) {
        int k = rn(7);
        static const char *nm[] = { "dGeomSetCategoryBits", "dGeomSetCollideBits", "dGeomEnable", "dGeomDisable", "dGeomClearOffset", "dGeomSetData", "dGeomLowLevelControl" };
        cur.name = nm[k];
        unsigned long bits = chance(70) ? ~0ul : (unsigned long)rnd();
        if (k == 4 && live && !geom_placeable(g)) cur.bad = 1;
        if (k == 3 && EXCL_SAP_DISABLED_PAIR && live) {
            dSpaceID sp = dGeomGetSpace(g->h);
            if (sp && dGeomGetClass((dGeomID)sp) == dSweepAndPruneSpaceClass) { cur.excluded = 1; }
        }
        TRACE("%s(%s, %lx)", cur.name, N(g), bits);
        if (cur.excluded) { n_excluded++; return; }
        switch (k) {
        case 0: CALL(dGeomSetCategoryBits(H(g), bits)); break;
        case 1: CALL(dGeomSetCollideBits(H(g), bits)); break;
        case 2: CALL(dGeomEnable(H(g))); break;
        case 3: CALL(dGeomDisable(H(g))); break;
        case 4: CALL(dGeomClearOffset(H(g))); break;
        case 5: CALL(dGeomSetData(H(g), &feedbacks[4])); break;
        default: { int size = chance(50) ? 0 : rint_any(); char buf[64]; int cc = rint_any(), code = rint_any();
            cur.dontcare = 1;
            CALL((void)dGeomLowLevelControl(H(g), cc, code, chance(10) ? NULL : buf, chance(10) ? NULL : &size)); break; }
        }
    } else if (r < 80) {
        /* class-specific setters; a geom of another class is bad */
        int want = rn(10);
        static const int uses[10] = { 1, 7, 3, 3, 0, 0, 0, 0, 0, 0 };
        double a = 1, b = 1, c = 1;
        if (uses[want] & 1) a = chance(70) ? runi(0.05, 2) : rsize();
        if (uses[want] & 2) b = chance(70) ? runi(0.05, 2) : rsize();
        if (uses[want] & 4) c = chance(70) ? runi(0.05, 2) : rsize();
        switch (want) {
        case 0: cur.name = "dGeomSphereSetRadius"; if (live && cls != dSphereClass) cur.bad = 1;
            TRACE("%s(%s, " G17 ")", cur.name, N(g), a); CALL(dGeomSphereSetRadius(H(g), a)); break;
        case 1: cur.name = "dGeomBoxSetLengths"; if (live && cls != dBoxClass) cur.bad = 1;
            TRACE("%s(%s, " G17 ", " G17 ", " G17 ")", cur.name, N(g), a, b, c); CALL(dGeomBoxSetLengths(H(g), a, b, c)); break;
        case 2: cur.name = "dGeomCapsuleSetParams"; if (live && cls != dCapsuleClass) cur.bad = 1;
            TRACE("%s(%s, " G17 ", " G17 ")", cur.name, N(g), a, b); CALL(dGeomCapsuleSetParams(H(g), a, b)); break;
        case 3: cur.name = "dGeomCylinderSetParams"; if (live && cls != dCylinderClass) cur.bad = 1;
            TRACE("%s(%s, " G17 ", " G17 ")", cur.name, N(g), a, b); CALL(dGeomCylinderSetParams(H(g), a, b)); break;
        case 4: { cur.name = "dGeomPlaneSetParams"; if (live && cls != dPlaneClass) cur.bad = 1;
            double x = runi(-1, 1), y = runi(-1, 1), z = 1, d = chance(70) ? runi(-1, 1) : rfin();
            TRACE("%s(%s, " G17 ", " G17 ", " G17 ", " G17 ")", cur.name, N(g), x, y, z, d); CALL(dGeomPlaneSetParams(H(g), x, y, z, d)); break; }
        case 5: { cur.name = "dGeomRaySetLength"; if (live && cls != dRayClass) cur.bad = 1; double l = chance(70) ? runi(0, 5) : rreal(); if (isinf(l)) { if (EXCL_SILENT_BAD_VALUES) { l = 5; cur.nonfinite = 0; } else cur.bad = 1; }
            if (!isnan(l) && l < 0) { if (EXCL_SILENT_BAD_VALUES) cur.dontcare = 1; else cur.bad = 1; }
            TRACE("%s(%s, " G17 ")", cur.name, N(g), l); CALL(dGeomRaySetLength(H(g), l)); break; }
        case 6: { cur.name = "dGeomRaySet"; if (live && cls != dRayClass) cur.bad = 1;
            double v[6]; for (int i = 0; i < 6; i++) v[i] = chance(85) ? runi(-2, 2) : rfin();
            if (!cur.nonfinite && fabs(v[3]) + fabs(v[4]) + fabs(v[5]) < 1e-100) cur.dontcare = 1;
            if (!cur.nonfinite && (fabs(v[3]) > 1e150 || fabs(v[4]) > 1e150 || fabs(v[5]) > 1e150)) cur.dontcare = 1;
            TRACE("%s(%s, " G17 ", " G17 ", " G17 ", " G17 ", " G17 ", " G17 ")", cur.name, N(g), v[0], v[1], v[2], v[3], v[4], v[5]);
            CALL(dGeomRaySet(H(g), v[0], v[1], v[2], v[3], v[4], v[5])); break; }
        case 7: { int k = rn(4), v = chance(80) ? rn(2) : rint_any();
            static const char *nm[] = { "dGeomRaySetFirstContact", "dGeomRaySetBackfaceCull", "dGeomRaySetClosestHit", "dGeomRaySetParams" };
            cur.name = nm[k]; if (live && cls != dRayClass) cur.bad = 1;
            TRACE("%s(%s, %d)", cur.name, N(g), v);
            if (k == 0) CALL(dGeomRaySetFirstContact(H(g), v)); else if (k == 1) CALL(dGeomRaySetBackfaceCull(H(g), v));
            else if (k == 2) CALL(dGeomRaySetClosestHit(H(g), v)); else CALL(dGeomRaySetParams(H(g), v, !v));
            break; }
        case 8: { cur.name = "dGeomSetConvex"; if (live && cls != dConvexClass) cur.bad = 1;
            const double *pl, *pt; const unsigned *po; unsigned npl, npt; convex_args(&pl, &npl, &pt, &npt, &po);
            TRACE("%s(%s, planes %u, points %u)", cur.name, N(g), npl, npt); CALL(dGeomSetConvex(H(g), pl, npl, pt, npt, po));
            if (g && live && cls == dConvexClass && !last_refused) g->cvx = pt;
            break; }
        default: { /* transforms */
            int k = rn(3);
            if (k == 0) {
                cur.name = "dGeomTransformSetGeom";
                if (live && cls != dGeomTransformClass) cur.bad = 1;
                Obj *c2 = chance(15) ? NULL : pick(K_GEOM, 1);
                if (c2 && c2->alive && c2->kind == K_GEOM) {
                    int hazard = is_space_obj(c2) || c2->sub == dGeomTransformClass || dGeomGetSpace(c2->h) != NULL || dGeomGetBody(c2->h) != NULL;
                    if (c2 == g) hazard = 1;
                    if (hazard && EXCL_TRANSFORM_CYCLES) { cur.excluded = 1; TRACE("(excluded) dGeomTransformSetGeom(%s, %s)", N(g), N(c2)); n_excluded++; return; }
                    if (is_space_obj(c2) || dGeomGetSpace(c2->h)) cur.bad = 1;
                    if (dGeomGetBody(c2->h)) cur.dontcare = 1;
                }
                /* a geom held by a transform is later refused by dSpaceAdd; the exclusion also keeps it out of spaces */
                TRACE("%s(%s, %s)", cur.name, N(g), N(c2));
                CALL(dGeomTransformSetGeom(H(g), H(c2)));
            } else if (k == 1) {
                cur.name = "dGeomTransformSetCleanup"; if (live && cls != dGeomTransformClass) cur.bad = 1; int v = rn(2);
                TRACE("%s(%s, %d)", cur.name, N(g), v); CALL(dGeomTransformSetCleanup(H(g), v));
            } else {
                cur.name = "dGeomTransformSetInfo"; if (live && cls != dGeomTransformClass) cur.bad = 1; int v = chance(80) ? rn(2) : rint_any();
                if (v < 0 || v > 1) cur.dontcare = 1;
                TRACE("%s(%s, %d)", cur.name, N(g), v); CALL(dGeomTransformSetInfo(H(g), v));
            }
        } }
    } else {
        /* getters and point queries */
        int k = rn(8);
        dVector3 out; double x = chance(80) ? runi(-3, 3) : rfin(), y = runi(-3, 3), z = runi(-3, 3);
        static const char *nm[] = { "dGeomGetRelPointPos", "dGeomGetPosRelPoint", "dGeomVectorToWorld", "dGeomVectorFromWorld",
                                    "dGeomSpherePointDepth", "dGeomBoxPointDepth", "dGeomCapsulePointDepth", "dGeomPlanePointDepth" };
        cur.name = nm[k];
        /* ODE returns the point unchanged for a non-placeable geom. */
        if (k < 4 && live && !geom_placeable(g)) cur.dontcare = 1;
        static const int want[] = { -1, -1, -1, -1, dSphereClass, dBoxClass, dCapsuleClass, dPlaneClass };
        if (k >= 4 && live && cls != want[k]) cur.bad = 1;
        TRACE("%s(%s, " G17 ", " G17 ", " G17 ")", cur.name, N(g), x, y, z);
        double d = 0;
        switch (k) {
        case 0: CALL(dGeomGetRelPointPos(H(g), x, y, z, out)); break;
        case 1: CALL(dGeomGetPosRelPoint(H(g), x, y, z, out)); break;
        case 2: CALL(dGeomVectorToWorld(H(g), x, y, z, out)); break;
        case 3: CALL(dGeomVectorFromWorld(H(g), x, y, z, out)); break;
        case 4: CALL(d = dGeomSpherePointDepth(H(g), x, y, z)); break;
        case 5: CALL(d = dGeomBoxPointDepth(H(g), x, y, z)); break;
        case 6: CALL(d = dGeomCapsulePointDepth(H(g), x, y, z)); break;
        default: CALL(d = dGeomPlanePointDepth(H(g), x, y, z)); break;
        }
        if (k >= 4 && !cur.bad && !cur.nonfinite && isnan(d) && !h_before.nonfinite && !h_before.extreme) finding("nan", "point depth of finite input is NaN");
    }
}

static void op_space(void) {
    begin("space op");
    Obj *s = pick_space(0);
    int live = s && s->alive && is_space_obj(s);
    int r = rn(10);
    if (r < 3) {
        Obj *g = pick(K_GEOM, 0);
        if (g && g->alive && g->kind == K_GEOM && dGeomGetSpace(g->h)) cur.bad = 1; /* already in a space */
        if (g && g == s) cur.bad = 1;
        if (g && g->alive && g->kind == K_GEOM && EXCL_TRANSFORM_CYCLES) {
            /* a geom held by a transform, or a space into its own descendant */
            for (int i = 0; i < nobj; i++)
                if (objs[i].alive && objs[i].kind == K_GEOM && objs[i].sub == dGeomTransformClass && dGeomTransformGetGeom(objs[i].h) == g->h) cur.excluded = 1;
            if (is_space_obj(g) && live) for (dSpaceID p = (dSpaceID)s->h; p; p = dGeomGetSpace((dGeomID)p)) if ((void *)p == g->h) cur.bad = 1;
        }
        TRACE("dSpaceAdd(%s, %s)", N(s), N(g));
        cur.name = "dSpaceAdd";
        if (cur.excluded) { n_excluded++; return; }
        CALL(dSpaceAdd(H(s), H(g)));
    } else if (r < 5) {
        Obj *g = pick(K_GEOM, 0);
        if (live && g && g->alive && g->kind == K_GEOM && dGeomGetSpace(g->h) != (dSpaceID)s->h) cur.bad = 1;
        cur.name = "dSpaceRemove"; TRACE("dSpaceRemove(%s, %s)", N(s), N(g));
        CALL(dSpaceRemove(H(s), H(g)));
    } else if (r < 6) {
        Obj *g = pick(K_GEOM, 0);
        cur.name = "dSpaceQuery"; TRACE("dSpaceQuery(%s, %s)", N(s), N(g)); CALL((void)dSpaceQuery(H(s), H(g)));
    } else if (r < 7) {
        int i = chance(70) ? rn(5) : rint_any();
        int n = live ? dSpaceGetNumGeoms(s->h) : 0;
        if (i < 0 || i >= n) cur.bad = 1;
        cur.name = "dSpaceGetGeom"; TRACE("dSpaceGetGeom(%s, %d)", N(s), i); CALL((void)dSpaceGetGeom(H(s), i));
    } else if (r < 9) {
        int k = rn(5), v = chance(80) ? rn(3) : rint_any();
        static const char *nm[] = { "dSpaceSetCleanup", "dSpaceSetSublevel", "dSpaceSetManualCleanup", "dHashSpaceSetLevels", "dSpaceClean" };
        cur.name = nm[k];
        if (k == 3) {
            int a = chance(80) ? rn(8) - 4 : rint_any(), b = chance(80) ? rn(8) - 2 : rint_any();
            if (live && s->sub != dHashSpaceClass) cur.bad = 1;
            if (a > b) cur.bad = 1;
            if (a < -1000 || b > 1000) cur.dontcare = 1;
            TRACE("dHashSpaceSetLevels(%s, %d, %d)", N(s), a, b);
            CALL(dHashSpaceSetLevels(H(s), a, b));
        } else {
            TRACE("%s(%s, %d)", cur.name, N(s), v);
            if (k == 0) CALL(dSpaceSetCleanup(H(s), v));
            else if (k == 1) CALL(dSpaceSetSublevel(H(s), v));
            else if (k == 2) CALL(dSpaceSetManualCleanup(H(s), v));
            else CALL(dSpaceClean(H(s)));
        }
    } else {
        cur.name = "space getters"; TRACE("space getters(%s)", N(s));
        CALL((void)dSpaceGetNumGeoms(H(s)); (void)dSpaceGetClass(H(s)));
    }
}

/* ---- collision */
static dContact cbuf[64];
static int cb_mode;
static Obj *cb_world, *cb_group;
static int nan_source; /* a callback fed non-finite data to the library in this call */

/* One line about a geom, for NaN-contact reports. */
static void describe_geom(const char *tag, dGeomID g) {
    if (!g || dGeomIsSpace(g)) { printf("  %s: %s\n", tag, g ? "space" : "NULL"); return; }
    int cls = dGeomGetClass(g);
    printf("  %s: class %d", tag, cls);
    if (cls != dPlaneClass) {
        const dReal *p = dGeomGetPosition(g), *R = dGeomGetRotation(g);
        printf(" pos %.17g %.17g %.17g R %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g", p[0], p[1], p[2], R[0], R[1], R[2], R[4], R[5], R[6], R[8], R[9], R[10]);
    }
    switch (cls) {
    case dSphereClass: printf(" r %.17g", dGeomSphereGetRadius(g)); break;
    case dBoxClass: { dVector3 l; dGeomBoxGetLengths(g, l); printf(" lengths %.17g %.17g %.17g", l[0], l[1], l[2]); break; }
    case dCapsuleClass: { dReal r, l; dGeomCapsuleGetParams(g, &r, &l); printf(" r %.17g l %.17g", r, l); break; }
    case dCylinderClass: { dReal r, l; dGeomCylinderGetParams(g, &r, &l); printf(" r %.17g l %.17g", r, l); break; }
    case dPlaneClass: { dVector4 q; dGeomPlaneGetParams(g, q); printf(" plane %.17g %.17g %.17g %.17g", q[0], q[1], q[2], q[3]); break; }
    case dRayClass: { dVector3 st, d; dGeomRayGet(g, st, d); printf(" ray len %.17g start %.17g %.17g %.17g dir %.17g %.17g %.17g", dGeomRayGetLength(g), st[0], st[1], st[2], d[0], d[1], d[2]); break; }
    case dGeomTransformClass: {
        dGeomID c = dGeomTransformGetGeom(g);
        printf(" info %d holds %p\n", dGeomTransformGetInfo(g), (void *)c);
        if (c) {
            describe_geom("  held", c);
            if (dGeomGetBody(c)) { const dReal *bp = dBodyGetPosition(dGeomGetBody(c)); printf("    held geom's body at %.17g %.17g %.17g\n", bp[0], bp[1], bp[2]); }
            if (dGeomIsOffset(c)) { const dReal *op = dGeomGetOffsetPosition(c); printf("    held offset %.17g %.17g %.17g\n", op[0], op[1], op[2]); }
        }
        return;
    }
    default: break;
    }
    printf("\n");
}

/* dSetColliderOverride's table as the generator set it (ODE's: fn for
 * (i, j), the same reversed for (j, i); NULL leaves the pair without a
 * collider). It is process-global: the last dCloseODE restores the
 * built-in table, and every seed ends with one (with --no-fork, one
 * process runs every seed). */
enum { OV_BUILTIN, OV_NONE, OV_GOOD, OV_OVER, OV_NEG };
static unsigned char ovr_kind[dGeomNumClasses][dGeomNumClasses];
static int ovr_misbehaving; /* a host collider that miscounts is in the table */
static void ovr_forget(void) { memset(ovr_kind, 0, sizeof ovr_kind); ovr_misbehaving = 0; }
static int ovr_of(dGeomID o1, dGeomID o2) {
    int c1 = dGeomGetClass(o1), c2 = dGeomGetClass(o2);
    return c1 >= 0 && c1 < dGeomNumClasses && c2 >= 0 && c2 < dGeomNumClasses ? ovr_kind[c1][c2] : OV_BUILTIN;
}

/* A geom of the user class, or a geom transform holding one: dCollide on
 * it runs the host's collider (ucls_collide). The class is registered once
 * per process; with --no-fork (one process for all seeds) an earlier seed's
 * geoms of the class live on and collide with the same ucls_collide. Any
 * user class number up to it counts. */
static int is_user_class(int cls) { return cls >= dFirstUserClass && cls <= user_class; }
static int hosts_user_collider(dGeomID g) {
    if (is_user_class(dGeomGetClass(g))) return 1;
    if (dGeomGetClass(g) != dGeomTransformClass) return 0;
    dGeomID held = dGeomTransformGetGeom(g);
    return held && is_user_class(dGeomGetClass(held));
}

static void check_contacts(dGeomID o1, dGeomID o2, dContactGeom *c, int n, int max, int skip) {
    if (n < 0 || n > max) { char d[128]; snprintf(d, sizeof d, "dCollide returned %d contacts, max %d", n, max); finding("contacts", d); return; }
    n_contacts += n;
    /* A pair whose collider was overridden with NULL has none. */
    int ov = ovr_of(o1, o2);
    if (ov == OV_NONE && n != 0) {
        char d[160]; snprintf(d, sizeof d, "dCollide gave %d contacts for classes %d/%d, whose collider dSetColliderOverride set to NULL", n,
                              dGeomGetClass(o1), dGeomGetClass(o2));
        finding("contacts", d); return;
    }
    if (nan_source) return;
    /* A misbehaving host collider reports contacts it did not write, also
     * when its geom is the one a geom transform holds. So does a
     * dSetColliderOverride collider that miscounts, for its pair or for
     * pairs inside a space or transform. */
    if (ucls_mode >= 2 && (hosts_user_collider(o1) || hosts_user_collider(o2) || dGeomIsSpace(o1) || dGeomIsSpace(o2))) return;
    if (ov >= OV_OVER) return;
    if (ovr_misbehaving && (dGeomIsSpace(o1) || dGeomIsSpace(o2) || dGeomGetClass(o1) == dGeomTransformClass || dGeomGetClass(o2) == dGeomTransformClass)) return;
    for (int i = 0; i < n; i++) {
        dContactGeom *k = (dContactGeom *)((char *)c + (size_t)i * skip);
        int fin = isfinite(k->pos[0]) && isfinite(k->pos[1]) && isfinite(k->pos[2]) && isfinite(k->normal[0]) &&
                  isfinite(k->normal[1]) && isfinite(k->normal[2]) && isfinite(k->depth);
        /* The library drops every non-finite contact (with a report): even
         * from huge geometry, none may reach the caller. */
        if (!fin && EXCL_ODE_NAN_CONTACTS && k->g1 && k->g2) {
            int c1 = dGeomGetClass(k->g1), c2 = dGeomGetClass(k->g2);
            if ((c1 == dSphereClass && c2 == dCylinderClass) || (c1 == dCylinderClass && c2 == dSphereClass)) { n_excluded++; return; }
        }
        /* The host's collider (ucls_collide) copies its geom's position
         * into the contact: a user geom placed beyond HUGE (its body or
         * offset reported when they got there) gives inf there by the
         * host's own arithmetic, which the library passes on as ODE does. */
        if (!fin) {
            dGeomID u = k->g1 && is_user_class(dGeomGetClass(k->g1)) ? k->g1 : k->g2 && is_user_class(dGeomGetClass(k->g2)) ? k->g2 : 0;
            const dReal *p = u ? dGeomGetPosition(u) : 0;
            if (p && !(fabs(p[0]) <= HUGE && fabs(p[1]) <= HUGE && fabs(p[2]) <= HUGE)) { n_excluded++; continue; }
            /* The same for a user geom held by a transform (the pair's, or
             * one inside a space of the pair), which the host collides at
             * the transform's pose composed with its own. */
            int tainted = 0;
            for (int t = 0; u && t < nobj; t++) {
                if (!objs[t].alive || objs[t].kind != K_GEOM || objs[t].sub != dGeomTransformClass) continue;
                dGeomID tg = objs[t].h;
                if (dGeomTransformGetGeom(tg) != u) continue;
                const dReal *tp = dGeomGetPosition(tg), *tr = dGeomGetRotation(tg);
                for (int j = 0; j < 12; j++) tainted |= !(fabs(tr[j]) <= HUGE) || (j < 3 && !(fabs(tp[j]) <= HUGE));
            }
            if (tainted) { n_excluded++; continue; }
        }
        if (!fin) {
            char d[300];
            snprintf(d, sizeof d, "contact %d of %d with NaN/inf from finite geoms: classes %d/%d named %d/%d pos %g %g %g normal %g %g %g depth %g",
                     i, n, dGeomGetClass(o1), dGeomGetClass(o2), k->g1 ? dGeomGetClass(k->g1) : -1, k->g2 ? dGeomGetClass(k->g2) : -1,
                     k->pos[0], k->pos[1], k->pos[2], k->normal[0], k->normal[1], k->normal[2], k->depth);
            finding("nan", d);
            if (findings_this_seed <= 5) {
                describe_geom("o1", o1); describe_geom("o2", o2);
                if (k->g1 != o1 && k->g1 != o2) { describe_geom("contact g1", k->g1); describe_geom("contact g2", k->g2); }
                fflush(stdout);
            }
            return;
        }
        if (!((k->g1 == o1 && k->g2 == o2) || (k->g1 == o2 && k->g2 == o1))) {
            /* A transform's or space's contacts name the inner geoms. */
            int c1 = dGeomGetClass(o1), c2 = dGeomGetClass(o2);
            if (c1 != dGeomTransformClass && c2 != dGeomTransformClass && !dGeomIsSpace(o1) && !dGeomIsSpace(o2)) {
                finding("contacts", "contact names geoms other than the pair"); return; }
        }
    }
}

static void dump_space(dSpaceID sp, int depth) {
    int n = dSpaceGetNumGeoms(sp);
    if (dGeomGetClass((dGeomID)sp) == dHashSpaceClass) { int a, b; dHashSpaceGetLevels(sp, &a, &b); printf("%*shash levels %d %d\n", depth * 2, "", a, b); }
    for (int i = 0; i < n; i++) {
        dGeomID g = dSpaceGetGeom(sp, i); dReal bb[6]; dGeomGetAABB(g, bb);
        printf("%*sclass %d enabled %d aabb %g %g %g %g %g %g\n", depth * 2, "", dGeomGetClass(g), dGeomIsEnabled(g), bb[0], bb[1], bb[2], bb[3], bb[4], bb[5]);
        if (dGeomIsSpace(g)) dump_space((dSpaceID)g, depth + 1);
    }
}
static void near_cb(void *data, dGeomID o1, dGeomID o2);
static int cb_data_tag;
static void *data_ptr_dummy(void) { return &cb_data_tag; }

static void misbehave(dGeomID o1, dGeomID o2) {
    /* Calls a host should not make from a near callback. Each must be refused
     * or handled; none may crash. */
    int k = rn(12);
    TRACE("  in callback: misbehave %d on %p %p", k, (void *)o1, (void *)o2);
    switch (k) {
    case 0: dGeomDestroy(o1); break;
    case 1: { dSpaceID s = dGeomGetSpace(o1); if (s) dSpaceRemove(s, o1); break; }
    case 2: dGeomSetPosition(o1, runi(-3, 3), runi(-3, 3), runi(-3, 3)); break;
    case 3: { dBodyID b = dGeomGetBody(o1); if (b) dBodyDestroy(b); break; }
    case 4: if (cb_world && cb_world->alive) dWorldStep(cb_world->h, 0.01); break;
    case 5: { dSpaceID s = dGeomGetSpace(o1);
        if (s && EXCL_SAP_DISABLED_PAIR && dGeomGetClass((dGeomID)s) == dSweepAndPruneSpaceClass) break;
        if (s && cb_depth < 3) dSpaceCollide(s, data_ptr_dummy(), near_cb);
        break; }
    case 6: { dSpaceID s = dGeomGetSpace(o2); if (s) dSpaceDestroy(s); break; }
    case 7: (void)dCollide(o1, o2, 0, &cbuf[0].geom, sizeof(dContact)); break;
    case 8: (void)dCollide(o1, o2, 4, &cbuf[0].geom, 3); break;
    case 9: if (cb_group && cb_group->alive) dJointGroupEmpty(cb_group->h); break;
    case 10: { dSpaceID s = dGeomGetSpace(o1); dGeomID ng = dCreateSphere(0, 0.5); if (s) dSpaceAdd(s, ng); dGeomDestroy(ng); break; }
    default: dGeomSetBody(o2, NULL); break;
    }
}

static void near_cb(void *data, dGeomID o1, dGeomID o2) {
    (void)data;
    cb_depth++;
    if (cb_depth > 4) { cb_depth--; return; }
    if (cb_mode == 1 && chance(30)) { misbehave(o1, o2); cb_depth--; return; }
    if (dGeomIsSpace(o1) || dGeomIsSpace(o2)) {
        dSpaceCollide2(o1, o2, data, near_cb);
        cb_depth--;
        return;
    }
    int max = 1 + rn(8);
    int n = dCollide(o1, o2, max, &cbuf[0].geom, sizeof(dContact));
    check_contacts(o1, o2, &cbuf[0].geom, n, max, sizeof(dContact));
    if (n > 0 && cb_world && cb_world->alive && count_live(K_JOINT) < kind_cap[K_JOINT] + 40) {
        for (int i = 0; i < n && i < max; i++) {
            dContact *c = &cbuf[i];
            c->surface.mode = dContactBounce | dContactSoftCFM; c->surface.mu = 1; c->surface.bounce = 0.2; c->surface.soft_cfm = 1e-4;
            dJointID j = dJointCreateContact(cb_world->h, cb_group && cb_group->alive ? cb_group->h : NULL, c);
            if (!j) continue;
            obj_new(j, K_JOINT, dJointTypeContact, (int)(cb_world - objs));
            dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
            if (b1 == b2) b2 = NULL;
            if ((b1 && dBodyGetWorld(b1) != cb_world->h) || (b2 && dBodyGetWorld(b2) != cb_world->h)) continue;
            dJointAttach(j, b1, b2);
        }
    }
    cb_depth--;
}

static void op_collide(void) {
    begin("collide");
    int r = rn(10);
    cb_mode = chance(20);
    cb_world = random_obj(K_WORLD, 1, NULL);
    cb_group = random_obj(K_GROUP, 1, NULL);
    nan_source = 0;
    cur.nested = 1; cur.may_destroy = 1;
    cur.step = cb_mode == 1; /* a misbehaving callback may step the world */
    if (r < 5) {
        cur.name = "dCollide";
        Obj *a = pick(K_GEOM, 0), *b = pick(K_GEOM, 0);
        int max = chance(90) ? 1 + rn(16) : 0;
        int flags = max | (chance(20) ? CONTACTS_UNIMPORTANT : 0);
        int skip = chance(90) ? (int)sizeof(dContact) : (chance(50) ? (int)sizeof(dContactGeom) : 5);
        if (max == 0 || skip < (int)sizeof(dContactGeom)) cur.bad = 1;
        if (a && b && a->alive && b->alive && a->kind == K_GEOM && b->kind == K_GEOM && (is_space_obj(a) || is_space_obj(b))) cur.dontcare = 1;
        if (a == b) cur.dontcare = 1;
        cur.nested = 0; cur.may_destroy = 0; cur.no_change_check = 1;
        TRACE("dCollide(%s, %s, 0x%x, c, %d)", N(a), N(b), flags, skip);
        int n = 0;
        CALL(n = dCollide(H(a), H(b), flags, &cbuf[0].geom, skip));
        if (!cur.bad && a && b && a->alive && b->alive && !h_before.nonfinite && !h_before.extreme) check_contacts(a->h, b->h, &cbuf[0].geom, n, max, skip);
    } else if (r < 9) {
        cur.name = "dSpaceCollide";
        Obj *s = pick_space(0);
        if (EXCL_SAP_DISABLED_PAIR && s && s->alive && s->kind == K_GEOM && s->sub == dSweepAndPruneSpaceClass) {
            TRACE("(excluded) dSpaceCollide(%s)", N(s)); n_excluded++; return;
        }
        TRACE("dSpaceCollide(%s, d, near_cb mode %d)", N(s), cb_mode);
        if (opt_verbose > 2 && s && s->alive && is_space_obj(s)) dump_space(s->h, 1);
        CALL(dSpaceCollide(H(s), &cb_data_tag, chance(3) ? NULL : near_cb));
    } else {
        cur.name = "dSpaceCollide2";
        Obj *a = pick(K_GEOM, 0), *b = pick(K_GEOM, 0);
        TRACE("dSpaceCollide2(%s, %s, d, near_cb mode %d)", N(a), N(b), cb_mode);
        CALL(dSpaceCollide2(H(a), H(b), &cb_data_tag, near_cb));
    }
}

/* ---- trimesh and heightfield data */
typedef struct { double *v; int *idx; int nv, ni; } MeshBuf;
static void make_mesh(MeshBuf *m, int bad_indices) {
    int nx = 2 + rn(5), ny = 2 + rn(5);
    m->nv = nx * ny;
    m->v = malloc(sizeof(double) * 3 * (size_t)m->nv);
    m->ni = (nx - 1) * (ny - 1) * 6;
    m->idx = malloc(sizeof(int) * (size_t)m->ni);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double *p = &m->v[3 * (j * nx + i)];
            p[0] = i - nx / 2.0; p[1] = j - ny / 2.0; p[2] = 0.3 * sin(i * 1.3 + j);
        }
    int k = 0;
    for (int j = 0; j + 1 < ny; j++)
        for (int i = 0; i + 1 < nx; i++) {
            int a = j * nx + i, b = a + 1, c = a + nx, d = c + 1;
            m->idx[k++] = a; m->idx[k++] = b; m->idx[k++] = d;
            m->idx[k++] = a; m->idx[k++] = d; m->idx[k++] = c;
        }
    if (bad_indices) { m->idx[rn(m->ni)] = chance(50) ? m->nv + rn(100) : -1 - rn(5); }
}
/* Face normals for `ntri` triangles (3 dReals each; the data keeps the
 * array, which lives as long as the process): unit vectors, or some or all
 * of them NaN, infinite, huge, zero or merely not of unit length. ODE's
 * Preprocess reads the normal of the first side of each shared edge and
 * asserts that it is of unit length; `*quality` says which kind this is. */
enum { TMN_NONE, TMN_UNIT, TMN_SOME_BAD, TMN_ALL_BAD };
static dReal *make_normals(int ntri, int *quality) {
    int n = ntri > 0 ? ntri : 1, mode = rn(10), nbad = 0;
    dReal *nr = malloc(sizeof(dReal) * 3 * (size_t)n);
    for (int t = 0; t < n; t++) {
        dReal *p = &nr[3 * t];
        if (mode < 6 || (mode < 8 && chance(75))) {
            double x = runi(-1, 1), y = runi(-1, 1), z = runi(-1, 1), l = sqrt(x * x + y * y + z * z);
            if (l < 1e-3) { x = 0; y = 0; z = 1; l = 1; }
            p[0] = x / l; p[1] = y / l; p[2] = z / l;
            continue;
        }
        nbad++;
        p[0] = 0; p[1] = 0; p[2] = 1;
        switch (rn(6)) {
        case 0: p[rn(3)] = NAN; break;
        case 1: p[rn(3)] = chance(50) ? INFINITY : -INFINITY; break;
        case 2: p[rn(3)] = chance(50) ? 1e200 : -DBL_MAX; break;
        case 3: p[2] = 0; break;
        case 4: p[0] = runi(-2, 2); p[1] = runi(-2, 2); p[2] = runi(-2, 2); break;
        default: p[2] = 1 + runi(1e-9, 1e-3); break;
        }
    }
    *quality = nbad == 0 ? TMN_UNIT : nbad == n ? TMN_ALL_BAD : TMN_SOME_BAD;
    return nr;
}
/* Use flags for `ntri` triangles (one byte each, kept by the data): random
 * bytes, sometimes all edges and vertices (0x3f) or none. */
static unsigned char *make_flags(int ntri) {
    int n = ntri > 0 ? ntri : 1, mode = rn(10);
    unsigned char *f = malloc((size_t)n);
    for (int t = 0; t < n; t++) f[t] = mode < 7 ? (unsigned char)rnd() : mode < 9 ? 0x3f : 0;
    return f;
}
static Obj *new_tmdata_built(void) {
    if (count_live(K_TMDATA) >= kind_cap[K_TMDATA]) return random_obj(K_TMDATA, 1, NULL);
    dTriMeshDataID d = dGeomTriMeshDataCreate();
    MeshBuf m; make_mesh(&m, 0);
    int ntri = m.ni / 3, q = TMN_NONE, v = rn(10);
    /* Mostly a plain build; else one with face normals (the three ways),
     * and sometimes the host's use flags. */
    if (v < 6) dGeomTriMeshDataBuildDouble(d, m.v, 3 * sizeof(double), m.nv, m.idx, m.ni, 3 * sizeof(int));
    else {
        dReal *nr = make_normals(ntri, &q);
        if (v < 8) dGeomTriMeshDataBuildDouble1(d, m.v, 3 * sizeof(double), m.nv, m.idx, m.ni, 3 * sizeof(int), nr);
        else if (v < 9) {
            float *fv = malloc(sizeof(float) * 3 * (size_t)m.nv); for (int i = 0; i < 3 * m.nv; i++) fv[i] = (float)m.v[i];
            dGeomTriMeshDataBuildSingle1(d, fv, 3 * sizeof(float), m.nv, m.idx, m.ni, 3 * sizeof(int), nr);
        } else {
            dReal *sv = malloc(sizeof(dReal) * 4 * (size_t)m.nv);
            for (int i = 0; i < m.nv; i++) { sv[4 * i] = m.v[3 * i]; sv[4 * i + 1] = m.v[3 * i + 1]; sv[4 * i + 2] = m.v[3 * i + 2]; sv[4 * i + 3] = 0; }
            dGeomTriMeshDataBuildSimple1(d, sv, m.nv, (const dTriIndex *)m.idx, m.ni, (const int *)nr);
        }
    }
    unsigned char *fl = chance(25) ? make_flags(ntri) : NULL;
    if (fl) dGeomTriMeshDataSet(d, dTRIMESHDATA_USE_FLAGS, fl);
    Obj *o = obj_new(d, K_TMDATA, 1, -1);
    if (o) { o->tm_ntri = ntri; o->tm_nq = q; o->tm_flags = fl; o->tm_flags_len = fl ? ntri : 0; }
    return o;
}
static int live_tmdata(Obj *d) { return d && d->alive && d->kind == K_TMDATA; }
/* The data's use flags as the host set them: NULL, its own (Preprocess's,
 * which the library does not take as the host's), or another buffer. */
static void note_flags(Obj *d, const unsigned char *p, const void *own) {
    if (!live_tmdata(d) || last_refused) return;
    if (p == d->tm_flags) return;
    if (p == NULL || (const void *)p == own) { d->tm_flags = NULL; d->tm_flags_len = 0; }
    else { d->tm_flags = p; d->tm_flags_len = d->tm_ntri > 0 ? d->tm_ntri : 1; }
}
/* The calls that hand the data host arrays it keeps, and the deprecated
 * buffer calls: dGeomTriMeshDataSet (face normals, use flags, bad ids),
 * dGeomTriMeshDataSetBuffer/GetBuffer, and dGeomTriMeshDataGet2 with every
 * array it returns read to the size it reports. Arrays have the length
 * the data's triangles need (the host's side of the contract) and random
 * contents. */
static double tm_sink;
static void tm_host_arrays(Obj *d) {
    int live = live_tmdata(d), ntri = live ? d->tm_ntri : 0, k = rn(5);
    const void *own = live ? dGeomTriMeshDataGet2(d->h, dTRIMESHDATA_USE_FLAGS, NULL) : NULL;
    if (k <= 1) {
        cur.name = "dGeomTriMeshDataSet";
        int id = chance(90) ? (k == 0 ? dTRIMESHDATA_FACE_NORMALS : dTRIMESHDATA_USE_FLAGS) : rint_any();
        /* ODE ignores other ids (its assertion there tests the id against
         * 0, which it cannot be); ours reports them, changing nothing. */
        if (id != dTRIMESHDATA_FACE_NORMALS && id != dTRIMESHDATA_USE_FLAGS) cur.dontcare = 1;
        void *p = NULL;
        int q = TMN_NONE, w = rn(10);
        const char *what = "NULL";
        if (id == dTRIMESHDATA_FACE_NORMALS) {
            if (w >= 2) { p = make_normals(ntri, &q); what = q == TMN_UNIT ? "unit normals" : q == TMN_SOME_BAD ? "normals partly bad" : "normals all bad"; }
        } else if (w >= 4) { p = make_flags(ntri); what = "random flags"; }
        else if (w >= 2) { p = (void *)own; what = "its own flags"; }
        TRACE("dGeomTriMeshDataSet(%s, %d, %s)", N(d), id, what);
        CALL(dGeomTriMeshDataSet(H(d), id, p));
        if (live && !cur.bad && !last_refused) {
            if (id == dTRIMESHDATA_FACE_NORMALS) d->tm_nq = q;
            else if (id == dTRIMESHDATA_USE_FLAGS) note_flags(d, p, own);
        }
    } else if (k == 2) {
        cur.name = "dGeomTriMeshDataSetBuffer";
        int w = rn(10);
        unsigned char *p = w < 2 ? NULL : w < 5 ? (unsigned char *)own : make_flags(ntri);
        TRACE("dGeomTriMeshDataSetBuffer(%s, %s)", N(d), w < 2 ? "NULL" : w < 5 ? "its own flags" : "random flags");
        CALL(dGeomTriMeshDataSetBuffer(H(d), p));
        if (!cur.bad) note_flags(d, p, own);
    } else if (k == 3) {
        cur.name = "dGeomTriMeshDataGetBuffer";
        /* Either output may be NULL, as in ODE. */
        unsigned char *buf = NULL;
        int len = -7, nb = chance(15), nl = chance(15);
        TRACE("dGeomTriMeshDataGetBuffer(%s, %s, %s)", N(d), nb ? "NULL" : "&buf", nl ? "NULL" : "&len");
        CALL(dGeomTriMeshDataGetBuffer(H(d), nb ? NULL : &buf, nl ? NULL : &len));
        if (live && !cur.bad && !last_refused && !nl) {
            if (len != ntri) {
                char msg[128]; snprintf(msg, sizeof msg, "GetBuffer's length %d differs from the data's %d triangles", len, ntri);
                finding("trimesh", msg);
            }
            for (int i = 0; buf && i < len; i++) tm_sink += buf[i];
        }
    } else {
        /* What the data hands back, read to the size it reports. */
        int id = rn(2);
        dsizeint sz = 0;
        cur.name = "dGeomTriMeshDataGet2";
        TRACE("dGeomTriMeshDataGet2(%s, %d, &size)", N(d), id);
        const unsigned char *p = NULL;
        CALL(p = dGeomTriMeshDataGet2(H(d), id, &sz));
        if (p && !cur.bad && !last_refused) for (dsizeint i = 0; i < sz; i++) tm_sink += p[i];
    }
}

static void op_tmdata(void) {
    begin("trimesh data");
    int r = rn(14);
    if (r < 2 && count_live(K_TMDATA) < kind_cap[K_TMDATA]) {
        cur.name = "dGeomTriMeshDataCreate"; TRACE("dGeomTriMeshDataCreate()");
        dTriMeshDataID d = NULL; CALL(d = dGeomTriMeshDataCreate()); obj_new(d, K_TMDATA, 0, -1);
        return;
    }
    Obj *d = pick(K_TMDATA, 0);
    if (r < 5) {
        int bad_idx = chance(8), k = rn(6);
        MeshBuf m; make_mesh(&m, bad_idx);
        if (bad_idx) cur.bad = 1;
        if (!EXCL_SILENT_BAD_VALUES && chance(5)) { m.v[rn(3 * m.nv)] = NAN; cur.bad = 1; cur.nonfinite = 1; }
        /* Rebuilding data that trimeshes use while they are in spaces is
         * allowed. The Build*1 calls hand in face normals, which the data
         * keeps (their contents are not checked until Preprocess reads
         * them); the others drop the data's normals. */
        static const char *nm[] = { "dGeomTriMeshDataBuildDouble", "dGeomTriMeshDataBuildSingle", "dGeomTriMeshDataBuildSimple",
                                    "dGeomTriMeshDataBuildDouble1", "dGeomTriMeshDataBuildSingle1", "dGeomTriMeshDataBuildSimple1" };
        int ntri = m.ni / 3, q = TMN_NONE;
        dReal *normals = k >= 3 ? make_normals(ntri, &q) : NULL;
        static const char *qn[] = { "", ", unit normals", ", normals partly bad", ", normals all bad" };
        cur.name = nm[k];
        TRACE("%s(%s, %d verts, %d indices%s%s)", cur.name, N(d), m.nv, m.ni, bad_idx ? ", bad index" : "", qn[q]);
        float *fv = NULL;
        dReal *sv = NULL;
        if (k == 1 || k == 4) { fv = malloc(sizeof(float) * 3 * (size_t)m.nv); for (int i = 0; i < 3 * m.nv; i++) fv[i] = (float)m.v[i]; }
        if (k == 2 || k == 5) {
            sv = malloc(sizeof(dReal) * 4 * (size_t)m.nv);
            for (int i = 0; i < m.nv; i++) { sv[4 * i] = m.v[3 * i]; sv[4 * i + 1] = m.v[3 * i + 1]; sv[4 * i + 2] = m.v[3 * i + 2]; sv[4 * i + 3] = 0; }
        }
        switch (k) {
        case 0: CALL(dGeomTriMeshDataBuildDouble(H(d), m.v, 3 * sizeof(double), m.nv, m.idx, m.ni, 3 * sizeof(int))); break;
        case 1: CALL(dGeomTriMeshDataBuildSingle(H(d), fv, 3 * sizeof(float), m.nv, m.idx, m.ni, 3 * sizeof(int))); break;
        case 2: CALL(dGeomTriMeshDataBuildSimple(H(d), sv, m.nv, (const dTriIndex *)m.idx, m.ni)); break;
        case 3: CALL(dGeomTriMeshDataBuildDouble1(H(d), m.v, 3 * sizeof(double), m.nv, m.idx, m.ni, 3 * sizeof(int), normals)); break;
        case 4: CALL(dGeomTriMeshDataBuildSingle1(H(d), fv, 3 * sizeof(float), m.nv, m.idx, m.ni, 3 * sizeof(int), normals)); break;
        default: CALL(dGeomTriMeshDataBuildSimple1(H(d), sv, m.nv, (const dTriIndex *)m.idx, m.ni, (const int *)normals)); break;
        }
        if (live_tmdata(d) && !cur.bad && !last_refused) {
            d->sub = 1; d->tm_ntri = ntri; d->tm_nq = q;
            /* The host's use flags stay with the data across builds (as
             * in ODE): one byte per triangle, so the host hands in a
             * longer array when the mesh grows. */
            if (d->tm_flags && d->tm_flags_len < ntri) {
                const void *own = dGeomTriMeshDataGet2(d->h, dTRIMESHDATA_USE_FLAGS, NULL);
                unsigned char *fl = make_flags(ntri);
                begin("dGeomTriMeshDataSet"); touch(d);
                TRACE("dGeomTriMeshDataSet(%s, USE_FLAGS, flags of %d triangles)", N(d), ntri);
                CALL(dGeomTriMeshDataSet(d->h, dTRIMESHDATA_USE_FLAGS, fl));
                note_flags(d, fl, own);
            }
        }
    } else if (r < 7) {
        unsigned flags = (unsigned)rn(4); if (chance(10)) flags = (unsigned)rnd();
        dintptr extra[2] = { 0, rn(4) };
        int built = d && d->alive && d->kind == K_TMDATA && d->sub;
        if (!built && EXCL_TRIMESH_PREPROCESS_UNBUILT) { TRACE("(excluded) preprocess unbuilt %s", N(d)); n_excluded++; return; }
        if (flags > 3) cur.dontcare = 1;
        if (extra[1] > 2) cur.dontcare = 1;
        int old = chance(30);
        /* Either build request reads the face normals of the data's first
         * sides of shared edges (make_mesh's grids always share edges):
         * ODE asserts on one that is not of unit length. All bad: it must
         * be reported; some bad: it may be (which ones are read depends on
         * ODE's edge order). */
        if (built && d->tm_ntri > 0 && (old || (flags & 3))) {
            if (d->tm_nq == TMN_ALL_BAD) cur.bad = 1;
            else if (d->tm_nq == TMN_SOME_BAD) cur.dontcare = 1;
        }
        cur.name = old ? "dGeomTriMeshDataPreprocess" : "dGeomTriMeshDataPreprocess2";
        TRACE("%s(%s, 0x%x, extra %ld)", cur.name, N(d), flags, (long)extra[1]);
        if (old) CALL((void)dGeomTriMeshDataPreprocess(H(d)));
        else CALL((void)dGeomTriMeshDataPreprocess2(H(d), flags, chance(50) ? NULL : extra));
    } else if (r < 8) {
        cur.name = "dGeomTriMeshDataUpdate"; TRACE("dGeomTriMeshDataUpdate(%s)", N(d)); CALL(dGeomTriMeshDataUpdate(H(d)));
    } else if (r < 9) {
        int id = chance(80) ? rn(2) : rint_any(); dsizeint sz = 0;
        cur.name = "dGeomTriMeshDataGet2"; cur.dontcare = 1;
        TRACE("dGeomTriMeshDataGet2(%s, %d)", N(d), id); CALL((void)dGeomTriMeshDataGet2(H(d), id, chance(50) ? NULL : &sz));
    } else if (r < 10) {
        cur.name = "dGeomTriMeshDataDestroy"; TRACE("dGeomTriMeshDataDestroy(%s)", N(d));
        /* ODE leaves geoms using the data dangling; we must not crash. */
        cur.may_destroy = 1; cur.dontcare = 1;
        CALL(dGeomTriMeshDataDestroy(H(d)));
        if (d && d->alive && d->kind == K_TMDATA && !cur.bad) d->alive = 0;
    } else if (r >= 12) {
        tm_host_arrays(d);
    } else {
        /* trimesh geom functions (the data handle picked above is not an argument) */
        cur.bad = 0; cur.ntouched = 0;
        Obj *g = pick(K_GEOM, 0);
        int live = g && g->alive && g->kind == K_GEOM;
        if (live && g->sub != dTriMeshClass) cur.bad = 1;
        int k = rn(8), idx = chance(70) ? rn(8) : rint_any();
        int ntri = live && !cur.bad ? dGeomTriMeshGetTriangleCount(g->h) : 0;
        dVector3 v0, v1, v2;
        switch (k) {
        case 0: cur.name = "dGeomTriMeshGetTriangle"; if (idx < 0 || idx >= ntri) cur.bad = 1;
            TRACE("%s(%s, %d)", cur.name, N(g), idx); CALL(dGeomTriMeshGetTriangle(H(g), idx, &v0, &v1, &v2)); break;
        case 1: { cur.name = "dGeomTriMeshGetPoint"; int was_bad = cur.bad; double u = chance(80) ? runi(0, 1) : rreal(), v = runi(0, 1);
            /* NaN u/v is in the nanpolicy list (accepted silently today) */
            if (isnan(u) && EXCL_SILENT_BAD_VALUES) { cur.dontcare = 1; cur.bad = was_bad; }
            if (idx < 0 || idx >= ntri) cur.bad = 1;
            TRACE("%s(%s, %d, " G17 ", " G17 ")", cur.name, N(g), idx, u, v); CALL(dGeomTriMeshGetPoint(H(g), idx, u, v, v0)); break; }
        case 2: { cur.name = "dGeomTriMeshSetLastTransform"; dMatrix4 m; for (int i = 0; i < 16; i++) m[i] = (i % 5 == 0);
            if (chance(20)) {
                int at = rn(16), was_bad = cur.bad;
                m[at] = rreal();
                /* ODE keeps only the 3x4 part: the last row is never read. */
                if (at >= 12 && cur.nonfinite) { cur.dontcare = 1; cur.bad = was_bad; }
            }
            TRACE("%s(%s)", cur.name, N(g)); CALL(dGeomTriMeshSetLastTransform(H(g), m)); break; }
        case 3: { cur.name = "dGeomTriMeshSetData"; Obj *d2 = pick(K_TMDATA, 1); TRACE("%s(%s, %s)", cur.name, N(g), N(d2)); CALL(dGeomTriMeshSetData(H(g), H(d2))); break; }
        case 4: { cur.name = "dGeomTriMeshEnableTC"; int c = chance(80) ? rn(10) : rint_any(); TRACE("%s(%s, %d)", cur.name, N(g), c); cur.dontcare = 1;
            CALL(dGeomTriMeshEnableTC(H(g), c, rn(2))); break; }
        case 5: { cur.name = "dGeomTriMeshSetCallback"; int which = rn(4); TRACE("%s(%s) kind %d", cur.name, N(g), which);
            if (which == 0) CALL(dGeomTriMeshSetCallback(H(g), chance(50) ? tri_cb : NULL));
            else if (which == 1) CALL(dGeomTriMeshSetArrayCallback(H(g), chance(50) ? tri_array_cb : NULL));
            else if (which == 2) CALL(dGeomTriMeshSetRayCallback(H(g), chance(50) ? tri_ray_cb : NULL));
            else CALL(dGeomTriMeshSetTriMergeCallback(H(g), chance(50) ? tri_merge_cb : NULL));
            break; }
        case 6: cur.name = "dGeomTriMeshClearTCCache"; TRACE("%s(%s)", cur.name, N(g)); CALL(dGeomTriMeshClearTCCache(H(g))); break;
        default: { cur.name = "dMassSetTrimesh"; dMass m; double dens = chance(80) ? runi(0.1, 3) : rreal();
            if (!isnan(dens) && dens <= 0) cur.dontcare = 1;
            TRACE("%s(m, " G17 ", %s)", cur.name, dens, N(g)); CALL(dMassSetTrimesh(&m, dens, H(g))); break; }
        }
    }
}

static void op_hfdata(void) {
    begin("heightfield data");
    int r = rn(10);
    if (r < 2 && count_live(K_HFDATA) < kind_cap[K_HFDATA]) {
        cur.name = "dGeomHeightfieldDataCreate"; TRACE("dGeomHeightfieldDataCreate()");
        dHeightfieldDataID d = NULL; CALL(d = dGeomHeightfieldDataCreate()); obj_new(d, K_HFDATA, 0, -1);
        return;
    }
    Obj *d = pick(K_HFDATA, 0);
    if (r < 7) {
        int k = rn(5);
        int ws = chance(85) ? 2 + rn(8) : rint_any(), ds = chance(85) ? 2 + rn(8) : rint_any();
        if (ws > 64 || ds > 64) { ws = ws > 64 ? 64 : ws; ds = ds > 64 ? 64 : ds; }
        double width = chance(85) ? runi(1, 10) : rsize(), depth = chance(85) ? runi(1, 10) : rsize();
        /* Tiny cells make any geom span astronomically many of them (the
         * same unbounded collide as huge geoms). */
        double scale = chance(85) ? 1 : rfin(), off = chance(85) ? 0 : rfin(), thick = chance(85) ? 1 : rfin();
        /* A wrapped (infinite) field against a geom carried far away walks an
         * unbounded cell range (the heightfield collide bound is a known issue). */
        int wrap = rn(2), copy = rn(2);
        if (ws < 2 || ds < 2) cur.dontcare = 1;
        if (!cur.bad && !cur.nonfinite && (width <= 0 || depth <= 0)) cur.dontcare = 1;
        size_t n = (ws > 0 && ds > 0) ? (size_t)ws * (size_t)ds : 1;
        static const char *nm[] = { "dGeomHeightfieldDataBuildCallback", "dGeomHeightfieldDataBuildByte", "dGeomHeightfieldDataBuildShort",
                                    "dGeomHeightfieldDataBuildSingle", "dGeomHeightfieldDataBuildDouble" };
        cur.name = nm[k];
        TRACE("%s(%s, %dx%d, " G17 " x " G17 ", scale " G17 " off " G17 " thick " G17 ", wrap %d)", cur.name, N(d), ws, ds, width, depth, scale, off, thick, wrap);
        switch (k) {
        case 0: CALL(dGeomHeightfieldDataBuildCallback(H(d), NULL, hf_cb, width, depth, ws, ds, scale, off, thick, wrap)); break;
        case 1: { unsigned char *p = malloc(n); for (size_t i = 0; i < n; i++) p[i] = (unsigned char)rn(256);
            CALL(dGeomHeightfieldDataBuildByte(H(d), p, copy, width, depth, ws, ds, scale, off, thick, wrap)); break; }
        case 2: { short *p = malloc(n * sizeof(short)); for (size_t i = 0; i < n; i++) p[i] = (short)(rn(2000) - 1000);
            CALL(dGeomHeightfieldDataBuildShort(H(d), p, copy, width, depth, ws, ds, scale, off, thick, wrap)); break; }
        case 3: { float *p = malloc(n * sizeof(float)); for (size_t i = 0; i < n; i++) p[i] = (float)runi(-1, 1);
            CALL(dGeomHeightfieldDataBuildSingle(H(d), p, copy, width, depth, ws, ds, scale, off, thick, wrap)); break; }
        default: { double *p = malloc(n * sizeof(double)); for (size_t i = 0; i < n; i++) p[i] = runi(-1, 1);
            /* NaN samples: accepted silently, like NaN trimesh vertices (nanpolicy) */
            if (!EXCL_SILENT_BAD_VALUES && chance(5)) { p[rn((int)n)] = NAN; cur.bad = 1; cur.nonfinite = 1; }
            CALL(dGeomHeightfieldDataBuildDouble(H(d), p, copy, width, depth, ws, ds, scale, off, thick, wrap)); break; }
        }
        if (d && d->alive && d->kind == K_HFDATA && !last_refused) {
            double v[5] = { width, depth, scale, off, thick };
            memcpy(d->hfp, v, sizeof v); d->has_hfp = 1;
        }
    } else if (r < 8) {
        int was_bad = cur.bad;
        double lo = chance(80) ? -5 : rreal(), hi = chance(80) ? 5 : rreal();
        /* Reported when the bounds are inverted after scaling (a negative
         * scale turns ordered bounds around), which the generator does not
         * track: either outcome is fine. */
        if (!isnan(lo) && !isnan(hi) && lo > hi) cur.dontcare = 1;
        /* Infinite bounds are accepted (as by ODE) and give the geom a NaN box
         * with a negative scale: in the silently-accepted list for now. */
        if (EXCL_SILENT_BAD_VALUES && (isinf(lo) || isinf(hi))) { lo = -5; hi = 5; cur.nonfinite = 0; cur.bad = was_bad; }
        if (isinf(lo) || isinf(hi)) cur.dontcare = 1;
        cur.name = "dGeomHeightfieldDataSetBounds"; TRACE("%s(%s, " G17 ", " G17 ")", cur.name, N(d), lo, hi);
        CALL(dGeomHeightfieldDataSetBounds(H(d), lo, hi));
    } else if (r < 9) {
        Obj *g = pick(K_GEOM, 0);
        if (g && g->alive && g->kind == K_GEOM && g->sub != dHeightfieldClass) cur.bad = 1;
        cur.name = "dGeomHeightfieldSetHeightfieldData"; TRACE("%s(%s, %s)", cur.name, N(g), N(d));
        CALL(dGeomHeightfieldSetHeightfieldData(H(g), H(d)));
    } else {
        cur.name = "dGeomHeightfieldDataDestroy"; TRACE("%s(%s)", cur.name, N(d));
        cur.may_destroy = 1; cur.dontcare = 1;
        CALL(dGeomHeightfieldDataDestroy(H(d)));
        if (d && d->alive && d->kind == K_HFDATA && !cur.bad) d->alive = 0;
    }
}

/* ---- mass helpers */
static dMass masses[4];
static void op_mass(void) {
    begin("mass");
    int nullm = chance(4);
    dMass *m = nullm ? NULL : &masses[rn(4)];
    if (nullm) cur.bad = 1;
    int k = rn(13);
    /* which of a, b, c each helper reads */
    static const int uses[13] = { 0, 3, 3, 7, 7, 7, 7, 7, 7, 1, 7, 0, 0 };
    double a = 1, b = 1, c = 1;
    if (uses[k] & 1) a = chance(75) ? runi(0.1, 3) : rreal();
    if (uses[k] & 2) b = chance(75) ? runi(0.1, 3) : rreal();
    if (uses[k] & 4) c = chance(75) ? runi(0.1, 3) : rreal();
    int dir = chance(85) ? 1 + rn(3) : rint_any();
    /* Negative densities are used as ODE uses them (hollowing a mass out
     * with dMassAdd); ODE's dMassCheck message reports a mass that ends up
     * not positive, which the generator does not predict. */
    if (!isnan(a) && a < 0 && k >= 1 && k <= 8) cur.dontcare = 1;
    if (!isnan(b) && b < 0) cur.dontcare = 1;
    if (!isnan(c) && c < 0) cur.dontcare = 1;
    if (isinf(a) || isinf(b) || isinf(c)) cur.dontcare = 1;
    if (a == 0 || b == 0 || c == 0) cur.dontcare = 1;
    if (fabs(a) > 1e100 || fabs(b) > 1e100 || fabs(c) > 1e100) cur.dontcare = 1;
    static const char *nm[] = { "dMassSetZero", "dMassSetSphere", "dMassSetSphereTotal", "dMassSetCapsule", "dMassSetCapsuleTotal",
                                "dMassSetCylinder", "dMassSetCylinderTotal", "dMassSetBox", "dMassSetBoxTotal", "dMassAdjust",
                                "dMassTranslate", "dMassRotate", "dMassAdd" };
    cur.name = nm[k];
    if ((k >= 3 && k <= 6) && (dir < 1 || dir > 3)) cur.bad = 1;
    TRACE("%s(%s, " G17 ", %d, " G17 ", " G17 ")", cur.name, nullm ? "NULL" : "m", a, dir, b, c);
    switch (k) {
    case 0: CALL(dMassSetZero(m)); break;
    case 1: CALL(dMassSetSphere(m, a, b)); break;
    case 2: CALL(dMassSetSphereTotal(m, a, b)); break;
    case 3: CALL(dMassSetCapsule(m, a, dir, b, c)); break;
    case 4: CALL(dMassSetCapsuleTotal(m, a, dir, b, c)); break;
    case 5: CALL(dMassSetCylinder(m, a, dir, b, c)); break;
    case 6: CALL(dMassSetCylinderTotal(m, a, dir, b, c)); break;
    case 7: CALL(dMassSetBox(m, a, b, c, a)); break;
    case 8: CALL(dMassSetBoxTotal(m, a, b, c, a)); break;
    case 9: CALL(dMassAdjust(m, a)); break;
    case 10: CALL(dMassTranslate(m, a, b, c)); break;
    case 11: { dMatrix3 R; rand_rot(R); CALL(dMassRotate(m, R)); break; }
    default: CALL(dMassAdd(m, chance(5) ? (cur.bad = 1, (dMass *)NULL) : &masses[rn(4)])); break;
    }
    if (chance(20)) { begin("dMassCheck"); TRACE("dMassCheck(m)"); cur.dontcare = 1; CALL((void)dMassCheck(&masses[rn(4)])); }
}

/* ---- math and misc */
static void op_misc(void) {
    begin("misc");
    int k = rn(12);
    double a = rreal(), b = rreal(), c = rreal(), d = rreal();
    cur.bad = 0; /* these helpers have no checks of their own in ODE: only crashes and panics count */
    dMatrix3 R; dQuaternion q; dVector3 v = { a, b, c };
    switch (k) {
    case 0: { cur.name = "dRandInt"; int n = chance(80) ? 1 + rn(100) : rint_any();
        if (n <= 0) { if (EXCL_SILENT_BAD_VALUES) cur.dontcare = 1; else cur.bad = 1; }
        TRACE("dRandInt(%d)", n); CALL((void)dRandInt(n)); break; }
    case 1: cur.name = "dRFromAxisAndAngle"; cur.dontcare = 1; TRACE("dRFromAxisAndAngle(R, " G17 ", " G17 ", " G17 ", " G17 ")", a, b, c, d);
        CALL(dRFromAxisAndAngle(R, a, b, c, d)); break;
    case 2: cur.name = "dQFromAxisAndAngle"; cur.dontcare = 1; TRACE("dQFromAxisAndAngle(q, " G17 ", " G17 ", " G17 ", " G17 ")", a, b, c, d);
        CALL(dQFromAxisAndAngle(q, a, b, c, d)); break;
    case 3: cur.name = "dNormalize3"; cur.dontcare = 1; if (chance(30)) v[0] = v[1] = v[2] = 0;
        TRACE("dNormalize3(" G17 ", " G17 ", " G17 ")", v[0], v[1], v[2]); CALL(dNormalize3(v)); break;
    case 4: { cur.name = "dSafeNormalize3"; cur.dontcare = 1; TRACE("dSafeNormalize3(" G17 ", " G17 ", " G17 ")", v[0], v[1], v[2]); CALL((void)dSafeNormalize3(v)); break; }
    case 5: { cur.name = "dRFrom2Axes"; cur.dontcare = 1; TRACE("dRFrom2Axes(" G17 ", " G17 ", " G17 ", " G17 ")", a, b, c, d);
        CALL(dRFrom2Axes(R, a, b, c, d, a, b)); break; }
    case 6: { cur.name = "dRFromZAxis"; cur.dontcare = 1; TRACE("dRFromZAxis(" G17 ", " G17 ", " G17 ")", a, b, c); CALL(dRFromZAxis(R, a, b, c)); break; }
    case 7: { cur.name = "dPlaneSpace"; cur.dontcare = 1; dVector3 p, q2; TRACE("dPlaneSpace(" G17 ", " G17 ", " G17 ")", a, b, c); CALL(dPlaneSpace(v, p, q2)); break; }
    case 8: { cur.name = "dFactorLDLT"; int n = chance(80) ? 1 + rn(6) : rint_any(); if (n > 8) n = 8;
        dReal A[64], dd[8]; for (int i = 0; i < 64; i++) A[i] = runi(-1, 1); for (int i = 0; i < 8; i++) A[i * 8 + i] += 4;
        cur.dontcare = 1; TRACE("dFactorLDLT(A, d, %d, 8)", n); CALL(dFactorLDLT(A, dd, n, 8)); break; }
    case 9: { cur.name = "dInvertPDMatrix"; int n = chance(80) ? 1 + rn(6) : rint_any(); if (n > 8) n = 8;
        dReal A[64], Ai[64]; for (int i = 0; i < 64; i++) A[i] = runi(-1, 1); A[rn(64)] = d;
        cur.dontcare = 1; TRACE("dInvertPDMatrix(A, Ai, %d)", n); CALL((void)dInvertPDMatrix(A, Ai, n)); break; }
    case 10: { cur.name = "dClosestLineSegmentPoints"; dVector3 a1 = { a, 0, 0 }, a2 = { 1, b, 0 }, b1 = { 0, 1, c }, b2 = { d, 1, 1 }, c1, c2;
        cur.dontcare = 1; TRACE("dClosestLineSegmentPoints(" G17 " " G17 " " G17 " " G17 ")", a, b, c, d);
        CALL(dClosestLineSegmentPoints(a1, a2, b1, b2, c1, c2)); break; }
    default: { cur.name = "dBoxTouchesBox"; dVector3 p1 = { a, 0, 0 }, p2 = { 0, b, 0 }, s1 = { 1, 1, 1 }, s2 = { c, 1, d }; dMatrix3 R1, R2;
        dRSetIdentity(R1); rand_rot(R2); cur.dontcare = 1;
        TRACE("dBoxTouchesBox(" G17 " " G17 " " G17 " " G17 ")", a, b, c, d);
        CALL((void)dBoxTouchesBox(p1, R1, s1, p2, R2, s2)); break; }
    }
}

/* ------------------------------------------------------------ callbacks */
static int hf_mode;
static dReal hf_cb(void *data, int x, int z) {
    (void)data;
    switch (hf_mode) {
    case 1: nan_source = 1; return NAN;
    case 2: nan_source = 1; return INFINITY;
    case 3: return 1e6;
    default: return 0.5 * sin(x * 0.7) + 0.3 * cos(z * 1.1);
    }
}
static int tri_cb(dGeomID m, dGeomID o, int idx) { (void)m; (void)o; return (idx & 3) != 1; }
static void tri_array_cb(dGeomID m, dGeomID o, const int *idx, int n) {
    (void)o;
    int nt = dGeomTriMeshGetTriangleCount(m);
    for (int i = 0; i < n; i++)
        if (idx[i] < 0 || idx[i] >= nt) { finding("callback", "triangle array callback given an index out of range"); return; }
}
static int tri_ray_cb(dGeomID m, dGeomID r, int idx, dReal u, dReal v) { (void)m; (void)r; (void)u; (void)v; return idx % 3 != 0; }
static int tri_merge_cb(dGeomID m, int a, int b) {
    (void)m;
    /* Misbehaving host: answers indices that do not exist. */
    switch (rn(4)) { case 0: return a; case 1: return b; case 2: return -7; default: return 1 << 28; }
}
static void moved_cb(dBodyID b) {
    /* Reads are fine; a step callback that destroys or moves is misbehaving. */
    int r = rn(100);
    if (r < 80) { (void)dBodyGetPosition(b); return; }
    if (r < 90) { dBodySetPosition(b, 0, 0, 1); return; }
    if (r < 95) { dBodySetLinearVel(b, NAN, 0, 0); return; }
    dBodyDestroy(b);
}

/* user geom class: a unit box around its position */
static void ucls_aabb(dGeomID g, dReal aabb[6]) {
    const dReal *p = dGeomGetPosition(g);
    for (int i = 0; i < 3; i++) { aabb[2 * i] = p[i] - 1; aabb[2 * i + 1] = p[i] + 1; }
    /* Deterministic (no draw from the fuzzer's stream): getters call this too. */
    if (ucls_mode == 1) {
        int k = isfinite(p[0]) && fabs(p[0]) < 1e9 ? (int)fmod(fabs(p[0]) * 7, 6) : 0;
        aabb[k >= 0 && k < 6 ? k : 0] = NAN;
        nan_source = 1;
    }
}
static int ucls_collide(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip) {
    int max = flags & 0xffff;
    int n = max < 2 ? max : 2;
    for (int i = 0; i < n; i++) {
        dContactGeom *k = (dContactGeom *)((char *)c + (size_t)i * skip);
        const dReal *p = dGeomGetPosition(o1);
        k->pos[0] = p[0]; k->pos[1] = p[1]; k->pos[2] = p[2] - 1;
        k->normal[0] = 0; k->normal[1] = 0; k->normal[2] = 1; k->depth = 0.01;
        k->g1 = o1; k->g2 = o2; k->side1 = k->side2 = -1;
    }
    /* A misbehaving collider reports a count it did not write. */
    if (ucls_mode == 2) return max + 5;
    if (ucls_mode == 3) return -3;
    return n;
}
static dColliderFn *ucls_get(int num) { return num == dSphereClass || num == dBoxClass ? ucls_collide : NULL; }

/* dSetColliderOverride's host colliders: each writes min(max, 2) finite
 * contacts that name its arguments; ovr_over then reports more than max,
 * ovr_neg a negative count (the library reports such a count and keeps it
 * within 0..max). */
static int ovr_write(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip) {
    int max = flags & 0xffff, n = max < 2 ? max : 2;
    for (int i = 0; i < n; i++) {
        dContactGeom *k = (dContactGeom *)((char *)c + (size_t)i * skip);
        k->pos[0] = 0.25 * i; k->pos[1] = 0; k->pos[2] = 0.5;
        k->normal[0] = 0; k->normal[1] = 0; k->normal[2] = 1; k->depth = 0.02;
        k->g1 = o1; k->g2 = o2; k->side1 = k->side2 = -1;
    }
    return n;
}
static int ovr_good(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip) { return ovr_write(o1, o2, flags, c, skip); }
static int ovr_over(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip) { ovr_write(o1, o2, flags, c, skip); return (flags & 0xffff) + 3; }
static int ovr_neg(dGeomID o1, dGeomID o2, int flags, dContactGeom *c, int skip) { ovr_write(o1, o2, flags, c, skip); return -2; }

/* ---- dSetColliderOverride: rare, since an override changes every later
 * collision of its pair (for the rest of the seed). Good and bad class
 * numbers, NULL, and host colliders that sometimes miscount; now and then
 * the library is closed and initialised again, which restores the
 * built-in table (ODE's dCloseODE calls dFinitColliders). */
static int ovr_class(void) {
    static const int bad[] = { -1, -5, (int)0x80000000, dGeomNumClasses, dGeomNumClasses + 3, 0x7fffffff };
    if (chance(92)) return chance(70) ? rn(dFirstSpaceClass) : rn(dGeomNumClasses);
    cur.bad = 1;
    return bad[rn(6)];
}
static void op_override(void) {
    if (!chance(6)) return;
    begin("dSetColliderOverride");
    if (chance(12)) {
        /* Close and initialise again: the built-in table is back. User
         * classes stay registered in our library (ODE forgets them). */
        cur.name = "dCloseODE"; TRACE("dCloseODE()");
        CALL(dCloseODE());
        int old = chance(30);
        unsigned flags = chance(80) ? 0u : (unsigned)dInitFlagManualThreadCleanup;
        begin(old ? "dInitODE" : "dInitODE2");
        if (old) { TRACE("dInitODE()"); CALL(dInitODE()); }
        else { TRACE("dInitODE2(%u)", flags); CALL((void)dInitODE2(flags)); }
        ovr_forget();
        return;
    }
    int i = ovr_class(), j = ovr_class(), r = rn(10);
    int kind = r < 2 ? OV_NONE : r < 7 ? OV_GOOD : r < 9 ? OV_OVER : OV_NEG;
    dColliderFn *fn = kind == OV_NONE ? NULL : kind == OV_GOOD ? ovr_good : kind == OV_OVER ? ovr_over : ovr_neg;
    static const char *const fname[] = { "", "NULL", "ovr_good", "ovr_over", "ovr_neg" };
    TRACE("dSetColliderOverride(%d, %d, %s)", i, j, fname[kind]);
    CALL(dSetColliderOverride(i, j, fn));
    if (!cur.bad && !last_refused) {
        ovr_kind[i][j] = ovr_kind[j][i] = (unsigned char)kind;
        if (kind >= OV_OVER) ovr_misbehaving = 1;
    }
}

/* ---- our extensions (ode/ode_ext.h): solver mode, step threads, a
 * space's collide mode, debug drawing. Draw callbacks read every array
 * they are given (to the lengths the header documents), so that a short
 * or stale array shows under valgrind. */
static double draw_sink;
static void rd(const dReal *v, int n) { for (int i = 0; i < n; i++) draw_sink += v[i]; }
static void dcb_box(void *u, dGeomID g, const dReal *pos, const dReal *R, const dReal *sides) { (void)u; (void)g; rd(pos, 3); rd(R, 12); rd(sides, 3); }
static void dcb_sphere(void *u, dGeomID g, const dReal *pos, const dReal *R, dReal r) { (void)u; (void)g; rd(pos, 3); rd(R, 12); draw_sink += r; }
static void dcb_capsule(void *u, dGeomID g, const dReal *pos, const dReal *R, dReal l, dReal r) { (void)u; (void)g; rd(pos, 3); rd(R, 12); draw_sink += l + r; }
static void dcb_plane(void *u, dGeomID g, const dReal *q) { (void)u; (void)g; rd(q, 4); }
static void dcb_ray(void *u, dGeomID g, const dReal *st, const dReal *d, dReal l) { (void)u; (void)g; rd(st, 3); rd(d, 3); draw_sink += l; }
static void dcb_convex(void *u, dGeomID g, const dReal *pos, const dReal *R, const dReal *planes, unsigned pc, const dReal *points,
                       unsigned ptc, const unsigned *poly) {
    (void)u; (void)g; rd(pos, 3); rd(R, 12); rd(planes, 4 * (int)pc); rd(points, 3 * (int)ptc);
    /* polygons: per plane a count, then that many point indices */
    unsigned at = 0;
    for (unsigned i = 0; i < pc; i++) { unsigned n = poly[at]; for (unsigned k = 1; k <= n; k++) draw_sink += poly[at + k]; at += 1 + n; }
}
static void dcb_tris(void *u, dGeomID g, const dReal *pos, const dReal *R, const dReal *v, int n) { (void)u; (void)g; rd(pos, 3); rd(R, 12); rd(v, 9 * n); }
/* A solver mode argument: mostly one of the two, sometimes any int (bad). */
static int rand_solver_mode(void) {
    int mode = chance(85) ? rn(2) : rint_any();
    if (mode != ODEX_SOLVER_EXACT && mode != ODEX_SOLVER_FAST) cur.bad = 1;
    return mode;
}
static void op_ext(void) {
    begin("ext");
    int r = rn(8);
    if (r < 2) {
        Obj *w = pick(K_WORLD, 0);
        if (r == 0) {
            cur.name = "odexWorldSetSolverMode";
            int mode = rand_solver_mode();
            TRACE("odexWorldSetSolverMode(%s, %d)", N(w), mode);
            CALL(odexWorldSetSolverMode(H(w), mode));
        } else {
            cur.name = "odexWorldGetSolverMode"; TRACE("odexWorldGetSolverMode(%s)", N(w));
            CALL((void)odexWorldGetSolverMode(H(w)));
        }
    } else if (r < 4) {
        Obj *w = pick(K_WORLD, 0);
        if (r == 2) {
            cur.name = "odexWorldSetStepThreads";
            /* 0 (the default), a few, and any int (the library caps large ones) */
            int n = chance(85) ? rn(5) : rint_any();
            if (n < 0) cur.bad = 1;
            TRACE("odexWorldSetStepThreads(%s, %d)", N(w), n);
            CALL(odexWorldSetStepThreads(H(w), n));
        } else {
            cur.name = "odexWorldGetStepThreads"; TRACE("odexWorldGetStepThreads(%s)", N(w));
            CALL((void)odexWorldGetStepThreads(H(w)));
        }
    } else if (r < 6) {
        Obj *sp = pick_space(0);
        if (r == 4) {
            cur.name = "odexSpaceSetCollideMode";
            int mode = rand_solver_mode();
            TRACE("odexSpaceSetCollideMode(%s, %d)", N(sp), mode);
            CALL(odexSpaceSetCollideMode(H(sp), mode));
        } else {
            cur.name = "odexSpaceGetCollideMode"; TRACE("odexSpaceGetCollideMode(%s)", N(sp));
            CALL((void)odexSpaceGetCollideMode(H(sp)));
        }
    } else {
        /* A table with some entries left NULL (skipped), or no table. */
        odexDrawCallbacks cb;
        memset(&cb, 0, sizeof cb);
        if (chance(90)) cb.box = dcb_box;
        if (chance(90)) cb.sphere = dcb_sphere;
        if (chance(90)) cb.capsule = dcb_capsule;
        if (chance(90)) cb.cylinder = dcb_capsule;
        if (chance(90)) cb.plane = dcb_plane;
        if (chance(90)) cb.ray = dcb_ray;
        if (chance(90)) cb.convex = dcb_convex;
        if (chance(90)) cb.trimesh = dcb_tris;
        if (chance(90)) cb.heightfield = dcb_tris;
        int nocb = chance(5);
        if (nocb) cur.bad = 1;
        /* Drawing reads geoms a step or a setter may have left non-finite;
         * it neither repairs nor reports them. */
        cur.dontcare = 1;
        if (r == 6) {
            cur.name = "odexSpaceDraw";
            Obj *sp = pick_space(0);
            TRACE("odexSpaceDraw(%s, %s)", N(sp), nocb ? "NULL" : "cb");
            CALL((void)odexSpaceDraw(H(sp), nocb ? NULL : &cb, NULL));
        } else {
            cur.name = "odexGeomDraw";
            Obj *g = pick(K_GEOM, 0);
            TRACE("odexGeomDraw(%s, %s)", N(g), nocb ? "NULL" : "cb");
            CALL((void)odexGeomDraw(H(g), nocb ? NULL : &cb, NULL));
        }
    }
}

/* ---- custom joints (odexJointCreateCustom): the host's info1/info2
 * answer row counts, Jacobians, bounds and friction indices, mostly
 * valid, sometimes not (more rows than max_rows, nub > m, NaN or huge
 * Jacobians, friction indices outside the joint's rows, bad limit slots),
 * and use the one-sided limit helpers. They draw from the fuzzer's stream
 * (as moved_cb does), so a seed replays. */
#define NCJ 1024
static struct CJ { int max_rows, limit_slot, m, nub, limit_on; odexLimit lim; int destroyed; } cjs[NCJ];
static int ncj;
static struct CJ *cj_of(void *user) { intptr_t k = (intptr_t)user; return k >= 0 && k < ncj ? &cjs[k] : NULL; }
static void cj_info1(odexJointInfo1 *info) {
    struct CJ *c = cj_of(info->user_data);
    if (!c) return;
    int maxr = c->max_rows ? c->max_rows : odexMaxCustomRows;
    int m = rn(maxr + 1), nub = rn(m + 1);
    int r = rn(100);
    if (r < 3) m = maxr + 1 + rn(3);          /* too many rows: reported, sits out */
    else if (r < 5) nub = m + 1;               /* nub > m: the same */
    else if (r < 6) m = -1 - rn(3);
    c->limit_on = 0;
    if (c->limit_slot >= 0 && m >= 0 && m < maxr && info->body1) {
        /* q: body 1's height (any coordinate whose rate the row can give) */
        dReal q = dBodyGetPosition(info->body1)[2];
        int slot = chance(97) ? c->limit_slot : rint_any();
        if (odexJointLimitTest(info, slot, q, &c->lim)) { c->limit_on = 1; m++; }
    }
    info->m = m; info->nub = nub;
    c->m = m; c->nub = nub;
}
static void cj_info2(odexJointInfo2 *info) {
    struct CJ *c = cj_of(info->user_data);
    if (!c) return;
    int m = info->m;
    for (int i = 0; i < m; i++) {
        odexJointRow *row = &info->rows[i];
        if (c->limit_on && i == m - 1) {
            /* dq/dt of body 1's height */
            memset(row->J1l, 0, sizeof row->J1l); memset(row->J1a, 0, sizeof row->J1a);
            row->J1l[2] = 1;
            int slot = chance(97) ? c->limit_slot : rint_any();
            (void)odexJointLimitRow(info, slot, chance(2) ? NULL : row);
            continue;
        }
        for (int k = 0; k < 3; k++) {
            row->J1l[k] = runi(-1, 1); row->J1a[k] = runi(-1, 1);
            row->J2l[k] = info->body2 ? runi(-1, 1) : 0; row->J2a[k] = info->body2 ? runi(-1, 1) : 0;
        }
        int r = rn(200);
        if (r == 0) row->J1a[rn(3)] = NAN;
        else if (r == 1) row->J1l[rn(3)] = 1e300;
        row->c = info->fps * info->erp * runi(-0.01, 0.01);
        if (chance(30)) row->cfm = chance(90) ? runi(0, 1e-3) : rfin();
        /* Rows below nub are unbounded by contract; sometimes the host
         * breaks it (bounds or a friction index there). */
        if (i >= info->nub || chance(5)) {
            row->lo = chance(20) ? -dInfinity : -runi(0, 5);
            row->hi = chance(20) ? dInfinity : runi(0, 5);
            if (chance(3)) { dReal t = row->lo; row->lo = row->hi; row->hi = t; }
            int f = rn(100);
            if (f < 20 && m > 1) { row->findex = rn(m); row->lo = -runi(0, 1); row->hi = runi(0, 1); }
            else if (f < 22) row->findex = chance(50) ? m + rn(4) : -2 - rn(4);
        }
    }
}
static void cj_destroy(void *user) {
    struct CJ *c = cj_of(user);
    if (c && ++c->destroyed > 1) finding("custom", "a custom joint's destroy callback ran twice");
}
static void op_custom_joint(void) {
    begin("custom joint");
    int r = rn(10);
    if (r < 6) {
        if (count_live(K_JOINT) >= kind_cap[K_JOINT] || ncj >= NCJ) return;
        cur.name = "odexJointCreateCustom";
        Obj *w = pick(K_WORLD, 0);
        Obj *g = chance(60) ? NULL : pick(K_GROUP, 1);
        odexCustomJointCallbacks cb = { cj_info1, cj_info2, chance(80) ? cj_destroy : NULL, rn(odexMaxCustomRows + 1) };
        int q = rn(100), nocb = 0;
        if (q < 2) { cb.info1 = NULL; cur.bad = 1; }
        else if (q < 4) { cb.info2 = NULL; cur.bad = 1; }
        else if (q < 7) { cb.max_rows = chance(50) ? -1 - rn(3) : odexMaxCustomRows + 1 + rn(3); cur.bad = 1; }
        else if (q < 9) { nocb = 1; cur.bad = 1; }
        struct CJ *c = &cjs[ncj];
        memset(c, 0, sizeof *c);
        c->max_rows = cb.max_rows;
        c->limit_slot = chance(50) ? rn(cb.max_rows > 0 ? cb.max_rows : odexMaxCustomRows) : -1;
        if (w && w->alive && w->kind == K_WORLD) odexLimitInit(&c->lim, w->h);
        c->lim.lo = -runi(0, 3); c->lim.hi = runi(0, 3);
        if (chance(30)) c->lim.tolerance = runi(0, 0.01);
        if (chance(30)) c->lim.hold_steps = rn(5);
        TRACE("odexJointCreateCustom(%s, %s, %s max_rows %d limit slot %d)", N(w), N(g), nocb ? "NULL" : "cb", cb.max_rows, c->limit_slot);
        dJointID j = NULL;
        CALL(j = odexJointCreateCustom(H(w), H(g), nocb ? NULL : &cb, (void *)(intptr_t)ncj));
        Obj *o = obj_new(j, K_JOINT, odexJointTypeCustom, w && w->alive ? (int)(w - objs) : -1);
        if (!o) return;
        ncj++;
        if (chance(80)) {
            Obj *b1 = random_obj(K_BODY, 1, NULL), *b2 = random_obj(K_BODY, 1, NULL);
            if (b1 && b1->world == o->world && b2 && b2->world == o->world && b1 != b2) dJointAttach(o->h, chance(20) ? NULL : b1->h, b2->h);
            else if (b1 && b1->world == o->world) dJointAttach(o->h, b1->h, NULL);
        }
    } else if (r < 8) {
        cur.name = "odexJointGetLimitState";
        Obj *j = pick(K_JOINT, 0);
        int slot = chance(80) ? rn(odexMaxCustomRows) : rint_any();
        if (joint_type_of(j) != odexJointTypeCustom || slot < 0 || slot >= odexMaxCustomRows) cur.bad = 1;
        else cur.dontcare = 1; /* how many slots a joint has depends on its history */
        TRACE("odexJointGetLimitState(%s, %d)", N(j), slot);
        CALL((void)odexJointGetLimitState(H(j), slot));
    } else {
        cur.name = "odexJointGetCustomUserData";
        Obj *j = pick(K_JOINT, 0);
        if (joint_type_of(j) != odexJointTypeCustom) cur.bad = 1;
        TRACE("odexJointGetCustomUserData(%s)", N(j));
        CALL((void)odexJointGetCustomUserData(H(j)));
    }
}

/* ---- matrix helpers (matrix.h) and rotation helpers: sizes mostly
 * valid, sometimes 0, negative or with a row skip below n (reported);
 * entries sometimes NaN, infinite or huge. Buffers hold any valid size,
 * so only crashes, panics and error-channel reports are findings (the
 * functions have no state of their own to check). */
#define MN 160 /* entries: a 12 x 12 matrix (dPAD(10) = 12) and spare */
static double mat_entry(void) { return chance(95) ? runi(-2, 2) : rreal(); }
static void mat_fill(dReal *A, int diag_boost) {
    for (int i = 0; i < MN; i++) A[i] = mat_entry();
    if (diag_boost) for (int i = 0; i < 12; i++) A[i * 12 + i] += 8; /* mostly positive definite */
}
static int mat_n(void) {
    int r = rn(100);
    if (r < 85) return 1 + rn(10);
    if (r < 92) return 0;
    cur.bad = 1;
    return chance(50) ? -1 : (int)0x80000000;
}
/* A row skip for n; *bad: below n (reported where the skip is used). */
static int mat_skip(int n, int *bad) {
    int r = rn(100);
    *bad = 0;
    if (r < 60) return n <= 0 ? 4 : (n + 3) & ~3;
    if (r < 90) return n <= 0 ? 12 : n + rn(13 - (n > 12 ? 12 : n));
    if (n > 0) *bad = 1;
    return n - 1;
}
static void op_matrix(void) {
    begin("matrix");
    static dReal A[MN], B[MN], C[MN], L[MN], d[MN];
    mat_fill(A, chance(80)); mat_fill(B, 0); mat_fill(C, 0); mat_fill(L, 0); mat_fill(d, 0);
    for (int i = 0; i < 12; i++) d[i] = chance(95) ? runi(0.1, 4) : rreal();
    /* entries are data, not arguments ODE checks: only sizes and
     * pointers make a call bad */
    cur.bad = 0;
    cur.dontcare = 1; /* n = 0 and the like: ODE's own checks vary */
    int k = rn(16);
    int n = mat_n();
    int skip_bad, nskip = mat_skip(n, &skip_bad);
    if (n > 10) n = 10;
    /* the functions with a row skip */
    if (skip_bad && (k == 3 || k == 4 || k == 5 || k == 6 || k == 7 || k == 9)) cur.bad = 1;
    int nul = chance(3);
    if (nul && n > 0) cur.bad = 1;
    dReal *A_ = nul ? NULL : A;
    switch (k) {
    case 0: cur.name = "dFactorCholesky"; TRACE("dFactorCholesky(%s, %d)", nul ? "NULL" : "A", n);
        if (n < 0) cur.bad = 1;
        CALL((void)dFactorCholesky(A_, n)); break;
    case 1: cur.name = "dSolveCholesky"; TRACE("dSolveCholesky(%s, b, %d)", nul ? "NULL" : "L", n);
        if (n < 0) cur.bad = 1;
        (void)dFactorCholesky(A, n > 0 ? n : 1);
        CALL(dSolveCholesky(A_, B, n)); break;
    case 2: cur.name = "dIsPositiveDefinite"; TRACE("dIsPositiveDefinite(%s, %d)", nul ? "NULL" : "A", n);
        if (n < 0) cur.bad = 1;
        CALL((void)dIsPositiveDefinite(A_, n)); break;
    case 3: cur.name = "dFactorLDLT"; TRACE("dFactorLDLT(%s, d, %d, %d)", nul ? "NULL" : "A", n, nskip);
        CALL(dFactorLDLT(A_, d, n, nskip)); break;
    case 4: case 5: {
        cur.name = k == 4 ? "dSolveL1" : "dSolveL1T";
        TRACE("%s(%s, b, %d, %d)", cur.name, nul ? "NULL" : "L", n, nskip);
        if (k == 4) CALL(dSolveL1(A_, B, n, nskip)); else CALL(dSolveL1T(A_, B, n, nskip));
        break; }
    case 6: cur.name = "dSolveLDLT"; TRACE("dSolveLDLT(%s, d, b, %d, %d)", nul ? "NULL" : "L", n, nskip);
        CALL(dSolveLDLT(A_, d, B, n, nskip)); break;
    case 7: cur.name = "dLDLTAddTL"; TRACE("dLDLTAddTL(%s, d, a, %d, %d)", nul ? "NULL" : "L", n, nskip);
        CALL(dLDLTAddTL(A_, d, B, n, nskip)); break;
    case 8: {
        /* A's rows through pointers, p maps the factor's n2 rows to A's n1 */
        cur.name = "dLDLTRemove";
        int n1 = n > 0 ? n : 1, n2 = n1 - rn(n1), r = rn(n2);
        cur.bad = nul; /* n1 and n2 stand for n here */
        if (chance(5)) { n2 = n1 + 1; cur.bad = 1; }
        if (chance(5)) { r = chance(50) ? -1 : n2; cur.bad = 1; }
        int skip = (n1 + 3) & ~3; /* at least n1, as ODE requires */
        if (chance(5)) { skip = n1 - 1; cur.bad = 1; }
        dReal *rows[12]; int p[12];
        for (int i = 0; i < 12; i++) { rows[i] = C + 12 * i; p[i] = rn(n1); }
        if (chance(5)) { p[rn(n2 > 0 ? n2 : 1)] = chance(50) ? n1 : -3; cur.bad = 1; }
        if (chance(3)) { rows[rn(n1)] = NULL; cur.dontcare = 1; } /* reported only if read */
        if (n2 > 12) n2 = 12;
        TRACE("dLDLTRemove(rows, p, %s, d, %d, %d, %d, %d)", nul ? "NULL" : "L", n1, n2, r, skip);
        CALL(dLDLTRemove(rows, p, A_, d, n1, n2, r, skip));
        break; }
    case 9: {
        cur.name = "dRemoveRowCol";
        int r = n > 0 ? rn(n) : 0;
        if (chance(8)) { r = chance(50) ? -1 : n; cur.bad = 1; }
        TRACE("dRemoveRowCol(%s, %d, %d, %d)", nul ? "NULL" : "A", n, nskip, r);
        CALL(dRemoveRowCol(A_, n, nskip, r));
        break; }
    case 10: case 11: {
        /* A (p x r) = B C, B^T C or B C^T with p, q, r up to 6 */
        int p = 1 + rn(6), q = 1 + rn(6), r = 1 + rn(6);
        cur.bad = nul; /* n is not an argument here */
        if (chance(5)) { *(chance(50) ? &p : &r) = -1; cur.bad = 1; }
        if (chance(5)) { q = 0; cur.bad = 1; }
        int which = rn(3);
        cur.name = which == 0 ? "dMultiply0" : which == 1 ? "dMultiply1" : "dMultiply2";
        int alias = chance(3); /* output is an input: computed as if apart */
        TRACE("%s(%s, B, C, %d, %d, %d)", cur.name, nul ? "NULL" : alias ? "B" : "A", p, q, r);
        dReal *out = nul ? NULL : alias ? B : A;
        if (which == 0) CALL(dMultiply0(out, B, C, p, q, r));
        else if (which == 1) CALL(dMultiply1(out, B, C, p, q, r));
        else CALL(dMultiply2(out, B, C, p, q, r));
        break; }
    case 12: {
        int which = rn(5);
        static const char *nm[] = { "dScaleVector", "dVectorScale", "dSetZero", "dSetValue", "dDot" };
        cur.name = nm[which];
        TRACE("%s(%s, %d)", cur.name, nul ? "NULL" : "a", n);
        if (which == 0) CALL(dScaleVector(A_, d, n));
        else if (which == 1) CALL(dVectorScale(A_, d, n));
        else if (which == 2) CALL(dSetZero(A_, n));
        else if (which == 3) { int b0 = cur.bad; double v = mat_entry(); cur.bad = b0; CALL(dSetValue(A_, n, v)); }
        else CALL((void)dDot(A_, B, n));
        break; }
    case 13: {
        int which = rn(3);
        cur.name = which == 0 ? "dClearUpperTriangle" : which == 1 ? "dMaxDifference" : "dMaxDifferenceLowerTriangle";
        TRACE("%s(%s, %d)", cur.name, nul ? "NULL" : "A", n);
        if (which == 0) CALL(dClearUpperTriangle(A_, n));
        else if (which == 1) CALL((void)dMaxDifference(A_, B, n, 1 + rn(6)));
        else CALL((void)dMaxDifferenceLowerTriangle(A_, B, n));
        break; }
    default: {
        /* rotation helpers: NaN, huge and zero inputs */
        dQuaternion q1, q2, qo; dMatrix3 R; dVector3 w = { mat_entry(), mat_entry(), mat_entry() };
        rand_quat(q1); rand_quat(q2); rand_rot(R);
        if (chance(10)) q1[rn(4)] = rreal();
        int which = rn(9);
        static const char *nm[] = { "dQMultiply0", "dQMultiply1", "dQMultiply2", "dQMultiply3", "dRfromQ", "dQfromR",
                                    "dDQfromW", "dNormalize4", "dSafeNormalize4" };
        cur.name = nm[which];
        cur.bad = 0; cur.dontcare = 1;
        int nulo = chance(3);
        if (nulo) cur.bad = 1;
        TRACE("%s(%s, q [" G17 " " G17 " " G17 " " G17 "])", cur.name, nulo ? "NULL" : "out", q1[0], q1[1], q1[2], q1[3]);
        switch (which) {
        case 0: CALL(dQMultiply0(nulo ? NULL : qo, q1, q2)); break;
        case 1: CALL(dQMultiply1(nulo ? NULL : qo, q1, q2)); break;
        case 2: CALL(dQMultiply2(nulo ? NULL : qo, q1, q2)); break;
        case 3: CALL(dQMultiply3(nulo ? NULL : qo, q1, q2)); break;
        case 4: CALL(dRfromQ(nulo ? NULL : R, q1)); break;
        case 5: CALL(dQfromR(nulo ? NULL : qo, R)); break;
        case 6: CALL(dDQfromW(nulo ? NULL : qo, w, q1)); break;
        case 7: CALL(dNormalize4(nulo ? NULL : q1)); break;
        default: CALL((void)dSafeNormalize4(nulo ? NULL : q1)); break;
        }
        break; }
    }
}

/* ---- getters with output arguments: copies of a body's or a geom's
 * placement, quaternions, a ray's parameters, a trimesh's state. A NULL
 * output or a non-placeable geom is reported. */
static void op_copy_getters(void) {
    begin("copy getters");
    int nulo = chance(5);
    dReal out[12];
    int k = rn(12);
    if (k < 3) {
        Obj *b = pick(K_BODY, 0);
        if (nulo) cur.bad = 1;
        static const char *nm[] = { "dBodyCopyPosition", "dBodyCopyRotation", "dBodyCopyQuaternion" };
        cur.name = nm[k];
        TRACE("%s(%s, %s)", cur.name, N(b), nulo ? "NULL" : "out");
        if (k == 0) CALL(dBodyCopyPosition(H(b), nulo ? NULL : out));
        else if (k == 1) CALL(dBodyCopyRotation(H(b), nulo ? NULL : out));
        else CALL(dBodyCopyQuaternion(H(b), nulo ? NULL : out));
    } else if (k < 9) {
        Obj *g = pick(K_GEOM, 0);
        if (nulo) cur.bad = 1;
        int j = k - 3;
        static const char *nm[] = { "dGeomCopyPosition", "dGeomCopyRotation", "dGeomGetQuaternion",
                                    "dGeomCopyOffsetPosition", "dGeomCopyOffsetRotation", "dGeomGetOffsetQuaternion" };
        cur.name = nm[j];
        /* planes and spaces are not placeable (ODE asserts on their
         * placement; their offset getters answer zero/identity) */
        if (j < 3 && g && g->alive && g->kind == K_GEOM && (g->sub == dPlaneClass || is_space_obj(g))) cur.bad = 1;
        TRACE("%s(%s, %s)", cur.name, N(g), nulo ? "NULL" : "out");
        dReal *o = nulo ? NULL : out;
        switch (j) {
        case 0: CALL(dGeomCopyPosition(H(g), o)); break;
        case 1: CALL(dGeomCopyRotation(H(g), o)); break;
        case 2: CALL(dGeomGetQuaternion(H(g), o)); break;
        case 3: CALL(dGeomCopyOffsetPosition(H(g), o)); break;
        case 4: CALL(dGeomCopyOffsetRotation(H(g), o)); break;
        default: CALL(dGeomGetOffsetQuaternion(H(g), o)); break;
        }
    } else if (k == 9) {
        Obj *g = pick(K_GEOM, 0);
        cur.name = "dGeomRayGetParams";
        if (g && g->alive && g->kind == K_GEOM && g->sub != dRayClass) cur.bad = 1;
        int fc = 0, bc = 0, nul1 = chance(5);
        if (nul1) cur.dontcare = 1;
        TRACE("dGeomRayGetParams(%s%s)", N(g), nul1 ? ", NULL" : "");
        CALL(dGeomRayGetParams(H(g), nul1 ? NULL : &fc, &bc));
    } else {
        Obj *g = pick(K_GEOM, 0);
        if (g && g->alive && g->kind == K_GEOM && g->sub != dTriMeshClass) cur.bad = 1;
        int j = rn(3);
        static const char *nm[] = { "dGeomTriMeshGetLastTransform", "dGeomTriMeshGetTriMeshDataID", "dGeomTriMeshIsTCEnabled" };
        cur.name = nm[j];
        TRACE("%s(%s)", cur.name, N(g));
        if (j == 0) CALL((void)dGeomTriMeshGetLastTransform(H(g)));
        else if (j == 1) CALL((void)dGeomTriMeshGetTriMeshDataID(H(g)));
        else { int cls = chance(90) ? rn(dGeomNumClasses) : rint_any(); cur.dontcare = 1; CALL((void)dGeomTriMeshIsTCEnabled(H(g), cls)); }
    }
}

/* ---- the rest of the API the other ops do not call: a world's DIF
 * export (to /dev/null), more mass helpers, the piston's axis delta, an
 * infinite AABB, re-orthogonalising a rotation, per-thread data. */
static FILE *devnull;
static void op_more(void) {
    begin("more");
    int k = rn(9);
    if (k == 0) {
        if (!chance(20)) return; /* writes the whole world */
        cur.name = "dWorldExportDIF";
        Obj *w = pick(K_WORLD, 0);
        if (!devnull) devnull = fopen("/dev/null", "w");
        int nf = chance(5), nn = chance(5);
        if (nf || nn) cur.bad = 1;
        TRACE("dWorldExportDIF(%s, %s, %s)", N(w), nf ? "NULL" : "devnull", nn ? "NULL" : "\"w_\"");
        CALL(dWorldExportDIF(H(w), nf ? NULL : devnull, nn ? NULL : "w_"));
    } else if (k <= 3) {
        int nullm = chance(5);
        dMass *m = nullm ? NULL : &masses[rn(4)];
        double a = chance(80) ? runi(0.1, 3) : rreal(), b = chance(80) ? runi(0.1, 2) : rreal(), c = chance(80) ? runi(0.1, 2) : rreal();
        cur.bad = nullm; cur.dontcare = 1; /* values: ODE's mass checks are messages, not rejections */
        if (k == 1) {
            cur.name = "dMassSetParameters";
            double I[6] = { runi(0.1, 2), runi(0.1, 2), runi(0.1, 2), runi(-0.1, 0.1), runi(-0.1, 0.1), runi(-0.1, 0.1) };
            if (chance(10)) I[rn(6)] = rreal();
            cur.bad = nullm;
            TRACE("dMassSetParameters(%s, " G17 ", ...)", nullm ? "NULL" : "m", a);
            CALL(dMassSetParameters(m, a, b, c, runi(-1, 1), I[0], I[1], I[2], I[3], I[4], I[5]));
        } else if (k == 2) {
            int total = chance(50), dir = chance(90) ? 1 + rn(3) : rint_any();
            cur.name = total ? "dMassSetCappedCylinderTotal" : "dMassSetCappedCylinder";
            TRACE("%s(%s, " G17 ", %d, " G17 ", " G17 ")", cur.name, nullm ? "NULL" : "m", a, dir, b, c);
            if (total) CALL(dMassSetCappedCylinderTotal(m, a, dir, b, c));
            else CALL(dMassSetCappedCylinder(m, a, dir, b, c));
        } else {
            cur.name = "dMassSetTrimeshTotal";
            Obj *g = pick(K_GEOM, 0);
            cur.bad |= nullm;
            if (g && g->alive && g->kind == K_GEOM && g->sub != dTriMeshClass) cur.bad = 1;
            TRACE("dMassSetTrimeshTotal(%s, " G17 ", %s)", nullm ? "NULL" : "m", a, N(g));
            CALL(dMassSetTrimeshTotal(m, a, H(g)));
        }
    } else if (k == 4) {
        cur.name = "dJointSetPistonAxisDelta";
        Obj *j = pick(K_JOINT, 0);
        if (j && j->alive && j->kind == K_JOINT) {
            if (j->sub != dJointTypePiston) cur.bad = 1;
            else if (!dJointGetBody(H(j), 0) && !dJointGetBody(H(j), 1)) cur.bad = 1; /* ODE crashes */
        }
        double v[6];
        for (int i = 0; i < 6; i++) v[i] = chance(90) ? runi(-2, 2) : rreal();
        for (int i = 0; i < 6; i++) { if (isnan(v[i])) cur.bad = 1; if (isinf(v[i]) || fabs(v[i]) > 1e100) cur.dontcare = 1; }
        touch(j);
        TRACE("dJointSetPistonAxisDelta(%s, " G17 ", " G17 ", " G17 ", " G17 ", " G17 ", " G17 ")", N(j), v[0], v[1], v[2], v[3], v[4], v[5]);
        CALL(dJointSetPistonAxisDelta(H(j), v[0], v[1], v[2], v[3], v[4], v[5]));
    } else if (k == 5) {
        cur.name = "dInfiniteAABB";
        Obj *g = pick(K_GEOM, 1);
        dReal aabb[6];
        int nul = chance(5);
        cur.dontcare = 1; cur.bad = 0; /* ODE ignores the geom */
        TRACE("dInfiniteAABB(%s, %s)", N(g), nul ? "NULL" : "aabb");
        CALL(dInfiniteAABB(H(g), nul ? NULL : aabb));
    } else if (k == 6) {
        cur.name = "dOrthogonalizeR";
        dMatrix3 R;
        rand_rot(R);
        if (chance(20)) R[rn(12)] = rreal();
        cur.bad = 0; cur.dontcare = 1;
        TRACE("dOrthogonalizeR([" G17 " ...])", R[0]);
        CALL(dOrthogonalizeR(R));
    } else {
        /* this thread's ODE data: allocating again is harmless; cleaning
         * it up leaves collisions to allocate it anew */
        cur.dontcare = 1;
        if (k == 7) {
            cur.name = "dAllocateODEDataForThread";
            unsigned flags = chance(90) ? dAllocateMaskAll : (unsigned)rint_any();
            TRACE("dAllocateODEDataForThread(%#x)", flags);
            CALL((void)dAllocateODEDataForThread(flags));
        } else {
            if (!chance(20)) return;
            cur.name = "dCleanupODEAllDataForThread"; TRACE("dCleanupODEAllDataForThread()");
            CALL(dCleanupODEAllDataForThread());
        }
    }
}

/* ---- small calls: the random number helpers, configuration, timers and
 * stopwatches, ODE's allocator, the handler getters, dBoxBox, a world's
 * step memory manager and its islands thread count getter. */
static void *mm_alloc(dsizeint n) { return malloc(n ? n : 1); }
static void *mm_shrink(void *p, dsizeint cur_size, dsizeint smaller) { (void)cur_size; return realloc(p, smaller ? smaller : 1); }
static void mm_free(void *p, dsizeint n) { (void)n; free(p); }
static void op_small(void) {
    begin("small");
    int k = rn(12);
    cur.dontcare = 1;
    if (k == 0) {
        int j = rn(5);
        static const char *nm[] = { "dRand", "dRandGetSeed", "dRandReal", "dTestRand", "dQSetIdentity" };
        cur.name = nm[j]; TRACE("%s()", cur.name);
        dQuaternion q;
        if (j == 0) CALL((void)dRand());
        else if (j == 1) CALL((void)dRandGetSeed());
        else if (j == 2) CALL((void)dRandReal());
        else if (j == 3) CALL((void)dTestRand());
        else { int nul = chance(5); cur.bad = nul; CALL(dQSetIdentity(nul ? NULL : q)); }
    } else if (k == 1) {
        static const char *tok[] = { "ODE", "ODE_double_precision", "ODE_EXT_trimesh", "", "nonsense", NULL };
        int j = rn(6);
        cur.name = j == 5 ? "dGetConfiguration" : "dCheckConfiguration";
        TRACE("%s(%s)", cur.name, j == 5 ? "" : tok[j]);
        if (j == 5) CALL((void)dGetConfiguration());
        else CALL((void)dCheckConfiguration(chance(5) ? NULL : tok[j]));
    } else if (k == 2) {
        /* ODE's timer: slots in order; out of order is reported */
        int j = rn(4);
        static const char *nm[] = { "dTimerStart", "dTimerNow", "dTimerEnd", "dTimerReport" };
        cur.name = nm[j]; TRACE("%s()", cur.name);
        if (!devnull) devnull = fopen("/dev/null", "w");
        if (j == 0) CALL(dTimerStart(chance(5) ? NULL : "a"));
        else if (j == 1) CALL(dTimerNow(chance(5) ? NULL : "b"));
        else if (j == 2) CALL(dTimerEnd());
        else CALL(dTimerReport(chance(5) ? NULL : devnull, rn(2)));
        begin("small"); cur.dontcare = 1; cur.name = "dTimerTicksPerSecond"; TRACE("dTimerTicksPerSecond()");
        CALL((void)dTimerTicksPerSecond(); (void)dTimerResolution());
    } else if (k == 3) {
        static struct dStopwatch sw;
        int nul = chance(5);
        cur.bad = nul;
        int j = rn(4);
        static const char *nm[] = { "dStopwatchReset", "dStopwatchStart", "dStopwatchStop", "dStopwatchTime" };
        cur.name = nm[j]; TRACE("%s(%s)", cur.name, nul ? "NULL" : "sw");
        struct dStopwatch *s = nul ? NULL : &sw;
        if (j == 0) CALL(dStopwatchReset(s));
        else if (j == 1) CALL(dStopwatchStart(s));
        else if (j == 2) CALL(dStopwatchStop(s));
        else CALL((void)dStopwatchTime(s));
    } else if (k == 4) {
        cur.name = "dAlloc";
        dsizeint n = chance(90) ? (dsizeint)rn(4096) : 0;
        TRACE("dAlloc(%zu) / dRealloc / dFree", (size_t)n);
        void *p = NULL;
        CALL(p = dAlloc(n));
        if (p) {
            begin("small"); cur.dontcare = 1; cur.name = "dRealloc";
            dsizeint m = (dsizeint)rn(8192);
            void *q = NULL;
            CALL(q = dRealloc(p, n, m));
            if (q) { memset(q, 0x5a, m); p = q; n = m; }
            else if (m == 0) p = NULL; /* realloc to 0 bytes freed it (ODE's dRealloc is realloc) */
            begin("small"); cur.dontcare = 1; cur.name = "dFree";
            CALL(dFree(p, n)); /* NULL is ignored */
        }
    } else if (k == 5) {
        cur.name = "handler getters"; TRACE("handler getters");
        CALL((void)dGetErrorHandler(); (void)dGetDebugHandler(); (void)dGetMessageHandler(); (void)dGetAllocHandler();
             (void)dGetReallocHandler(); (void)dGetFreeHandler());
    } else if (k == 6) {
        cur.name = "dMakeRandomVector";
        dReal A[64];
        int n = chance(90) ? 1 + rn(8) : rint_any();
        if (n > 8) n = 8;
        if (n < 0) cur.bad = 1;
        TRACE("dMakeRandomVector/Matrix(%d)", n);
        if (chance(50)) CALL(dMakeRandomVector(A, n, 1.0));
        else CALL(dMakeRandomMatrix(A, n, n > 0 ? n : 1, 1.0));
    } else if (k == 7) {
        /* two boxes, one turned: random sizes and placements, NaN sometimes */
        cur.name = "dBoxBox";
        dVector3 p1 = { 0, 0, 0 }, p2 = { runi(-1.5, 1.5), runi(-1.5, 1.5), runi(-1.5, 1.5) };
        dVector3 s1 = { runi(0.1, 2), runi(0.1, 2), runi(0.1, 2) }, s2 = { runi(0.1, 2), runi(0.1, 2), runi(0.1, 2) };
        dMatrix3 R1, R2;
        dRSetIdentity(R1); rand_rot(R2);
        if (chance(10)) p2[rn(3)] = rreal();
        if (chance(5)) s2[rn(3)] = rreal();
        dContactGeom c[8]; dVector3 normal; dReal depth; int code;
        int max = chance(95) ? 1 + rn(8) : 0;
        cur.bad = 0; cur.dontcare = 1;
        TRACE("dBoxBox(p2 " G17 " " G17 " " G17 ", max %d)", p2[0], p2[1], p2[2], max);
        CALL((void)dBoxBox(p1, R1, s1, p2, R2, s2, normal, &depth, &code, max, c, sizeof c[0]));
    } else {
        Obj *w = pick(K_WORLD, 0);
        if (k < 10) {
            cur.name = "dWorldGetStepIslandsProcessingMaxThreadCount";
            cur.dontcare = 0;
            TRACE("%s(%s)", cur.name, N(w));
            CALL((void)dWorldGetStepIslandsProcessingMaxThreadCount(H(w)));
        } else {
            /* the host's step memory functions: recorded (the library keeps
             * its own step buffers), a short table refused */
            cur.name = "dWorldSetStepMemoryManager";
            static dWorldStepMemoryFunctionsInfo mf;
            mf.struct_size = sizeof mf; mf.alloc_block = mm_alloc; mf.shrink_block = mm_shrink; mf.free_block = mm_free;
            int j = rn(10);
            cur.dontcare = 0;
            if (j == 0) { mf.struct_size = 4; cur.bad = 1; }
            TRACE("%s(%s, %s)", cur.name, N(w), j == 1 ? "NULL" : j == 0 ? "short" : "functions");
            CALL((void)dWorldSetStepMemoryManager(H(w), j == 1 ? NULL : &mf));
        }
    }
}

/* ---- ODE's threading API (threading_impl.h): implementations, thread
 * pools serving them, a world stepping through one, and the functions
 * table (mutex groups, call waits, posted calls with dependencies).
 * Some calls block until another thread acts, in ODE as here: waiting for
 * a pool whose implementation was not asked to shut down, freeing such a
 * pool, serving an implementation from this thread, waiting without a
 * timeout for calls no thread runs, locking a held mutex of a
 * multi-threaded group. The generator keeps away from those by following
 * which pool serves which implementation. Posted calls only count, so
 * that they may run on the pool's threads. */
static int thr_counter, thr_fault;
static int thr_call(void *ctx, dcallindex_t index, dCallReleaseeID self) {
    (void)index; (void)self;
    __atomic_add_fetch((int *)ctx, 1, __ATOMIC_RELAXED);
    return 1;
}
static void thr_ready(void *ctx) { (void)ctx; }
/* Self-threaded only (it runs on this thread): lowers its own count,
 * which is 0 while it runs (ODE asserts; reported). */
static const dThreadingFunctionsInfo *thr_table;
static dThreadingImplementationID thr_impl;
static int thr_lowering_call(void *ctx, dcallindex_t index, dCallReleaseeID self) {
    (void)index;
    __atomic_add_fetch((int *)ctx, 1, __ATOMIC_RELAXED);
    thr_table->alter_call_dependencies_count(thr_impl, self, -1);
    return 1;
}
static Obj *impl_by_id(int id) {
    for (int i = 0; i < nobj; i++)
        if (objs[i].alive && objs[i].kind == K_THRIMPL && objs[i].id == id) return &objs[i];
    return NULL;
}
/* Whether the pool's threads may still serve an implementation that was
 * not asked to shut down (then waiting for them would never end). */
static int pool_busy(Obj *p) {
    if (!p || !p->alive || p->kind != K_POOL || p->thr_serving < 0) return 0;
    Obj *i = impl_by_id(p->thr_serving);
    return i && !i->thr_shut;
}
/* Whether some pool serves the implementation. */
static int impl_served(Obj *imp) {
    for (int i = 0; i < nobj; i++)
        if (objs[i].alive && objs[i].kind == K_POOL && objs[i].thr_serving == imp->id) return 1;
    return 0;
}
static int live_kind(Obj *o, int kind) { return o && o->alive && o->kind == kind; }
/* Whether threads serve the implementation until it is shut down. */
static int pool_busy_impl(Obj *imp) { return !imp->thr_shut && impl_served(imp); }

/* The functions table of a live implementation, used within one op. */
static void thr_table_ops(Obj *io) {
    dThreadingImplementationID imp = H(io);
    const dThreadingFunctionsInfo *f = dThreadingImplementationGetFunctions(imp);
    if (!f) return;
    int multi = io->sub;
    /* calls run without a timeout only where something runs them: the
     * caller (self-threaded) or threads that serve until shut down */
    int runs = !multi || pool_busy_impl(io);
    int r = rn(5);
    if (r == 0) {
        begin("mutex group");
        unsigned n = chance(90) ? 1 + (unsigned)rn(3) : 0;
        cur.name = "alloc_mutex_group";
        if (n == 0) cur.bad = 1;
        TRACE("alloc_mutex_group(%s, %u)", N(io), n);
        dMutexGroupID g = NULL;
        CALL(g = f->alloc_mutex_group(imp, n, NULL));
        if (!g) return;
        for (int k = 0; k < 4; k++) {
            begin("mutex"); unsigned i = (unsigned)rn((int)n + 1);
            int locked_twice = !multi && chance(10);
            if (i >= n) cur.bad = 1;
            cur.name = "lock_group_mutex"; TRACE("lock_group_mutex(%s, %u)", N(io), i);
            CALL(f->lock_group_mutex(imp, g, i));
            if (locked_twice) {
                begin("mutex"); cur.name = "lock_group_mutex"; cur.bad = 1; /* a self-threaded group never blocks */
                TRACE("lock_group_mutex(%s, %u) again", N(io), i);
                CALL(f->lock_group_mutex(imp, g, i));
            }
            begin("mutex"); cur.name = "unlock_group_mutex";
            if (i >= n) cur.bad = 1;
            TRACE("unlock_group_mutex(%s, %u)", N(io), i);
            CALL(f->unlock_group_mutex(imp, g, i));
            if (chance(10)) {
                begin("mutex"); cur.name = "unlock_group_mutex"; cur.bad = 1; /* not held */
                TRACE("unlock_group_mutex(%s, %u) again", N(io), i);
                CALL(f->unlock_group_mutex(imp, g, i));
            }
        }
        begin("mutex group"); cur.name = "free_mutex_group"; TRACE("free_mutex_group(%s)", N(io));
        CALL(f->free_mutex_group(imp, g));
    } else if (r < 4) {
        /* A call A that waits for one dependency, released by a call B
         * posted with A as its dependent (ODE's usual pattern), or one
         * call alone; then a wait. */
        begin("call wait"); cur.name = "alloc_call_wait"; TRACE("alloc_call_wait(%s)", N(io));
        dCallWaitID w = NULL;
        CALL(w = f->alloc_call_wait(imp));
        if (!w) return;
        int posts = rn(3), nullfn = chance(3);
        /* Self-threaded: a miscounted dependent (A not counting B), or a
         * call lowering its own count; reported when the wait runs them. */
        int miscount = !multi && posts == 2 && chance(10);
        int lowering = !multi && posts == 1 && chance(10);
        dCallReleaseeID ra = NULL;
        if (posts >= 1) {
            begin("post"); cur.name = "post_call";
            if (nullfn) cur.bad = 1;
            thr_table = f; thr_impl = imp;
            TRACE("post_call(%s, deps %d, wait)%s%s", N(io), miscount ? 0 : posts - 1, nullfn ? " NULL function" : "",
                  lowering ? " lowering its count" : "");
            CALL(f->post_call(imp, &thr_fault, &ra, (ddependencycount_t)(miscount ? 0 : posts - 1), NULL, w,
                              nullfn ? NULL : lowering ? thr_lowering_call : thr_call, &thr_counter, 0, "a"));
            if (nullfn) posts = 0;
        }
        if (posts == 2) {
            if (!miscount && chance(20)) {
                /* released by hand instead of by a second call */
                begin("post"); cur.name = "alter_call_dependencies_count";
                TRACE("alter_call_dependencies_count(%s, a, -1)", N(io));
                CALL(f->alter_call_dependencies_count(imp, ra, -1));
            } else {
                begin("post"); cur.name = "post_call"; TRACE("post_call(%s, deps 0, dependent a)", N(io));
                CALL(f->post_call(imp, NULL, NULL, 0, ra, NULL, thr_call, &thr_counter, 1, "b"));
            }
        }
        begin("wait"); cur.name = "wait_call";
        dThreadedWaitTime t = { 0, (unsigned long)rn(2) * 1000000ul };
        int forever = runs && chance(70);
        /* A self-threaded wait runs the posted calls itself; with none
         * posted nothing can signal the wait (ODE asserts). */
        if (!multi && (posts == 0 || miscount || lowering)) cur.bad = 1;
        int bad_time = chance(3);
        if (bad_time) { t.wait_nsec = 2000000000ul; cur.bad = 1; }
        int status = -1;
        TRACE("wait_call(%s, %s)", N(io), forever && !bad_time ? "forever" : "timeout");
        if (!forever || posts > 0 || !multi) CALL(f->wait_call(imp, &status, w, forever && !bad_time ? NULL : &t, "w"));
        if (!multi && posts > 0 && !bad_time && status != 1) finding("threading", "a self-threaded wait for posted calls was not signalled");
        begin("call wait"); cur.name = "free_call_wait"; TRACE("free_call_wait(%s)", N(io));
        CALL(f->free_call_wait(imp, w));
    } else {
        begin("thread count"); cur.name = "retrieve_thread_count"; TRACE("retrieve_thread_count(%s)", N(io));
        CALL((void)f->retrieve_thread_count(imp));
        begin("preallocate"); cur.name = "preallocate_resources_for_calls"; TRACE("preallocate_resources_for_calls(%s)", N(io));
        CALL((void)f->preallocate_resources_for_calls(imp, (ddependencycount_t)rn(64)));
    }
}

static void op_threading(void) {
    begin("threading");
    int r = rn(20);
    if (r < 2) {
        if (count_live(K_THRIMPL) >= kind_cap[K_THRIMPL]) return;
        int multi = chance(60);
        cur.name = multi ? "dThreadingAllocateMultiThreadedImplementation" : "dThreadingAllocateSelfThreadedImplementation";
        TRACE("%s()", cur.name);
        dThreadingImplementationID i = NULL;
        CALL(i = multi ? dThreadingAllocateMultiThreadedImplementation() : dThreadingAllocateSelfThreadedImplementation());
        obj_new(i, K_THRIMPL, multi, -1);
    } else if (r < 3) {
        if (count_live(K_POOL) >= kind_cap[K_POOL]) return;
        cur.name = "dThreadingAllocateThreadPool";
        /* 0 and more than ODE's 65535 threads are reported */
        unsigned n = chance(92) ? 1 + (unsigned)rn(2) : (chance(50) ? 0u : 0x10000u + (unsigned)rn(1000));
        if (n == 0 || n > 0xFFFF) cur.bad = 1;
        size_t stack = chance(80) ? 0 : (size_t)(chance(50) ? 1 : 1 << 20);
        TRACE("dThreadingAllocateThreadPool(%u, %zu)", n, stack);
        dThreadingThreadPoolID p = NULL;
        CALL(p = dThreadingAllocateThreadPool(n, stack, dAllocateMaskAll, NULL));
        obj_new(p, K_POOL, 0, -1);
    } else if (r < 5) {
        cur.name = "dThreadingThreadPoolServeMultiThreadedImplementation";
        Obj *p = pick(K_POOL, 0), *i = pick(K_THRIMPL, 0);
        /* Serving is queued behind the threads' current serving. */
        if (pool_busy(p)) return;
        if (live_kind(i, K_THRIMPL) && !i->sub) cur.bad = 1; /* self-threaded */
        int serves = live_kind(p, K_POOL) && live_kind(i, K_THRIMPL) && i->sub;
        TRACE("%s(%s, %s)", cur.name, N(p), N(i));
        CALL(dThreadingThreadPoolServeMultiThreadedImplementation(H(p), H(i)));
        /* Good arguments start the serving whatever the call reports: a
         * report may come from one of the pool's threads running a call
         * queued earlier with a misuse of its own (seed 1168: the model
         * took the serving as refused and waited for idle threads that
         * serve until shut down). */
        if (serves) p->thr_serving = i->id;
    } else if (r < 7) {
        Obj *p = pick(K_POOL, r == 6);
        if (pool_busy(p)) return;
        if (r == 5) {
            cur.name = "dThreadingThreadPoolWaitIdleState";
            TRACE("%s(%s)", cur.name, N(p));
            CALL(dThreadingThreadPoolWaitIdleState(H(p)));
            if (!last_refused && live_kind(p, K_POOL)) p->thr_serving = -1;
        } else {
            if (!chance(30)) return;
            cur.name = "dThreadingFreeThreadPool";
            TRACE("%s(%s)", cur.name, N(p));
            CALL(dThreadingFreeThreadPool(H(p)));
            if (!last_refused && live_kind(p, K_POOL)) p->alive = 0;
        }
    } else if (r < 10) {
        Obj *i = pick(K_THRIMPL, r == 9);
        if (r == 7) {
            cur.name = "dThreadingImplementationShutdownProcessing";
            TRACE("%s(%s)", cur.name, N(i));
            CALL(dThreadingImplementationShutdownProcessing(H(i)));
            if (!last_refused && live_kind(i, K_THRIMPL)) i->thr_shut = 1;
        } else if (r == 8) {
            /* Not while threads may still be leaving its serving. */
            if (live_kind(i, K_THRIMPL) && impl_served(i)) return;
            cur.name = "dThreadingImplementationCleanupForRestart";
            TRACE("%s(%s)", cur.name, N(i));
            CALL(dThreadingImplementationCleanupForRestart(H(i)));
            if (!last_refused && live_kind(i, K_THRIMPL)) i->thr_shut = 0;
        } else {
            if (!chance(30)) return;
            cur.name = "dThreadingFreeImplementation";
            /* Refused while threads serve it or calls are still queued
             * (the threads may be leaving; calls may be queued). */
            if (live_kind(i, K_THRIMPL)) { if (pool_busy_impl(i)) cur.bad = 1; else cur.dontcare = 1; }
            TRACE("%s(%s)", cur.name, N(i));
            CALL(dThreadingFreeImplementation(H(i)));
            if (!last_refused && live_kind(i, K_THRIMPL)) i->alive = 0;
        }
    } else if (r < 12) {
        cur.name = "dExternalThreadingServeMultiThreadedImplementation";
        Obj *i = pick(K_THRIMPL, 0);
        /* Serves on this thread until shut down: only once it is. */
        if (live_kind(i, K_THRIMPL) && i->sub && !i->thr_shut) return;
        if (live_kind(i, K_THRIMPL) && !i->sub) cur.bad = 1;
        TRACE("%s(%s)", cur.name, N(i));
        CALL(dExternalThreadingServeMultiThreadedImplementation(H(i), chance(50) ? thr_ready : NULL, NULL));
    } else if (r < 15) {
        cur.name = "dWorldSetStepThreadingImplementation";
        Obj *w = pick(K_WORLD, 0);
        Obj *i = chance(20) ? NULL : pick(K_THRIMPL, 1);
        const dThreadingFunctionsInfo *f = NULL;
        static dThreadingFunctionsInfo foreign; /* a host's own table: recorded, never called by us */
        int k = rn(10);
        Obj *any = random_obj(K_THRIMPL, 1, NULL);
        if (i && any && k < 7) {
            /* our table (shared by all our implementations), with the
             * implementation pick gave: dead or of another kind is bad */
            f = dThreadingImplementationGetFunctions(H(any));
        } else if (i && k < 9) {
            /* A host's own implementation is an opaque pointer to the
             * library: any handle passes, only the table is checked. */
            cur.bad = 0;
            foreign.struct_size = k < 8 ? sizeof foreign : 8;
            if (k == 8) cur.bad = 1;
            f = &foreign;
            cur.dontcare = 1;
        }
        if (!w || !w->alive || w->kind != K_WORLD) cur.bad = 1;
        if ((f == NULL) != (i == NULL)) cur.bad = 1;
        TRACE("%s(%s, %s, %s)", cur.name, N(w), f ? (f == &foreign ? "foreign table" : "table") : "NULL", N(i));
        CALL(dWorldSetStepThreadingImplementation(H(w), f, H(i)));
    } else {
        Obj *i = random_obj(K_THRIMPL, 1, NULL);
        if (!i) return;
        thr_table_ops(i);
    }
}

/* ---- cooperatives (cooperative.h, matrix_coop.h): created on our
 * threading implementations (whichever the registry holds, live, freed
 * later or never), the default one, a host's table with no functions or
 * a short table; requirements estimated, cloned and merged; containers
 * acquired; the cooperative matrix operations on them with good and bad
 * sizes, thread counts beyond the estimate, and stale handles. */
#define NCOOP 4
typedef struct { void *h; int alive; } CoopSlot;
static CoopSlot coops[NCOOP], reqs[NCOOP], conts[NCOOP];
/* A handle from a slot: NULL (bad unless nullok), live or destroyed. */
static void *slot_pick(CoopSlot *a, int nullok) {
    int i = rn(NCOOP);
    if (a[i].h ? !a[i].alive : !nullok) cur.bad = 1;
    return a[i].h;
}
static void *coop_pick(void) { return slot_pick(coops, 0); }
static void *req_pick(void) { return slot_pick(reqs, 0); }
static void *cont_pick(void) { return slot_pick(conts, 0); }
static void slot_new(CoopSlot *a, void *h) {
    if (!h) return;
    for (int i = 0; i < NCOOP; i++) if (a[i].h == h) a[i].h = NULL; /* address reused */
    int i = rn(NCOOP);
    a[i].h = h; a[i].alive = 1;
}
static void slot_kill(CoopSlot *a, void *h) {
    for (int i = 0; i < NCOOP; i++) if (a[i].h == h && !last_refused) a[i].alive = 0;
}
static void op_coop(void) {
    begin("cooperative");
    int k = rn(12);
    if (k < 2) {
        cur.name = "dCooperativeCreate";
        static dThreadingFunctionsInfo foreign;
        const dThreadingFunctionsInfo *f = NULL;
        void *imp = NULL;
        int r = rn(10);
        if (r < 3) { /* the default threading */ }
        else if (r < 8) {
            Obj *i = random_obj(K_THRIMPL, chance(90), NULL);
            if (!i) return;
            if (!i->alive) cur.bad = 1;
            imp = H(i);
            /* the table every implementation of ours shares */
            Obj *any = random_obj(K_THRIMPL, 1, NULL);
            f = any ? dThreadingImplementationGetFunctions(H(any)) : NULL;
            if (!f) cur.bad = 1; /* an implementation without its table */
        } else if (r < 9) {
            /* a host's table without functions: the library calls none */
            memset(&foreign, 0, sizeof foreign); foreign.struct_size = sizeof foreign; f = &foreign; imp = &foreign;
            cur.dontcare = 1;
        } else {
            memset(&foreign, 0, sizeof foreign); foreign.struct_size = 8; f = &foreign; imp = &foreign; cur.bad = 1;
        }
        if (chance(3)) { f = NULL; if (imp) cur.bad = 1; }
        TRACE("dCooperativeCreate(%s, %p)", f ? (f == &foreign ? "foreign" : "table") : "NULL", imp);
        dCooperativeID c = NULL;
        CALL(c = dCooperativeCreate(f, imp));
        slot_new(coops, c);
    } else if (k < 3) {
        if (!chance(30)) return;
        cur.name = "dCooperativeDestroy";
        void *c = slot_pick(coops, 1); /* ODE accepts NULL */
        TRACE("dCooperativeDestroy(%p)", c);
        CALL(dCooperativeDestroy(c));
        slot_kill(coops, c);
    } else if (k < 5) {
        int j = rn(4);
        if (j == 0) {
            cur.name = "dResourceRequirementsCreate";
            void *c = coop_pick();
            TRACE("dResourceRequirementsCreate(%p)", c);
            dResourceRequirementsID r = NULL;
            CALL(r = dResourceRequirementsCreate(c));
            slot_new(reqs, r);
        } else if (j == 1) {
            cur.name = "dResourceRequirementsClone";
            void *r = req_pick();
            TRACE("dResourceRequirementsClone(%p)", r);
            dResourceRequirementsID r2 = NULL;
            CALL(r2 = dResourceRequirementsClone(r));
            slot_new(reqs, r2);
        } else if (j == 2) {
            cur.name = "dResourceRequirementsMergeIn";
            void *a = req_pick(), *b = req_pick();
            cur.dontcare = 1; /* two cooperatives' requirements do not merge */
            TRACE("dResourceRequirementsMergeIn(%p, %p)", a, b);
            CALL(dResourceRequirementsMergeIn(a, b));
        } else {
            if (!chance(30)) return;
            cur.name = "dResourceRequirementsDestroy";
            void *r = slot_pick(reqs, 1);
            TRACE("dResourceRequirementsDestroy(%p)", r);
            CALL(dResourceRequirementsDestroy(r));
            slot_kill(reqs, r);
        }
    } else if (k < 7) {
        void *r = req_pick();
        unsigned threads = chance(90) ? 1 + (unsigned)rn(4) : (unsigned)rint_any(), rows = chance(90) ? (unsigned)rn(12) : (unsigned)rint_any();
        cur.dontcare = 1; /* 0 threads or rows, huge counts: ODE's checks vary */
        int j = rn(5);
        static const char *nm[] = { "dEstimateCooperativelyFactorLDLTResourceRequirements", "dEstimateCooperativelySolveLDLTResourceRequirements",
                                    "dEstimateCooperativelySolveL1StraightResourceRequirements",
                                    "dEstimateCooperativelySolveL1TransposedResourceRequirements",
                                    "dEstimateCooperativelyScaleVectorResourceRequirements" };
        cur.name = nm[j];
        TRACE("%s(%p, %u, %u)", cur.name, r, threads, rows);
        switch (j) {
        case 0: CALL(dEstimateCooperativelyFactorLDLTResourceRequirements(r, threads, rows)); break;
        case 1: CALL(dEstimateCooperativelySolveLDLTResourceRequirements(r, threads, rows)); break;
        case 2: CALL(dEstimateCooperativelySolveL1StraightResourceRequirements(r, threads, rows)); break;
        case 3: CALL(dEstimateCooperativelySolveL1TransposedResourceRequirements(r, threads, rows)); break;
        default: CALL(dEstimateCooperativelyScaleVectorResourceRequirements(r, threads, rows)); break;
        }
    } else if (k < 8) {
        if (chance(70)) {
            cur.name = "dResourceContainerAcquire";
            void *r = req_pick();
            TRACE("dResourceContainerAcquire(%p)", r);
            dResourceContainerID c = NULL;
            cur.dontcare = 1; /* a threading freed since may refuse */
            CALL(c = dResourceContainerAcquire(r));
            slot_new(conts, c);
        } else {
            cur.name = "dResourceContainerDestroy";
            void *c = slot_pick(conts, 1);
            TRACE("dResourceContainerDestroy(%p)", c);
            CALL(dResourceContainerDestroy(c));
            slot_kill(conts, c);
        }
    } else {
        static dReal A[MN], d[MN], b[MN];
        mat_fill(A, chance(80)); mat_fill(b, 0);
        for (int i = 0; i < 12; i++) d[i] = chance(95) ? runi(0.1, 4) : rreal();
        cur.bad = 0;
        void *c = cont_pick();
        unsigned threads = chance(90) ? 1 + (unsigned)rn(4) : (chance(50) ? 0u : 1000u);
        unsigned rows = (unsigned)rn(11), skip = (rows + 3) & ~3u;
        int j = rn(5);
        if (chance(5)) { skip = rows ? rows - 1 : 0; if (rows && j != 4) cur.bad = 1; }
        int nul = chance(3);
        if (nul && rows) cur.bad = 1;
        cur.dontcare = 1; /* 0 threads, more rows than estimated: noted, not refused */
        static const char *nm[] = { "dCooperativelyFactorLDLT", "dCooperativelySolveLDLT", "dCooperativelySolveL1Straight",
                                    "dCooperativelySolveL1Transposed", "dCooperativelyScaleVector" };
        cur.name = nm[j];
        TRACE("%s(%p, %u, %s, %u, %u)", cur.name, c, threads, nul ? "NULL" : "A", rows, skip);
        dReal *A_ = nul ? NULL : A;
        switch (j) {
        case 0: CALL(dCooperativelyFactorLDLT(c, threads, A_, d, rows, skip)); break;
        case 1: CALL(dCooperativelySolveLDLT(c, threads, A_, d, b, rows, skip)); break;
        case 2: CALL(dCooperativelySolveL1Straight(c, threads, A_, b, rows, skip)); break;
        case 3: CALL(dCooperativelySolveL1Transposed(c, threads, A_, b, rows, skip)); break;
        default: CALL(dCooperativelyScaleVector(c, threads, A_, d, rows)); break;
        }
    }
}

/* ================================================================ driver */
typedef void (*Op)(void);
static const struct { Op op; int weight; } ops[] = {
    { op_world_create, 2 }, { op_world_destroy, 1 }, { op_world_set, 5 }, { op_world_step, 7 }, { op_world_misc, 2 },
    { op_body_create, 6 }, { op_body_destroy, 2 }, { op_body_set, 14 }, { op_body_get, 4 },
    { op_joint_create, 6 }, { op_joint_destroy, 2 }, { op_joint_attach, 4 }, { op_joint_set, 16 }, { op_group, 2 }, { op_connect, 2 },
    { op_geom_create, 7 }, { op_geom_destroy, 2 }, { op_geom_set, 14 }, { op_space, 6 }, { op_collide, 8 },
    { op_tmdata, 4 }, { op_hfdata, 3 }, { op_mass, 4 }, { op_misc, 3 }, { op_ext, 3 }, { op_custom_joint, 3 }, { op_threading, 3 }, { op_matrix, 2 }, { op_copy_getters, 2 }, { op_more, 2 }, { op_coop, 2 }, { op_small, 1 },
    { op_override, 1 },
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

static void run_seed(unsigned long long seed) {
    rs = seed * 0x2545F4914F6CDD1Dull + 1;
    seed_now = seed;
    findings_this_seed = 0;
    dInitODE2(0);
    dSetErrorHandler(on_error);
    dSetDebugHandler(on_debug);
    dSetMessageHandler(on_message);
    dRandSetSeed((unsigned long)seed);
    hf_mode = rn(8) < 6 ? 0 : 1 + rn(3);
    ucls_mode = rn(10) < 6 ? 0 : 1 + rn(3);
    /* The user class: once per process (a class stays registered across
     * dCloseODE in our library, and ODE allows four), so that with
     * --no-fork every seed's user geoms are of the same class. */
    if (user_class < 0) {
        dGeomClass c = { 0, ucls_get, ucls_aabb, NULL, NULL };
        user_class = dCreateGeomClass(&c);
    }
    int total = 0;
    for (int i = 0; i < NOPS; i++) total += ops[i].weight;
    /* A starting scene: one world, a ground, a few bodies and geoms. */
    for (call_index = 0; call_index < calls_per_seed; call_index++) {
        int r = rn(total), i = 0;
        while (r >= ops[i].weight) r -= ops[i++].weight;
        ops[i].op();
    }
    /* The matching close: the last one restores the built-in collider
     * table, so that with --no-fork the next seed starts without this
     * seed's overrides. */
    begin("dCloseODE"); TRACE("dCloseODE()");
    CALL(dCloseODE());
    ovr_forget();
}

typedef struct { long calls, bad, reported, unexpected, excluded, findings, contacts; } Result;

static volatile sig_atomic_t got_alarm;
static void on_fatal(int sig) {
    char b[160];
    int n = snprintf(b, sizeof b, "FINDING %s: seed %llu call %ld (%s)\n", sig == SIGALRM ? "hang" : "crash", seed_now, call_index,
                     cur.name ? cur.name : "?");
    if (write(1, b, (size_t)n) < 0) _exit(99);
    n = snprintf(b, sizeof b, "  signal %d; replay: fuzz_api --seed %llu --calls %ld --trace\n", sig, seed_now, call_index + 1);
    if (write(1, b, (size_t)n) < 0) _exit(99);
    dump_ring(1);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_child(unsigned long long seed, int timeout, Result *res) {
    int pfd[2];
    if (pipe(pfd) != 0) { perror("pipe"); exit(2); }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); exit(2); }
    if (pid == 0) {
        close(pfd[0]);
        signal(SIGSEGV, on_fatal); signal(SIGBUS, on_fatal); signal(SIGABRT, on_fatal);
        signal(SIGFPE, on_fatal); signal(SIGILL, on_fatal); signal(SIGALRM, on_fatal);
        alarm((unsigned)timeout);
        run_seed(seed);
        Result r = { n_calls, n_bad, n_reported, n_unexpected, n_excluded, n_findings, n_contacts };
        fflush(stdout);
        if (write(pfd[1], &r, sizeof r) != (ssize_t)sizeof r) _exit(3);
        _exit(0);
    }
    close(pfd[1]);
    Result r;
    ssize_t got = read(pfd[0], &r, sizeof r);
    close(pfd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    if (got == (ssize_t)sizeof r && WIFEXITED(st) && WEXITSTATUS(st) == 0) { *res = r; return 0; }
    memset(res, 0, sizeof *res);
    res->findings = 1;
    if (WIFSIGNALED(st)) printf("  seed %llu: child killed by signal %d\n", seed, WTERMSIG(st));
    else printf("  seed %llu: child exited with status %d\n", seed, WEXITSTATUS(st));
    return 1;
}

static void usage(void) {
    puts("usage: fuzz_api [--seeds A-B | --seed S] [--calls N] [--seconds T] [--jobs J] [--timeout S]\n"
         "                [--trace] [--verbose] [--deep-every K] [--no-exclusions] [--no-fork]\n"
         "  --seeds A-B     run seeds A..B (default 1-50), one forked child per seed\n"
         "  --calls N       calls per seed (default 20000)\n"
         "  --seconds T     stop starting new seeds after T seconds (long runs)\n"
         "  --jobs J        children in parallel (default 1)\n"
         "  --timeout S     a seed running longer is a hang (default 300)\n"
         "  --trace         print every call (use with --seed to replay a finding)\n"
         "  --deep-every K  hash every live object on 1 call in K (default 16, 0 = never)\n"
         "  --no-exclusions generate the known-issue inputs too\n"
         "Prints 'fuzz: N calls, N seeds, N findings' and exits 1 on any finding.");
}

int main(int argc, char **argv) {
    /* Same addresses on every run, so that a seed replays exactly (hash
     * spaces and pair orders may depend on handle addresses). */
    int pers = personality(0xffffffff);
    if (pers != -1 && !(pers & ADDR_NO_RANDOMIZE) && !getenv("FUZZ_API_NO_REEXEC")) {
        setenv("FUZZ_API_NO_REEXEC", "1", 1);
        if (personality((unsigned long)pers | ADDR_NO_RANDOMIZE) != -1) execv("/proc/self/exe", argv);
    }
    unsigned long long s0 = 1, s1 = 50;
    double seconds = 0;
    int jobs = 1, timeout = 300, nofork = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seeds") && v) { if (sscanf(v, "%llu-%llu", &s0, &s1) != 2) { usage(); return 2; } i++; }
        else if (!strcmp(a, "--seed") && v) { s0 = s1 = strtoull(v, NULL, 10); i++; }
        else if (!strcmp(a, "--calls") && v) { calls_per_seed = strtol(v, NULL, 10); i++; }
        else if (!strcmp(a, "--seconds") && v) { seconds = atof(v); i++; }
        else if (!strcmp(a, "--jobs") && v) { jobs = atoi(v); i++; }
        else if (!strcmp(a, "--timeout") && v) { timeout = atoi(v); i++; }
        else if (!strcmp(a, "--deep-every") && v) { deep_every = atoi(v); i++; }
        else if (!strcmp(a, "--trace")) opt_trace = 1;
        else if (!strcmp(a, "--verbose")) opt_verbose++;
        else if (!strcmp(a, "--no-fork")) nofork = 1;
        else if (!strcmp(a, "--no-exclusions")) {
            EXCL_TRANSFORM_CYCLES = EXCL_CONVEX_BAD_POLYGONS = EXCL_SAP_DISABLED_PAIR = 0;
            EXCL_TRIMESH_PREPROCESS_UNBUILT = EXCL_SILENT_BAD_VALUES = EXCL_ODE_NAN_CONTACTS = 0;
        } else { usage(); return 2; }
    }
    if (jobs < 1) jobs = 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (nofork) {
        for (unsigned long long s = s0; s <= s1; s++) run_seed(s);
        printf("fuzz: %ld calls, %llu seeds, %ld findings (%ld bad calls, %ld reported, %ld unexpected reports, %ld excluded)\n",
               n_calls, s1 - s0 + 1, n_findings, n_bad, n_reported, n_unexpected, n_excluded);
        return n_findings ? 1 : 0;
    }
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    Result tot = { 0, 0, 0, 0, 0, 0, 0 };
    unsigned long long seeds = 0, next = s0;
    long failed_seeds = 0;
    /* Up to `jobs` children at once; each reports through its own pipe. */
    typedef struct { pid_t pid; int fd; unsigned long long seed; } Slot;
    Slot slots[64];
    int active = 0;
    if (jobs > 64) jobs = 64;
    for (;;) {
        struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
        double el = (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec);
        int may_start = next <= s1 && !(seconds > 0 && el >= seconds);
        if (jobs == 1 && may_start) {
            Result r;
            failed_seeds += run_child(next, timeout, &r);
            tot.calls += r.calls; tot.bad += r.bad; tot.reported += r.reported; tot.unexpected += r.unexpected;
            tot.excluded += r.excluded; tot.findings += r.findings; tot.contacts += r.contacts;
            seeds++; next++;
            continue;
        }
        if (may_start && active < jobs) {
            int pfd[2];
            if (pipe(pfd) != 0) { perror("pipe"); return 2; }
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                close(pfd[0]);
                for (int k = 0; k < active; k++) close(slots[k].fd);
                signal(SIGSEGV, on_fatal); signal(SIGBUS, on_fatal); signal(SIGABRT, on_fatal);
                signal(SIGFPE, on_fatal); signal(SIGILL, on_fatal); signal(SIGALRM, on_fatal);
                alarm((unsigned)timeout);
                run_seed(next);
                Result r = { n_calls, n_bad, n_reported, n_unexpected, n_excluded, n_findings, n_contacts };
                fflush(stdout);
                if (write(pfd[1], &r, sizeof r) != (ssize_t)sizeof r) _exit(3);
                _exit(0);
            }
            close(pfd[1]);
            slots[active].pid = pid; slots[active].fd = pfd[0]; slots[active].seed = next;
            active++; next++; seeds++;
            continue;
        }
        if (active == 0) break;
        int st = 0;
        pid_t done = wait(&st);
        if (done < 0) break;
        for (int k = 0; k < active; k++) {
            if (slots[k].pid != done) continue;
            Result r; ssize_t got = read(slots[k].fd, &r, sizeof r);
            close(slots[k].fd);
            if (got == (ssize_t)sizeof r && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
                tot.calls += r.calls; tot.bad += r.bad; tot.reported += r.reported; tot.unexpected += r.unexpected;
                tot.excluded += r.excluded; tot.findings += r.findings; tot.contacts += r.contacts;
            } else {
                tot.findings++; failed_seeds++;
                if (WIFSIGNALED(st)) printf("  seed %llu: child killed by signal %d\n", slots[k].seed, WTERMSIG(st));
                else printf("  seed %llu: child exited with status %d\n", slots[k].seed, WEXITSTATUS(st));
            }
            slots[k] = slots[--active];
            break;
        }
    }
    struct timespec t1; clock_gettime(CLOCK_MONOTONIC, &t1);
    double el = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("exclusions on:%s%s%s%s%s%s\n", EXCL_TRANSFORM_CYCLES ? " transform-cycles" : "", EXCL_CONVEX_BAD_POLYGONS ? " convex-bad-polygons" : "",
           EXCL_SAP_DISABLED_PAIR ? " sap-disabled-pair" : "",
           EXCL_TRIMESH_PREPROCESS_UNBUILT ? " trimesh-preprocess-unbuilt" : "",
           EXCL_SILENT_BAD_VALUES ? " silent-bad-values" : "", EXCL_ODE_NAN_CONTACTS ? " ode-nan-contacts" : "");
    /* Which solver mode the worlds were created in (our ODE_SOLVER; Debian's
     * ODE ignores it). */
    const char *mode = getenv("ODE_SOLVER");
    printf("fuzz: %ld calls, %llu seeds, %ld findings (%ld bad calls, %ld reported, %ld unexpected reports, %ld excluded, %ld contacts, %ld crashed seeds) in %.1fs, solver %s\n",
           tot.calls, seeds, tot.findings, tot.bad, tot.reported, tot.unexpected, tot.excluded, tot.contacts, failed_seeds, el,
           mode && *mode ? mode : "exact");
    return tot.findings ? 1 : 0;
}
