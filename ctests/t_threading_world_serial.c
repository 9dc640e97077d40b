/* Our steppers ignore the threading implementation: a world stepped with a
 * pool-served multi-threaded implementation or a self-threaded one follows
 * exactly (bit for bit) the trajectory it follows without one. */
#define THR_STRICT 1
#include "diff_threading_world.c"
