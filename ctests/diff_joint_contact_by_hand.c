/* DIFF-TOL rel=1e-6 abs=1e-9 */
/* Contact joints made by hand (no collision library) for 1.2 s with both
 * steppers: boxes on the ground plane and on a ramp, a box stacked on
 * another (two-body contacts), and a rolling sphere, each with a different
 * surface: friction pyramid (Approx1) with soft ERP/CFM, mu = dInfinity,
 * anisotropic Mu2 with FDir1 and box friction (Approx0), bounce,
 * conveyor Motion1/MotionN with Slip1/Slip2, rolling/spinning friction
 * (Rolling, AxisDep rho/rho2/rhoN, Approx1_N), and the world's contact
 * surface layer and maximum correcting velocity. Contacts live in a joint
 * group emptied every step. */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

static dWorldID w;
static dJointGroupID group;

static void body_state(const char *tag, dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    const dReal *v = dBodyGetLinearVel(b), *a = dBodyGetAngularVel(b);
    printf("%s p %.10g %.10g %.10g q %.10g %.10g %.10g %.10g v %.10g %.10g %.10g w %.10g %.10g %.10g\n", tag,
           p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], a[0], a[1], a[2]);
}

static dBodyID box(dReal x, dReal y, dReal z, dReal m, const dReal *half)
{
    dMass mass;
    dBodyID b = dBodyCreate(w);
    dMassSetBoxTotal(&mass, m, 2 * half[0], 2 * half[1], 2 * half[2]);
    dBodySetMass(b, &mass);
    dBodySetPosition(b, x, y, z);
    return b;
}

static int add(dBodyID b1, dBodyID b2, const dSurfaceParameters *s, const dReal *pos, const dReal *n, dReal depth,
               const dReal *fdir1)
{
    dContact c;
    dJointID j;
    memset(&c, 0, sizeof c);
    c.surface = *s;
    memcpy(c.geom.pos, pos, 3 * sizeof(dReal));
    memcpy(c.geom.normal, n, 3 * sizeof(dReal));
    c.geom.depth = depth;
    if (fdir1) memcpy(c.fdir1, fdir1, 3 * sizeof(dReal));
    j = dJointCreateContact(w, group, &c);
    dJointAttach(j, b1, b2);
    return 1;
}

/* Corners of box b below the plane n·x = d: contacts pushing b along n. */
static int box_plane(dBodyID b, const dReal *half, const dReal *n, dReal d, const dSurfaceParameters *s,
                     const dReal *fdir1)
{
    int i, k = 0;
    for (i = 0; i < 8; i++) {
        dVector3 c, p;
        dReal depth;
        c[0] = (i & 1) ? half[0] : -half[0];
        c[1] = (i & 2) ? half[1] : -half[1];
        c[2] = (i & 4) ? half[2] : -half[2];
        dBodyGetRelPointPos(b, c[0], c[1], c[2], p);
        depth = d - (n[0] * p[0] + n[1] * p[1] + n[2] * p[2]);
        if (depth > 0) k += add(b, 0, s, p, n, depth, fdir1);
    }
    return k;
}

/* Bottom corners of box `top` below the top face of box `bot`: two-body
 * contacts with the normal along bot's z axis. */
static int box_on_box(dBodyID top, const dReal *ht, dBodyID bot, const dReal *hb, const dSurfaceParameters *s)
{
    int i, k = 0;
    dVector3 n;
    dBodyVectorToWorld(bot, 0, 0, 1, n);
    for (i = 0; i < 4; i++) {
        dVector3 p, l;
        dBodyGetRelPointPos(top, (i & 1) ? ht[0] : -ht[0], (i & 2) ? ht[1] : -ht[1], -ht[2], p);
        dBodyGetPosRelPoint(bot, p[0], p[1], p[2], l);
        if (l[2] < hb[2] && fabs(l[0]) <= hb[0] && fabs(l[1]) <= hb[1])
            k += add(top, bot, s, p, n, hb[2] - l[2], 0);
    }
    return k;
}

static void run(int quick)
{
    const char *tag = quick ? "quick" : "step";
    static const dReal up[3] = {0, 0, 1};
    static const dReal half[3] = {0.2, 0.15, 0.1};
    static const dReal big[3] = {0.4, 0.4, 0.1};
    const dReal ramp[3] = {sin(0.3), 0, cos(0.3)};
    const dReal fdir[3] = {0.8, 0.6, 0};
    dSurfaceParameters sp, sinf, saniso, sbounce, smotion, sroll, sramp_lo, sramp_hi, sstack;
    dBodyID bp, binf, baniso, bbounce, bmotion, sphere, rlo, rhi, bot, top;
    dMass m;
    dQuaternion q;
    int s, n;

    w = dWorldCreate();
    group = dJointGroupCreate(0);
    dWorldSetGravity(w, 0, 0, -9.81);
    dWorldSetContactSurfaceLayer(w, 0.001);
    dWorldSetContactMaxCorrectingVel(w, 0.8);
    if (quick) dWorldSetQuickStepNumIterations(w, 30);

    memset(&sp, 0, sizeof sp);
    sp.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
    sp.mu = 0.5;
    sp.soft_erp = 0.4;
    sp.soft_cfm = 1e-4;
    bp = box(0, 0, 0.099, 1, half);
    dBodySetLinearVel(bp, 1.5, 0.4, 0);
    dBodySetAngularVel(bp, 0, 0, 2);

    memset(&sinf, 0, sizeof sinf);
    sinf.mode = dContactSoftCFM;
    sinf.mu = dInfinity;
    sinf.soft_cfm = 1e-5;
    binf = box(2, 0, 0.1, 1, half);
    dBodySetLinearVel(binf, 1, -0.5, 0);

    memset(&saniso, 0, sizeof saniso);
    saniso.mode = dContactMu2 | dContactFDir1;
    saniso.mu = 0.3;
    saniso.mu2 = 3.0;
    baniso = box(4, 0, 0.1, 2, half);
    dBodySetLinearVel(baniso, 1, 1, 0);

    memset(&sbounce, 0, sizeof sbounce);
    sbounce.mode = dContactBounce | dContactApprox1;
    sbounce.mu = 0.2;
    sbounce.bounce = 0.7;
    sbounce.bounce_vel = 0.1;
    bbounce = box(6, 0, 0.6, 1, half);
    dQFromAxisAndAngle(q, 1, 0.3, 0, 0.2);
    dBodySetQuaternion(bbounce, q);

    memset(&smotion, 0, sizeof smotion);
    smotion.mode = dContactMotion1 | dContactMotionN | dContactSlip1 | dContactSlip2 | dContactApprox1;
    smotion.mu = 0.8;
    smotion.motion1 = 0.6;
    smotion.motionN = 0.01;
    smotion.slip1 = 0.05;
    smotion.slip2 = 0.02;
    bmotion = box(8, 0, 0.1, 1, half);

    memset(&sroll, 0, sizeof sroll);
    sroll.mode = dContactRolling | dContactAxisDep | dContactApprox1;
    sroll.mu = 1.0;
    sroll.mu2 = 1.0;
    sroll.rho = 0.02;
    sroll.rho2 = 0.02;
    sroll.rhoN = 0.01;
    sphere = dBodyCreate(w);
    dMassSetSphereTotal(&m, 1, 0.15);
    dBodySetMass(sphere, &m);
    dBodySetPosition(sphere, 10, 0, 0.15);
    dBodySetLinearVel(sphere, 2, 0, 0);
    dBodySetAngularVel(sphere, 0, 2 / 0.15, 1.5);

    /* ramp of 0.3 rad: below (mu 0.5) and above (mu 0.2) the friction angle */
    memset(&sramp_lo, 0, sizeof sramp_lo);
    sramp_lo.mode = dContactApprox1 | dContactSoftCFM;
    sramp_lo.mu = 0.5;
    sramp_lo.soft_cfm = 1e-5;
    sramp_hi = sramp_lo;
    sramp_hi.mu = 0.2;
    dQFromAxisAndAngle(q, 0, 1, 0, 0.3);
    rlo = box(12 * cos(0.3) + 0.1 * sin(0.3), 0, -12 * sin(0.3) + 0.1 * cos(0.3), 1, half);
    dBodySetQuaternion(rlo, q);
    rhi = box(12 * cos(0.3) + 0.1 * sin(0.3), 1, -12 * sin(0.3) + 0.1 * cos(0.3), 1, half);
    dBodySetQuaternion(rhi, q);

    /* a stack: a box on a big box on the ground */
    memset(&sstack, 0, sizeof sstack);
    sstack.mode = dContactApprox1 | dContactSoftCFM;
    sstack.mu = 0.6;
    sstack.soft_cfm = 1e-4;
    bot = box(14, 0, 0.099, 3, big);
    top = box(14.05, 0.02, 0.298, 1, half);
    dBodySetLinearVel(top, 0.3, 0, 0);

    for (s = 0; s < 120; s++) {
        n = 0;
        n += box_plane(bp, half, up, 0, &sp, 0);
        n += box_plane(binf, half, up, 0, &sinf, 0);
        n += box_plane(baniso, half, up, 0, &saniso, fdir);
        n += box_plane(bbounce, half, up, 0, &sbounce, 0);
        n += box_plane(bmotion, half, up, 0, &smotion, 0);
        {
            const dReal *p = dBodyGetPosition(sphere);
            dVector3 c;
            c[0] = p[0]; c[1] = p[1]; c[2] = 0;
            if (p[2] < 0.15) n += add(sphere, 0, &sroll, c, up, 0.15 - p[2], 0);
        }
        n += box_plane(rlo, half, ramp, 0, &sramp_lo, 0);
        n += box_plane(rhi, half, ramp, 0, &sramp_hi, 0);
        n += box_plane(bot, big, up, 0, &sstack, 0);
        n += box_on_box(top, half, bot, big, &sstack);
        if (quick) dWorldQuickStep(w, 0.01); else dWorldStep(w, 0.01);
        dJointGroupEmpty(group);
        if (s % 5 == 4) {
            printf("%s %d contacts %d\n", tag, s, n);
            body_state("  friction", bp);
            body_state("  noslip", binf);
            body_state("  aniso", baniso);
            body_state("  bounce", bbounce);
            body_state("  motion", bmotion);
            body_state("  sphere", sphere);
            body_state("  ramp-stick", rlo);
            body_state("  ramp-slide", rhi);
            body_state("  stack-bottom", bot);
            body_state("  stack-top", top);
        }
    }
    dJointGroupDestroy(group);
    dWorldDestroy(w);
}

int main(void)
{
    dInitODE2(0);
    run(0);
    run(1);
    dCloseODE();
    return 0;
}
