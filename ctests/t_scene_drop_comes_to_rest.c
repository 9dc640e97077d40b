/* Self-checking: in the scenes of scene_drop_on_plane_and_heightfield.h, a sphere, a box, a
 * capsule and a cylinder dropped on a plane and on a heightfield come to
 * rest without sinking, with dWorldStep and with dWorldQuickStep: from 2 s
 * on no body sinks more than 5 mm into the ground, and after
 * 10 s every body touches the ground, penetrates it by less than 3 mm and
 * its linear and angular speeds are below 1e-2 on the plane. On the
 * heightfield ODE's contacts (triangle planes, then vertex depths, switching
 * as a body moves across cells) leave a residual creep, identical in
 * Debian's library (see diff_scene_drop_on_plane_and_heightfield.c): a few mm/s with dWorldStep, a
 * cm/s or two with dWorldQuickStep (50 iterations), so the bound there is
 * 0.05. On the ramp, the sphere
 * rolls (no slip): its travel after 1.5 s matches a = 5/7 g sin(slope)
 * within 1%, and the capsule rolls down too. Exit status 0 = pass. */
#include "scene_drop_on_plane_and_heightfield.h"
#include <stdlib.h>

static int failures;

static void check(int ok, const char *what, const char *scene, int quick, int body, double value)
{
    printf("%-4s %-30s %-11s %-9s body %d: %.3g\n", ok ? "ok" : "FAIL", what, scene, quick ? "quickstep" : "step", body, value);
    if (!ok) failures++;
}

static double norm3(const dReal *v) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

int main(void)
{
    static const char *names[] = {"plane", "heightfield"};
    int kind, quick, i;
    dInitODE2(0);
    for (kind = SCENE_PLANE; kind <= SCENE_HFIELD; kind++) {
        for (quick = 0; quick < 2; quick++) {
            Scene s;
            double worst = 0;
            scene_build(&s, kind);
            for (i = 0; i < 1000; i++) {
                scene_step(&s, quick);
                /* never sinks, not even while landing */
                if (i >= 200) {
                    int b;
                    for (b = 0; b < s.nbody; b++)
                        if (scene_depth(&s, b) > worst) worst = scene_depth(&s, b);
                }
            }
            check(worst < 0.005, "max depth after landing", names[kind], quick, -1, worst);
            for (i = 0; i < s.nbody; i++) {
                double d = scene_depth(&s, i), vmax = kind == SCENE_PLANE ? 1e-2 : 0.05;
                dContactGeom c[SCENE_MAXC];
                int touching = dCollide(s.geom[i], s.ground, SCENE_MAXC, c, sizeof(dContactGeom)) > 0;
                check(touching, "resting on the ground", names[kind], quick, i, touching);
                check(d < 0.003, "final penetration", names[kind], quick, i, d);
                check(norm3(dBodyGetLinearVel(s.body[i])) < vmax, "linear speed", names[kind], quick, i,
                      norm3(dBodyGetLinearVel(s.body[i])));
                check(norm3(dBodyGetAngularVel(s.body[i])) < vmax, "angular speed", names[kind], quick, i,
                      norm3(dBodyGetAngularVel(s.body[i])));
            }
            scene_destroy(&s);
        }
    }
    for (quick = 0; quick < 2; quick++) {
        Scene s;
        double p0[3], travel, expect;
        const double slope = 0.35, t = 1.5;
        scene_build(&s, SCENE_RAMP);
        memcpy(p0, dBodyGetPosition(s.body[0]), sizeof p0);
        {
            double c0 = dBodyGetPosition(s.body[1])[0];
            for (i = 0; i < (int)(t / SCENE_DT + 0.5); i++) scene_step(&s, quick);
            check(dBodyGetPosition(s.body[1])[0] - c0 > 1.0, "capsule rolled down (x travel)", "ramp", quick, 1,
                  dBodyGetPosition(s.body[1])[0] - c0);
        }
        {
            const dReal *p = dBodyGetPosition(s.body[0]);
            double dx = p[0] - p0[0], dy = p[1] - p0[1];
            travel = sqrt(dx * dx + dy * dy);
            expect = 0.5 * (5.0 / 7.0) * 9.81 * sin(slope) * t * t;
            check(fabs(travel - expect) < 0.01 * expect, "sphere rolling travel", "ramp", quick, 0, travel - expect);
        }
        scene_destroy(&s);
    }
    dCloseODE();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("all ok\n");
    return 0;
}
