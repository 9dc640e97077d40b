/* DIFF-TOL rel=0 abs=0 */
/* Many small islands of contacts only, the kind the QuickStep solves a few
 * at a time (their rows swept side by side): boxes, spheres and capsules
 * resting or sliding on a plane and on a small trimesh ramp, each its own
 * island, with a few two-body islands (a box on a box), free bodies in the
 * air between them, one body with a moved callback (stepped on its own),
 * and contact feedback on some bodies. dWorldQuickStep with 20 iterations,
 * so each island's periodic dRand shuffles run; one run with friction
 * (Approx1, findex rows), one frictionless (one row per contact). Prints
 * every body every 5 steps, the feedback, the number of moved callbacks and
 * dRandGetSeed every step, exactly (%a). Then the friction run again
 * with no iterations from step 60 on, and with one.
 * The scene is in quickstep_small_islands.h; t_quickstep_small_islands_grouped.c
 * checks that stepping the islands one at a time gives the same bits.
 * tests/pipeline_parallel_islands.rs also runs it with ODE_THREADS=2/4. */
#include "quickstep_small_islands.h"

int main(void) {
    dInitODE2(0);
    small_islands_run("friction", 0.8, 0, stdout);
    small_islands_run("frictionless", 0, 0, stdout);
    /* No sweep from step 60 on, then one sweep throughout: the solvers of
     * small islands side by side must leave λ and velocities as the
     * serial step does. */
    small_islands_iterations_later = 0;
    small_islands_run("no iterations later", 0.8, 0, stdout);
    small_islands_iterations = small_islands_iterations_later = 1;
    small_islands_run("one iteration", 0.8, 0, stdout);
    small_islands_iterations = small_islands_iterations_later = 20;
    dCloseODE();
    return 0;
}
