/* DIFF-TOL rel=0 abs=0 */
/* End-to-end scenes (scene_drop_on_plane_and_heightfield.h): sphere, box, capsule and cylinder
 * dropped on a plane and on a heightfield, a sphere and a capsule rolling
 * down a tilted box with friction; dSpaceCollide + contact joints, stepped
 * with dWorldStep and with dWorldQuickStep. Body positions and quaternions
 * every 10 steps, printed in full precision: Debian's trajectories and ours
 * must be identical. */
#include "scene_drop_on_plane_and_heightfield.h"

int main(void)
{
    static const char *names[] = {"plane", "heightfield", "ramp"};
    int kind, quick, i;
    dInitODE2(0);
    for (kind = SCENE_PLANE; kind <= SCENE_RAMP; kind++) {
        for (quick = 0; quick < 2; quick++) {
            Scene s;
            int steps = kind == SCENE_RAMP ? 200 : 400;
            scene_build(&s, kind);
            printf("scene %s %s\n", names[kind], quick ? "quickstep" : "step");
            for (i = 1; i <= steps; i++) {
                scene_step(&s, quick);
                if (i % 10 == 0) scene_print(&s, i);
            }
            scene_destroy(&s);
        }
    }
    dCloseODE();
    printf("done\n");
    return 0;
}
