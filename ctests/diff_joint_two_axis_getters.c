/* DIFF-TOL rel=0 abs=0 */
/* Getters of the universal, hinge2, PR, PU and piston joints on random
 * configurations: bodies at random poses and velocities, joints attached
 * as (a, b), (a, 0) and (0, a), anchors and axes set (plain, offset and
 * delta variants), read back, then the bodies moved to new random poses
 * and everything read again. Also parameter groups (including numbers
 * that are no parameter), the torque/force adders (read back through the
 * body accumulators) and the body positions the anchor-offset setters
 * leave. Printed with 17 digits: the two libraries must agree exactly. */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>

static unsigned long long seed = 0x1234abcdULL;
static double rnd(void)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) * (1.0 / 9007199254740992.0);
}
static double sym(void) { return 2 * rnd() - 1; }
static void rvec(dReal *v) { v[0] = sym(); v[1] = sym(); v[2] = sym(); }

/* a unit vector normal to `a` */
static void normal_to(const dReal *a, dReal *n)
{
    dReal r[3], l;
    rvec(r);
    n[0] = a[1] * r[2] - a[2] * r[1];
    n[1] = a[2] * r[0] - a[0] * r[2];
    n[2] = a[0] * r[1] - a[1] * r[0];
    l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    n[0] /= l; n[1] /= l; n[2] /= l;
}

static void pose(dBodyID b)
{
    dQuaternion q;
    dReal l;
    dBodySetPosition(b, 2 * sym(), 2 * sym(), 2 * sym());
    q[0] = sym(); q[1] = sym(); q[2] = sym(); q[3] = sym();
    l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    q[0] /= l; q[1] /= l; q[2] /= l; q[3] /= l;
    dBodySetQuaternion(b, q);
    dBodySetLinearVel(b, sym(), sym(), sym());
    dBodySetAngularVel(b, 3 * sym(), 3 * sym(), 3 * sym());
}

/* a small random turn and shift of a body, so angles stay meaningful */
static void nudge(dBodyID b)
{
    dQuaternion q, t, r;
    const dReal *p = dBodyGetPosition(b);
    dQFromAxisAndAngle(t, sym(), sym(), sym(), 1.2 * sym());
    dQMultiply0(r, t, dBodyGetQuaternion(b));
    q[0] = r[0]; q[1] = r[1]; q[2] = r[2]; q[3] = r[3];
    dBodySetQuaternion(b, q);
    dBodySetPosition(b, p[0] + 0.3 * sym(), p[1] + 0.3 * sym(), p[2] + 0.3 * sym());
}

static void pv(const char *tag, const dReal *v) { printf(" %s %.17g %.17g %.17g", tag, v[0], v[1], v[2]); }
static void pr(const char *tag, dReal x) { printf(" %s %.17g", tag, x); }

static void accum(dBodyID a, dBodyID b)
{
    pv("fa", dBodyGetForce(a));
    pv("ta", dBodyGetTorque(a));
    pv("fb", dBodyGetForce(b));
    pv("tb", dBodyGetTorque(b));
    pv("pa", dBodyGetPosition(a));
    printf("\n");
}

/* parameters: set a few in each group (and numbers that are none), read
 * every number of groups 1..3 */
typedef void (*setp)(dJointID, int, dReal);
typedef dReal (*getp)(dJointID, int);
static void params(dJointID j, setp set, getp get)
{
    int g, p;
    set(j, dParamLoStop, -0.5); set(j, dParamHiStop, 0.7); set(j, dParamVel, 1.25);
    set(j, dParamFMax, 3); set(j, dParamFMax, -1); set(j, dParamFudgeFactor, 0.5);
    set(j, dParamFudgeFactor, 1.5); set(j, dParamBounce, 0.2); set(j, dParamCFM, 1e-5);
    set(j, dParamStopERP, 0.3); set(j, dParamStopCFM, 1e-6); set(j, dParamSuspensionERP, 0.45);
    set(j, dParamSuspensionCFM, 1e-4); set(j, dParamERP, 0.66);
    set(j, dParamLoStop2, -0.25); set(j, dParamVel2, -2); set(j, dParamFMax2, 7);
    set(j, dParamSuspensionERP2, 0.11);
    set(j, dParamHiStop3, 0.9); set(j, dParamFMax3, 4); set(j, dParamVel3, 0.5);
    set(j, 0x10e, 9); set(j, 0x20e, 9); set(j, 0x300, 9); set(j, -1, 9); set(j, 14, 9);
    printf("  params");
    for (g = 0; g < 3; g++)
        for (p = 0; p < 14; p++) printf(" %.17g", get(j, g * 0x100 + p));
    printf(" %.17g %.17g %.17g\n", get(j, 0x300), get(j, -1), get(j, 14));
}

static void universal(dJointID j, dBodyID a, dBodyID b, int k)
{
    dVector3 v;
    dReal a1, a2;
    dJointGetUniversalAnchor(j, v); pv("anc", v);
    dJointGetUniversalAnchor2(j, v); pv("anc2", v);
    dJointGetUniversalAxis1(j, v); pv("ax1", v);
    dJointGetUniversalAxis2(j, v); pv("ax2", v);
    dJointGetUniversalAngles(j, &a1, &a2);
    pr("angs", a1); pr("", a2);
    pr("a1", dJointGetUniversalAngle1(j)); pr("a2", dJointGetUniversalAngle2(j));
    pr("r1", dJointGetUniversalAngle1Rate(j)); pr("r2", dJointGetUniversalAngle2Rate(j));
    printf("\n");
    (void)a; (void)b; (void)k;
}

static void hinge2(dJointID j)
{
    dVector3 v;
    dJointGetHinge2Anchor(j, v); pv("anc", v);
    dJointGetHinge2Anchor2(j, v); pv("anc2", v);
    dJointGetHinge2Axis1(j, v); pv("ax1", v);
    dJointGetHinge2Axis2(j, v); pv("ax2", v);
    pr("a1", dJointGetHinge2Angle1(j)); pr("a2", dJointGetHinge2Angle2(j));
    pr("r1", dJointGetHinge2Angle1Rate(j)); pr("r2", dJointGetHinge2Angle2Rate(j));
    printf("\n");
}

static void prj(dJointID j)
{
    dVector3 v;
    dJointGetPRAnchor(j, v); pv("anc", v);
    dJointGetPRAxis1(j, v); pv("ax1", v);
    dJointGetPRAxis2(j, v); pv("ax2", v);
    pr("pos", dJointGetPRPosition(j)); pr("posr", dJointGetPRPositionRate(j));
    pr("ang", dJointGetPRAngle(j)); pr("angr", dJointGetPRAngleRate(j));
    printf("\n");
}

static void puj(dJointID j)
{
    dVector3 v;
    dReal a1, a2;
    dJointGetPUAnchor(j, v); pv("anc", v);
    dJointGetPUAxis1(j, v); pv("ax1", v);
    dJointGetPUAxis2(j, v); pv("ax2", v);
    dJointGetPUAxis3(j, v); pv("ax3", v);
    dJointGetPUAxisP(j, v); pv("axp", v);
    pr("pos", dJointGetPUPosition(j)); pr("posr", dJointGetPUPositionRate(j));
    dJointGetPUAngles(j, &a1, &a2);
    pr("angs", a1); pr("", a2);
    pr("a1", dJointGetPUAngle1(j)); pr("a2", dJointGetPUAngle2(j));
    pr("r1", dJointGetPUAngle1Rate(j)); pr("r2", dJointGetPUAngle2Rate(j));
    printf("\n");
}

static void piston(dJointID j)
{
    dVector3 v;
    dJointGetPistonAnchor(j, v); pv("anc", v);
    dJointGetPistonAnchor2(j, v); pv("anc2", v);
    dJointGetPistonAxis(j, v); pv("ax", v);
    pr("pos", dJointGetPistonPosition(j)); pr("posr", dJointGetPistonPositionRate(j));
    pr("ang", dJointGetPistonAngle(j)); pr("angr", dJointGetPistonAngleRate(j));
    printf("\n");
}

static void attach(dJointID j, dBodyID a, dBodyID b, int mode)
{
    if (mode == 0) dJointAttach(j, a, b);
    else if (mode == 1) dJointAttach(j, a, 0);
    else dJointAttach(j, 0, a);
}

int main(void)
{
    int mode, k;
    dInitODE2(0);
    for (mode = 0; mode < 3; mode++) {
        for (k = 0; k < 6; k++) {
            dWorldID w = dWorldCreate();
            dBodyID a = dBodyCreate(w), b = dBodyCreate(w);
            dJointID j;
            dReal p[3], ax[3], n[3], d[3];
            pose(a);
            pose(b);

            /* universal */
            j = dJointCreateUniversal(w, 0);
            attach(j, a, b, mode);
            rvec(p); rvec(ax); normal_to(ax, n);
            dJointSetUniversalAnchor(j, p[0], p[1], p[2]);
            dJointSetUniversalAxis1(j, ax[0], ax[1], ax[2]);
            dJointSetUniversalAxis2(j, n[0], n[1], n[2]);
            printf("uni %d %d set", mode, k); universal(j, a, b, k);
            if (k % 3 == 1) {
                dJointSetUniversalAxis1Offset(j, ax[0], ax[1], ax[2], 0.4 * sym(), 0.4 * sym());
                printf("uni %d %d off1", mode, k); universal(j, a, b, k);
            } else if (k % 3 == 2) {
                dJointSetUniversalAxis2Offset(j, n[0], n[1], n[2], 0.4 * sym(), 0.4 * sym());
                printf("uni %d %d off2", mode, k); universal(j, a, b, k);
            }
            nudge(a); nudge(b);
            printf("uni %d %d moved", mode, k); universal(j, a, b, k);
            dJointAddUniversalTorques(j, 1.5, -0.7);
            printf("uni %d %d torque", mode, k); accum(a, b);
            params(j, dJointSetUniversalParam, dJointGetUniversalParam);
            /* re-attaching keeps the world axes */
            attach(j, b, a, mode);
            printf("uni %d %d reattached", mode, k); universal(j, a, b, k);
            dJointDestroy(j);
            dBodySetForce(a, 0, 0, 0); dBodySetTorque(a, 0, 0, 0);
            dBodySetForce(b, 0, 0, 0); dBodySetTorque(b, 0, 0, 0);

            /* hinge2: two bodies only */
            if (mode == 0) {
                dReal a1[3], a2[3];
                j = dJointCreateHinge2(w, 0);
                if (k == 0) {
                    printf("h2 unattached"); pr("a1", dJointGetHinge2Angle1(j));
                    pr("r1", dJointGetHinge2Angle1Rate(j)); pr("r2", dJointGetHinge2Angle2Rate(j)); printf("\n");
                }
                if (k % 2) dJointAttach(j, a, b); else dJointAttach(j, b, a);
                rvec(p); rvec(a1); normal_to(a1, a2);
                dJointSetHinge2Anchor(j, p[0], p[1], p[2]);
                if (k % 3 == 0) {
                    dJointSetHinge2Axes(j, a1, a2);
                } else if (k % 3 == 1) {
                    dJointSetHinge2Axis1(j, a1[0], a1[1], a1[2]);
                    dJointSetHinge2Axis2(j, a2[0], a2[1], a2[2]);
                } else {
                    dJointSetHinge2Axes(j, a1, 0);
                    dJointSetHinge2Axes(j, 0, a2);
                }
                printf("h2 %d set", k); hinge2(j);
                nudge(a); nudge(b);
                printf("h2 %d moved", k); hinge2(j);
                dJointSetHinge2Anchor(j, p[1], p[2], p[0]);
                printf("h2 %d anchor", k); hinge2(j);
                dJointAddHinge2Torques(j, -0.3, 2.5);
                printf("h2 %d torque", k); accum(a, b);
                params(j, dJointSetHinge2Param, dJointGetHinge2Param);
                dJointAttach(j, a, b);
                printf("h2 %d reattached", k); hinge2(j);
                dJointDestroy(j);
                dBodySetForce(a, 0, 0, 0); dBodySetTorque(a, 0, 0, 0);
                dBodySetForce(b, 0, 0, 0); dBodySetTorque(b, 0, 0, 0);
            }

            /* PR */
            j = dJointCreatePR(w, 0);
            attach(j, a, b, mode);
            rvec(p); rvec(ax); normal_to(ax, n);
            dJointSetPRAnchor(j, p[0], p[1], p[2]);
            dJointSetPRAxis1(j, ax[0], ax[1], ax[2]);
            dJointSetPRAxis2(j, n[0], n[1], n[2]);
            printf("pr %d %d set", mode, k); prj(j);
            nudge(a); nudge(b);
            printf("pr %d %d moved", mode, k); prj(j);
            dJointAddPRTorque(j, 0.8);
            printf("pr %d %d torque", mode, k); accum(a, b);
            params(j, dJointSetPRParam, dJointGetPRParam);
            attach(j, b, a, mode);
            printf("pr %d %d reattached", mode, k); prj(j);
            dJointDestroy(j);
            dBodySetForce(a, 0, 0, 0); dBodySetTorque(a, 0, 0, 0);
            dBodySetForce(b, 0, 0, 0); dBodySetTorque(b, 0, 0, 0);

            /* PU */
            j = dJointCreatePU(w, 0);
            attach(j, a, b, mode);
            rvec(p); rvec(ax); normal_to(ax, n); rvec(d);
            if (k % 3 == 0) dJointSetPUAnchor(j, p[0], p[1], p[2]);
            else if (k % 3 == 1) dJointSetPUAnchorDelta(j, p[0], p[1], p[2], d[0], d[1], d[2]);
            else dJointSetPUAnchorOffset(j, p[0], p[1], p[2], d[0], d[1], d[2]);
            printf("pu %d %d anchor", mode, k); puj(j);
            dJointSetPUAxis1(j, ax[0], ax[1], ax[2]);
            dJointSetPUAxis2(j, n[0], n[1], n[2]);
            rvec(ax);
            if (k % 2) dJointSetPUAxis3(j, ax[0], ax[1], ax[2]); else dJointSetPUAxisP(j, ax[0], ax[1], ax[2]);
            printf("pu %d %d set", mode, k); puj(j);
            nudge(a); nudge(b);
            printf("pu %d %d moved", mode, k); puj(j);
            printf("pu %d %d bodies", mode, k); accum(a, b);
            params(j, dJointSetPUParam, dJointGetPUParam);
            attach(j, b, a, mode);
            printf("pu %d %d reattached", mode, k); puj(j);
            dJointDestroy(j);

            /* piston */
            j = dJointCreatePiston(w, 0);
            attach(j, a, b, mode);
            rvec(p); rvec(ax); rvec(d);
            if (k % 2) dJointSetPistonAnchor(j, p[0], p[1], p[2]);
            else dJointSetPistonAnchorOffset(j, p[0], p[1], p[2], d[0], d[1], d[2]);
            if (k % 3 == 2) dJointSetPistonAxisDelta(j, ax[0], ax[1], ax[2], d[1], d[2], d[0]);
            else dJointSetPistonAxis(j, ax[0], ax[1], ax[2]);
            printf("piston %d %d set", mode, k); piston(j);
            nudge(a); nudge(b);
            printf("piston %d %d moved", mode, k); piston(j);
            dJointAddPistonForce(j, -1.75);
            printf("piston %d %d force", mode, k); accum(a, b);
            params(j, dJointSetPistonParam, dJointGetPistonParam);
            attach(j, b, a, mode);
            printf("piston %d %d reattached", mode, k); piston(j);
            dJointDestroy(j);

            dWorldDestroy(w);
        }
    }
    dCloseODE();
    return 0;
}
