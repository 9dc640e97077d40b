/* The fast dWorldStep (odexWorldSetSolverMode(w, ODEX_SOLVER_FAST)): for
 * joints with only bilateral rows (no limits, no contacts), its sparse
 * factorisation must give the dense solve's answer. Each scene is built
 * twice, once per mode, from the same random state; after one step the
 * velocities must agree to 1e-9 relative to the largest one:
 *  - a 120-link hinge chain hanging from the environment;
 *  - a random tree of 60 bodies joined by ball, hinge, universal and fixed
 *    joints;
 *  - the same tree with 6 extra ball joints closing loops (fill-in).
 * With bounded rows (the reduced, Schur complement solve): the random tree
 * with hinge stops it violates and contacts (frictionless, findex friction,
 * box friction) gives the exact Step's velocities and contact forces to
 * 1e-9 relative after one step. Then a chain with hinge limits driven past
 * them and a box stack on a plane, stepped 300 times: the limits hold
 * (within what the exact Step allows) and the boxes neither sink nor drift
 * more than in the exact Step.
 * Runs against our library. Prints "PASS <n>". */
#include <ode/ode.h>
#include <stdarg.h>
#include <ode/ode_ext.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int checks, failures;
static void check(int ok, const char *what)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s\n", what);
    }
}

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) /* in [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

#define MAXB 200

typedef struct {
    dWorldID w;
    dBodyID b[MAXB];
    int n;
} Scene;

static dBodyID add_body(Scene *s, double x, double y, double z)
{
    dMass m;
    dBodyID b = dBodyCreate(s->w);
    dMassSetBoxTotal(&m, 1 + 0.5 * urand(), 0.4, 0.3, 0.2);
    dBodySetMass(b, &m);
    dBodySetPosition(b, x, y, z);
    dBodySetLinearVel(b, urand(), urand(), urand());
    dBodySetAngularVel(b, urand(), urand(), urand());
    s->b[s->n++] = b;
    return b;
}

static void joint(Scene *s, int type, dBodyID a, dBodyID b, const dReal *p)
{
    dJointID j;
    dReal ax[3] = {urand(), urand(), urand() + 2};
    switch (type) {
    case 0:
        j = dJointCreateBall(s->w, 0);
        dJointAttach(j, a, b);
        dJointSetBallAnchor(j, p[0], p[1], p[2]);
        break;
    case 1:
        j = dJointCreateHinge(s->w, 0);
        dJointAttach(j, a, b);
        dJointSetHingeAnchor(j, p[0], p[1], p[2]);
        dJointSetHingeAxis(j, ax[0], ax[1], ax[2]);
        break;
    case 2:
        j = dJointCreateUniversal(s->w, 0);
        dJointAttach(j, a, b);
        dJointSetUniversalAnchor(j, p[0], p[1], p[2]);
        dJointSetUniversalAxis1(j, 1, 0, 0);
        dJointSetUniversalAxis2(j, 0, 1, 0);
        break;
    default:
        j = dJointCreateFixed(s->w, 0);
        dJointAttach(j, a, b);
        dJointSetFixed(j);
        break;
    }
}

/* kind 0: chain; 1: tree; 2: tree with loops. Same random stream per mode. */
static void build(Scene *s, int kind, int mode)
{
    int i;
    rng = 88172645463325252ULL + (unsigned long long)kind;
    s->w = dWorldCreate();
    s->n = 0;
    odexWorldSetSolverMode(s->w, mode);
    dWorldSetGravity(s->w, 0, 0, -9.81);
    if (kind == 0) {
        dBodyID prev = 0;
        for (i = 0; i < 120; i++) {
            dBodyID b = add_body(s, 0.5 * i, 0, 10);
            dReal p[3] = {0.5 * i - 0.25, 0, 10};
            dJointID j = dJointCreateHinge(s->w, 0);
            dJointAttach(j, b, prev);
            dJointSetHingeAnchor(j, p[0], p[1], p[2]);
            dJointSetHingeAxis(j, 0, 1, 0);
            prev = b;
        }
        return;
    }
    add_body(s, 0, 0, 5);
    for (i = 1; i < 60; i++) {
        int parent = (int)((urand() + 1) * 0.5 * i) % i;
        const dReal *pp = dBodyGetPosition(s->b[parent]);
        dBodyID b = add_body(s, pp[0] + 0.5 * urand(), pp[1] + 0.5 * urand(), pp[2] + 0.5 * urand());
        const dReal *bp = dBodyGetPosition(b);
        dReal mid[3] = {(pp[0] + bp[0]) / 2, (pp[1] + bp[1]) / 2, (pp[2] + bp[2]) / 2};
        joint(s, (int)((urand() + 1) * 2) % 4, s->b[parent], b, mid);
    }
    if (kind == 2) {
        for (i = 0; i < 6; i++) {
            int a = (int)((urand() + 1) * 30) % 60, c = (int)((urand() + 1) * 30) % 60;
            if (a != c) {
                const dReal *pa = dBodyGetPosition(s->b[a]);
                joint(s, 0, s->b[a], s->b[c], pa);
            }
        }
    }
}

static void bilateral_equals_dense(int kind)
{
    static const char *names[] = {"120-link hinge chain", "random joint tree", "tree with loops"};
    Scene e, f;
    int i, k;
    double vmax = 0, dmax = 0;
    char what[160];
    build(&e, kind, ODEX_SOLVER_EXACT);
    build(&f, kind, ODEX_SOLVER_FAST);
    dWorldStep(e.w, 0.01);
    dWorldStep(f.w, 0.01);
    for (i = 0; i < e.n; i++)
        for (k = 0; k < 3; k++) {
            double a[2] = {dBodyGetLinearVel(e.b[i])[k], dBodyGetAngularVel(e.b[i])[k]};
            double b[2] = {dBodyGetLinearVel(f.b[i])[k], dBodyGetAngularVel(f.b[i])[k]};
            int t;
            for (t = 0; t < 2; t++) {
                vmax = fmax(vmax, fabs(a[t]));
                dmax = fmax(dmax, fabs(a[t] - b[t]));
            }
        }
    snprintf(what, sizeof what, "%s: fast velocities equal the dense solve's (max difference %.3g, max velocity %.3g)",
             names[kind], dmax, vmax);
    check(vmax > 0 && dmax <= 1e-9 * vmax, what);
    dWorldDestroy(e.w);
    dWorldDestroy(f.w);
}

/* Bounded rows on top of the random joint tree: every hinge gets stops its
 * current angle (0) violates, so the limit row is active; every third body gets a contact with the ground and every
 * seventh a contact with the next body. contact 0: frictionless (one row);
 * 1: mu 0.5 with dContactApprox1 (friction rows bounded by mu·normal, via
 * findex); 2: mu 0.5 as a fixed force bound. With CFM the matrix is positive
 * definite, so the LCP has one solution (the friction bounds too, being set
 * from the normal forces of the frictionless subproblem), and the fast
 * Step's reduced (Schur complement) solve must give the exact Step's
 * velocities and contact forces to 1e-9 relative. (Not on the tree with
 * loops: contacts fighting its rigid loops make forces of 1e9, an
 * ill-conditioned system where rounding alone differs by 1e-8.) */
static dJointFeedback bounded_fb[2][MAXB * 3];
static int bounded_contacts(Scene *s, int contact, dJointFeedback *fb)
{
    int i, n = 0;
    dJointID j;
    for (i = 0; i < s->n; i++) {
        int t;
        for (t = 0; t < 3; t++) {
            dContact c;
            const dReal *p = dBodyGetPosition(s->b[i]);
            dBodyID other = 0;
            /* Few enough contacts that the system is not overconstrained
               (an ill-conditioned one amplifies rounding beyond 1e-9). */
            if (t == 1 || (t == 0 && i % 3 != 0))
                continue;
            if (t == 2) {
                if (i % 7 != 0 || i + 1 >= s->n)
                    continue;
                other = s->b[i + 1];
            }
            memset(&c, 0, sizeof c);
            c.surface.mode = contact == 1 ? dContactApprox1 : 0;
            c.surface.mu = contact == 0 ? 0 : 0.5;
            c.geom.pos[0] = p[0] + 0.1 * urand();
            c.geom.pos[1] = p[1] + 0.1 * urand();
            c.geom.pos[2] = p[2] - 0.1;
            c.geom.normal[0] = 0.2 * urand();
            c.geom.normal[1] = 0.2 * urand();
            c.geom.normal[2] = 1;
            dNormalize3(c.geom.normal);
            c.geom.depth = 0.01 * (urand() + 1);
            j = dJointCreateContact(s->w, 0, &c);
            dJointAttach(j, s->b[i], other);
            dJointSetFeedback(j, &fb[n++]);
        }
    }
    return n;
}

static void bounded_equals_dense(int contact)
{
    const int kind = 1;
    static const char *cnames[] = {"frictionless contacts", "contacts with friction (findex)", "contacts with box friction"};
    Scene sc[2];
    int i, k, md, nc = 0;
    double vmax = 0, dmax = 0, fmax_ = 0, fdmax = 0;
    char what[220];
    for (md = 0; md < 2; md++) {
        dJointID jt;
        build(&sc[md], kind, md == 0 ? ODEX_SOLVER_EXACT : ODEX_SOLVER_FAST);
        /* Stops violated at the current angle (0): the limit rows act. */
        for (i = 0; i < sc[md].n; i++) {
            int nj = dBodyGetNumJoints(sc[md].b[i]);
            for (k = 0; k < nj; k++) {
                jt = dBodyGetJoint(sc[md].b[i], k);
                if (dJointGetType(jt) == dJointTypeHinge) {
                    dJointSetHingeParam(jt, dParamLoStop, 0.05);
                    dJointSetHingeParam(jt, dParamHiStop, 0.5);
                }
            }
        }
        rng = 1234567ULL + (unsigned long long)(10 * kind + contact);
        nc = bounded_contacts(&sc[md], contact, bounded_fb[md]);
        dWorldStep(sc[md].w, 0.01);
    }
    for (i = 0; i < sc[0].n; i++)
        for (k = 0; k < 3; k++) {
            double a[2] = {dBodyGetLinearVel(sc[0].b[i])[k], dBodyGetAngularVel(sc[0].b[i])[k]};
            double b[2] = {dBodyGetLinearVel(sc[1].b[i])[k], dBodyGetAngularVel(sc[1].b[i])[k]};
            int t;
            for (t = 0; t < 2; t++) {
                vmax = fmax(vmax, fabs(a[t]));
                dmax = fmax(dmax, fabs(a[t] - b[t]));
            }
        }
    for (i = 0; i < nc; i++)
        for (k = 0; k < 3; k++) {
            fmax_ = fmax(fmax_, fabs(bounded_fb[0][i].f1[k]));
            fdmax = fmax(fdmax, fabs(bounded_fb[0][i].f1[k] - bounded_fb[1][i].f1[k]));
        }
    snprintf(what, sizeof what,
             "joint tree, hinge stops, %s: fast velocities equal the exact Step's (max difference %.3g, max velocity %.3g)",
             cnames[contact], dmax, vmax);
    check(vmax > 0 && dmax <= 1e-9 * vmax, what);
    snprintf(what, sizeof what, "joint tree, %s: contact forces equal the exact Step's (max difference %.3g, max force %.3g)",
             cnames[contact], fdmax, fmax_);
    check(fmax_ > 0 && fdmax <= 1e-9 * fmax_, what);
    dWorldDestroy(sc[0].w);
    dWorldDestroy(sc[1].w);
}

/* A 10-link hinge chain with stops at +-0.3 rad, swung hard; returns the
 * worst overshoot past the stops over 300 steps. */
static double stop_overshoot(int mode)
{
    dWorldID w = dWorldCreate();
    dJointID js[10];
    dBodyID prev = 0;
    int i, step;
    double worst = 0;
    odexWorldSetSolverMode(w, mode);
    dWorldSetGravity(w, 0, 0, -9.81);
    for (i = 0; i < 10; i++) {
        dMass m;
        dBodyID b = dBodyCreate(w);
        dMassSetBoxTotal(&m, 1, 0.5, 0.1, 0.1);
        dBodySetMass(b, &m);
        dBodySetPosition(b, 0.5 * i + 0.25, 0, 5);
        dBodySetAngularVel(b, 0, 3, 0);
        js[i] = dJointCreateHinge(w, 0);
        dJointAttach(js[i], b, prev);
        dJointSetHingeAnchor(js[i], 0.5 * i, 0, 5);
        dJointSetHingeAxis(js[i], 0, 1, 0);
        if (i > 0) {
            dJointSetHingeParam(js[i], dParamLoStop, -0.3);
            dJointSetHingeParam(js[i], dParamHiStop, 0.3);
        }
        prev = b;
    }
    for (step = 0; step < 300; step++) {
        dWorldStep(w, 0.01);
        for (i = 1; i < 10; i++)
            worst = fmax(worst, fabs(dJointGetHingeAngle(js[i])) - 0.3);
    }
    dWorldDestroy(w);
    return worst;
}

static void limits_hold(void)
{
    double exact = stop_overshoot(ODEX_SOLVER_EXACT), fast = stop_overshoot(ODEX_SOLVER_FAST);
    printf("limits: worst overshoot %.4g rad (exact Step %.4g)\n", fast, exact);
    check(fast <= exact * 1.05 + 1e-6, "hinge stops hold in fast mode as well as in the exact Step");
}

static dWorldID stack_world;
static dJointGroupID stack_contacts;
static dReal stack_mu;
static int reports;
static void count_report(int num, const char *msg, va_list ap)
{
    (void)num; (void)msg; (void)ap;
    reports++;
}
static void near_cb(void *data, dGeomID a, dGeomID b)
{
    dContact c[4];
    int i, n = dCollide(a, b, 4, &c[0].geom, sizeof c[0]);
    (void)data;
    for (i = 0; i < n; i++) {
        c[i].surface.mode = dContactApprox1;
        c[i].surface.mu = stack_mu;
        dJointAttach(dJointCreateContact(stack_world, stack_contacts, &c[i]), dGeomGetBody(a), dGeomGetBody(b));
    }
}

/* mu = dInfinity (demo_buggy's surface): the friction bound mu·λn is
   ∞·0 = NaN before the normal force builds up; fast mode once stopped on it. */
static double stack_run(dReal mu, int mode, double *lowest_out);
/* The fast Step solves the exact Step's LCP, so the stack must stand as
   well as there (Debian's Step lets this stack drift about 1.3 cm). */
static void stack_stands(dReal mu)
{
    double lowest, exact_lowest, drift, exact;
    reports = 0;
    drift = stack_run(mu, ODEX_SOLVER_FAST, &lowest);
    exact = stack_run(mu, ODEX_SOLVER_EXACT, &exact_lowest);
    printf("stack (mu %g): lowest %.4g, drift %.4g (exact Step: lowest %.4g, drift %.4g), reports %d\n", mu, lowest,
           drift, exact_lowest, exact, reports);
    check(reports == 0, "no error or internal error reported");
    check(lowest > -0.02, "boxes do not sink (less than 2 cm)");
    check(drift < exact + 0.001, "the stack stands (drifts at most 1 mm more than in the exact Step)");
}

static double stack_run(dReal mu, int mode, double *lowest_out)
{
    dSpaceID space = dHashSpaceCreate(0);
    dBodyID boxes[5];
    int i, step;
    double lowest = 1e9, drift = 0;
    stack_mu = mu;
    dSetDebugHandler(count_report);
    dSetErrorHandler(count_report);
    stack_world = dWorldCreate();
    stack_contacts = dJointGroupCreate(0);
    odexWorldSetSolverMode(stack_world, mode);
    dWorldSetGravity(stack_world, 0, 0, -9.81);
    dCreatePlane(space, 0, 0, 1, 0);
    for (i = 0; i < 5; i++) {
        dMass m;
        dGeomID g = dCreateBox(space, 1, 1, 1);
        boxes[i] = dBodyCreate(stack_world);
        dMassSetBoxTotal(&m, 1, 1, 1, 1);
        dBodySetMass(boxes[i], &m);
        dBodySetPosition(boxes[i], 0, 0, 0.5 + i);
        dGeomSetBody(g, boxes[i]);
    }
    for (step = 0; step < 300; step++) {
        dSpaceCollide(space, 0, near_cb);
        dWorldStep(stack_world, 0.01);
        dJointGroupEmpty(stack_contacts);
    }
    for (i = 0; i < 5; i++) {
        const dReal *p = dBodyGetPosition(boxes[i]);
        lowest = fmin(lowest, p[2] - (0.5 + i));
        drift = fmax(drift, hypot(p[0], p[1]));
    }
    dSetDebugHandler(0);
    dSetErrorHandler(0);
    dJointGroupDestroy(stack_contacts);
    dSpaceDestroy(space);
    dWorldDestroy(stack_world);
    *lowest_out = lowest;
    return drift;
}

int main(void)
{
    int kind;
    dInitODE2(0);
    for (kind = 0; kind < 3; kind++)
        bilateral_equals_dense(kind);
    for (kind = 0; kind < 3; kind++)
        bounded_equals_dense(kind); /* the contact model */
    limits_hold();
    stack_stands(0.8);
    stack_stands(dInfinity);
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d checks\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
