/* C-variadic entry points of ODE's error.h. Stable Rust cannot define or
 * forward C-variadic functions, so the va_list handling lives here and the
 * handler registry lives in Rust (crates/ode/src/error.rs, reached through
 * src/ffi/variadic.rs). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef void dMessageFunction(int errnum, const char *msg, va_list ap);

/* Rust side: currently installed handler for a kind (0 error, 1 debug,
 * 2 message), or NULL for the default. */
extern dMessageFunction *rode_handler(int kind);
/* Rust side: default action for an already formatted message. */
extern void rode_default_report(int kind, int num, const char *text, int from_user);

/* ODE declares dError and dDebug as never returning: if the host's handler
 * returns, ODE terminates (exit(1) for errors, abort() for debug), and
 * callers compiled against ODE's headers rely on that. */
static void dispatch(int kind, int num, const char *msg, va_list ap) {
    dMessageFunction *h = rode_handler(kind);
    if (h) {
        h(num, msg, ap);
        if (kind == 0) exit(1);
        if (kind == 1) abort();
    } else {
        char buf[2048];
        vsnprintf(buf, sizeof buf, msg ? msg : "", ap);
        rode_default_report(kind, num, buf, 1);
    }
}

#define EXPORT __attribute__((visibility("default")))
EXPORT __attribute__((noreturn)) void dError(int num, const char *msg, ...) {
    va_list ap; va_start(ap, msg); dispatch(0, num, msg, ap); va_end(ap);
    exit(1); /* not reached: dispatch terminates */
}
EXPORT __attribute__((noreturn)) void dDebug(int num, const char *msg, ...) {
    va_list ap; va_start(ap, msg); dispatch(1, num, msg, ap); va_end(ap);
    abort(); /* not reached */
}
EXPORT void dMessage(int num, const char *msg, ...) {
    va_list ap; va_start(ap, msg); dispatch(2, num, msg, ap); va_end(ap);
}

/* Used by Rust to hand a finished message to a user handler, which expects a
 * printf-style format and a va_list. */
void rode_invoke_handler(dMessageFunction *h, int num, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt); h(num, fmt, ap); va_end(ap);
}
