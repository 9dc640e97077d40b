/* With no handler installed, a rejected call is printed to stderr by the
 * default handler and the program goes on (ODE would abort). Uses no world
 * so it needs only dBody* functions. Prints "continued" at the end. */
#include <ode/ode.h>
#include <stdio.h>
#include <math.h>

int main(void) {
    dBodySetPosition(0, 1, 2, 3);
    const dReal *p = dBodyGetPosition(0);
    dBodyAddForce(0, NAN, 0, 0);
    printf("getposition %s\n", p ? "non-null" : "null");
    printf("continued\n");
    return 0;
}
