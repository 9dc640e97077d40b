/* drawstuff's variadic message functions. Stable Rust cannot define a
 * C-variadic function, so these few lines stay in C. dsError ends the
 * program with status 1 and dsDebug aborts, as ODE's drawstuff does; the
 * library itself never calls either for a condition a program can cause. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void ds_report(const char *kind, const char *msg, va_list ap) {
  fflush(stdout);
  fprintf(stderr, "\n%s: ", kind);
  vfprintf(stderr, msg, ap);
  fprintf(stderr, "\n");
  fflush(stderr);
}

void dsError(const char *msg, ...) {
  va_list ap;
  va_start(ap, msg);
  ds_report("Error", msg, ap);
  va_end(ap);
  exit(1);
}

void dsDebug(const char *msg, ...) {
  va_list ap;
  va_start(ap, msg);
  ds_report("INTERNAL ERROR", msg, ap);
  va_end(ap);
  abort();
}

void dsPrint(const char *msg, ...) {
  va_list ap;
  va_start(ap, msg);
  vprintf(msg, ap);
  va_end(ap);
}
