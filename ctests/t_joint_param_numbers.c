/* Parameter numbers given to every dJointSet*Param / dJointGet*Param.
 * ODE ignores a number its joint does not decode (a getter reads 0). A
 * number that is none of ODE's 42 dParam* names and that the joint does not
 * decode either (14, 15, 0xff, -1, 0x300, INT_MIN, ...) is a mistake ODE
 * lets pass without a word: it must be reported once, naming the function,
 * and change nothing (every parameter of the joint reads as before; the
 * getter returns 0). The 42 names, and numbers ODE decodes although they
 * are no name (0x10105 on two-axis joints, 0x605 on the LMotor), stay
 * silent and take effect. The values themselves are compared with Debian's
 * by diff_joint_param_numbers.c. Runs against our library; prints "PASS <n>". */
#include <stdio.h>
#include <stdarg.h>
#include "joint_param_table.h"

static char last[512];
static int reports;
static void on_debug(int num, const char *msg, va_list ap)
{
    (void)num;
    vsnprintf(last, sizeof last, msg, ap);
    reports++;
}

static int checks, failures;
static void check(int ok, const char *joint, int number, const char *what)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s number %d (%#x): %s (last report: %s)\n", joint, number, number, what, last);
    }
}

typedef struct { dReal v[3 * dParamsInGroup]; } Params;
static void snap(const ParamJoint *pj, dJointID j, Params *s)
{
    int g, p;
    for (g = 0; g < 3; g++)
        for (p = 0; p < dParamsInGroup; p++)
            s->v[g * dParamsInGroup + p] = pj->get ? pj->get(j, g * dParamGroup + p) : 0;
}

int main(void)
{
    dWorldID w;
    int k, p, g;
    dInitODE2(0);
    dSetDebugHandler(on_debug);
    w = dWorldCreate();
    for (k = 0; k < N_PARAM_JOINTS; k++) {
        const ParamJoint *pj = &param_joints[k];
        dJointID j = pj->create(w, 0);
        Params before, after;
        /* Give every named parameter a value of its own first. */
        reports = 0;
        for (g = 0; g < 3; g++)
            for (p = 0; p < dParamsInGroup; p++)
                pj->set(j, g * dParamGroup + p, 0.5 + 0.01 * p + 0.001 * g);
        check(reports == 0, pj->name, -1, "the 42 names are set silently");
        for (p = 0; p < N_UNKNOWN + N_ALIAS; p++) {
            int num = p < N_UNKNOWN ? unknown_numbers[p] : alias_numbers[p - N_UNKNOWN];
            int used = ode_decodes(pj->name, num);
            snap(pj, j, &before);
            reports = 0;
            last[0] = 0;
            pj->set(j, num, 0.125);
            check(reports == !used, pj->name, num, used ? "decoded number set silently" : "set reported once");
            if (!used)
                check(strstr(last, pj->setname) != NULL, pj->name, num, "report names the setter");
            snap(pj, j, &after);
            if (!used)
                check(memcmp(&before, &after, sizeof before) == 0, pj->name, num, "a reported set changes nothing");
            if (pj->get) {
                dReal v;
                reports = 0;
                last[0] = 0;
                v = pj->get(j, num);
                check(reports == !used, pj->name, num, used ? "decoded number read silently" : "get reported once");
                if (!used) {
                    check(strstr(last, pj->getname) != NULL, pj->name, num, "report names the getter");
                    check(v == 0, pj->name, num, "a reported get returns 0");
                }
            }
        }
        reports = 0;
        snap(pj, j, &before);
        check(reports == 0, pj->name, -1, "the 42 names are read silently");
        dJointDestroy(j);
    }
    dWorldDestroy(w);
    dCloseODE();
    if (failures) {
        printf("FAILED %d of %d checks\n", failures, checks);
        return 1;
    }
    printf("PASS %d\n", checks);
    return 0;
}
