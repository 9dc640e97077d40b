/* DIFF-TOL rel=0 abs=0 */
/* dCollide on geoms (dCreateSphere/Box/Capsule/Plane/Ray, dGeomSet*) for
 * the capsule pairs: the placements and printout of ref_collide_capsule_pairs.c, fewer of
 * them, run against Debian's libode.so.8 and ours. Needs our geom objects
 * and dCollide; the pair colliders themselves are bit-identical (see
 * tests/collide_capsule_pairs.rs), hence the exact tolerance. */
#define PRIM_N 300
#include "ref_collide_capsule_pairs.c"
