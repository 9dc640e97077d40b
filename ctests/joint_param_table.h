/* Every dJointSet*Param / dJointGet*Param pair of ODE 0.16.2, with a
 * constructor for its joint type, and the parameter numbers the joint
 * parameter tests try: ODE's 42 dParam* names, numbers that name no
 * parameter, and numbers that name none but that some joints' decoding
 * still uses (ODE masks the group bits, LMotor clamps the group). Shared by
 * diff_joint_param_numbers.c and t_joint_param_numbers.c. */
#include <ode/ode.h>
#include <limits.h>
#include <string.h>

typedef struct {
    const char *name;
    const char *setname, *getname;
    dJointID (*create)(dWorldID, dJointGroupID);
    void (*set)(dJointID, int, dReal);
    dReal (*get)(dJointID, int); /* 0: ODE has no getter (plane-2D) */
    int amotor;                  /* ODE asserts on a group outside 1..3 */
} ParamJoint;

#define PJ(n, t) {n, "dJointSet" #t "Param", "dJointGet" #t "Param", dJointCreate##t, dJointSet##t##Param, \
                  dJointGet##t##Param, 0}
static const ParamJoint param_joints[] = {
    PJ("ball", Ball),
    PJ("hinge", Hinge),
    PJ("slider", Slider),
    PJ("fixed", Fixed),
    PJ("hinge2", Hinge2),
    PJ("universal", Universal),
    PJ("pr", PR),
    PJ("pu", PU),
    PJ("piston", Piston),
    {"amotor", "dJointSetAMotorParam", "dJointGetAMotorParam", dJointCreateAMotor, dJointSetAMotorParam,
     dJointGetAMotorParam, 1},
    PJ("lmotor", LMotor),
    {"plane2d-x", "dJointSetPlane2DXParam", 0, dJointCreatePlane2D, dJointSetPlane2DXParam, 0, 0},
    {"plane2d-y", "dJointSetPlane2DYParam", 0, dJointCreatePlane2D, dJointSetPlane2DYParam, 0, 0},
    {"plane2d-angle", "dJointSetPlane2DAngleParam", 0, dJointCreatePlane2D, dJointSetPlane2DAngleParam, 0, 0},
    PJ("dball", DBall),
    PJ("dhinge", DHinge),
    PJ("transmission", Transmission),
};
#define N_PARAM_JOINTS ((int)(sizeof param_joints / sizeof param_joints[0]))

/* Numbers that name no dParam* value. ODE sets nothing for them and reads
 * 0, except where noted in `used_alias`. */
static const int unknown_numbers[] = {14, 15, 0x20, 0xff, -1, -256, 0x10e, 0x1ff, 0x20e, 0x2ff,
                                      0x300, 0x30e, 0x3e8, 0x1000, INT_MIN, INT_MAX};
#define N_UNKNOWN ((int)(sizeof unknown_numbers / sizeof unknown_numbers[0]))

/* Does ODE's parameter function of `joint` address a parameter slot for
 * `number`? The two-axis joints take any number whose bits 8..15 are 0x01
 * as axis 2 (0x10105 = FMax2), the PU also 0x02 as axis 3; AMotor takes
 * groups 1..3 by number >> 8; LMotor clamps the group into 1..3 (0x605 =
 * FMax3, -251 = -256 + 5 = FMax1). Single-axis joints take the number as
 * is. */
static inline int ode_decodes(const char *joint, int n)
{
    int item = n & 0xff, g = n & 0xff00;
    if (!strcmp(joint, "hinge2") || !strcmp(joint, "universal") || !strcmp(joint, "pr") || !strcmp(joint, "piston"))
        return (g == 0x100 && item < dParamsInGroup) || (n >= 0 && n < dParamsInGroup);
    if (!strcmp(joint, "pu"))
        return g == 0 ? (n >= 0 && n < dParamsInGroup) : (g == 0x100 || g == 0x200) && item < dParamsInGroup;
    if (!strcmp(joint, "amotor"))
        return (n >> 8) >= 0 && (n >> 8) < 3 && item < dParamsInGroup;
    if (!strcmp(joint, "lmotor"))
        return item < dParamsInGroup;
    return n >= 0 && n < dParamsInGroup;
}
static const int alias_numbers[] = {0x10105, 0x10205, 0x605, -251};
#define N_ALIAS ((int)(sizeof alias_numbers / sizeof alias_numbers[0]))
