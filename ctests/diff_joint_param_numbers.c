/* DIFF-TOL rel=0 abs=0 */
/* Every joint parameter setter and getter with every parameter number
 * that matters: ODE's 42 dParam* names, numbers that name no parameter
 * (14, 0xff, -1, 0x300, INT_MIN, ...) and numbers that name none but that
 * ODE's decoding still uses (0x10105 on the two-axis joints, 0x605 on the
 * LMotor). After each set, prints the getter of that number and of all 42
 * names: our library must do exactly what Debian's does (for unknown
 * numbers, nothing, while reporting them; see t_joint_param_numbers.c).
 * Left out: AMotor groups outside 1..3, on which Debian aborts. */
#include <stdio.h>
#include "joint_param_table.h"

static void run(const ParamJoint *pj, dWorldID w, int number, dReal value)
{
    dJointID j = pj->create(w, 0);
    int g, p;
    pj->set(j, number, value);
    printf("%s %d", pj->name, number);
    if (pj->get) {
        printf(" %.17g |", pj->get(j, number));
        for (g = 0; g < 3; g++)
            for (p = 0; p < dParamsInGroup; p++)
                printf(" %.17g", pj->get(j, g * dParamGroup + p));
    }
    printf("\n");
    dJointDestroy(j);
}

int main(void)
{
    dWorldID w;
    int k, g, p, n = 0;
    dInitODE2(0);
    w = dWorldCreate();
    dWorldSetERP(w, 0.3);
    dWorldSetCFM(w, 1e-7);
    for (k = 0; k < N_PARAM_JOINTS; k++) {
        const ParamJoint *pj = &param_joints[k];
        for (g = 0; g < 3; g++)
            for (p = 0; p < dParamsInGroup; p++)
                run(pj, w, g * dParamGroup + p, 0.25 + 0.01 * n++);
        for (p = 0; p < N_UNKNOWN + N_ALIAS; p++) {
            int num = p < N_UNKNOWN ? unknown_numbers[p] : alias_numbers[p - N_UNKNOWN];
            if (pj->amotor && ((num >> 8) < 0 || (num >> 8) >= 3))
                continue;
            run(pj, w, num, 0.25 + 0.01 * n++);
        }
    }
    dWorldDestroy(w);
    dCloseODE();
    return 0;
}
