/* DIFF-TOL rel=0 abs=0 */
/* The heightfield scenes of ref_rest_capped_terrain.c: boxes, spheres,
 * capsules and cylinders dropped on a callback heightfield and left to
 * rest for 10 s with contact limits 1, 4 and 64, with dWorldStep and
 * dWorldQuickStep. Every collider involved (heightfield against each
 * shape, and the shapes against each other, libccd's capsule-cylinder
 * included) gives ODE's contacts bit for bit, so the runs must end in
 * exactly ODE's state. */
#define REST_ONLY "hfield"
#include "ref_rest_capped_terrain.c"
