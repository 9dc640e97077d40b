/* Fills a dJointFeedback with a recognisable value before it is registered.
 * ODE writes f2/t2 only for a joint with a second body, so for a joint
 * attached to the world those fields keep whatever the host put there. An
 * uninitialised stack record made the printed f2/t2 differ between builds
 * by chance; with the sentinel both libraries must leave exactly 777.25. */
#ifndef FEEDBACK_SENTINEL_H
#define FEEDBACK_SENTINEL_H
#include <ode/ode.h>

static void feedback_fill_sentinel(dJointFeedback *f)
{
    int i;
    for (i = 0; i < 4; i++) {
        f->f1[i] = 777.25;
        f->t1[i] = 777.25;
        f->f2[i] = 777.25;
        f->t2[i] = 777.25;
    }
}
#endif
