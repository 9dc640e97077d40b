/* Prototypes of timer.h functions not yet implemented in Rust (one per line).
 * build.rs drops a line once src/ffi defines the function. */
ODE_API void dStopwatchReset (dStopwatch *);
ODE_API void dStopwatchStart (dStopwatch *);
ODE_API void dStopwatchStop (dStopwatch *);
ODE_API double dStopwatchTime (dStopwatch *);
ODE_API void dTimerStart (const char *description);
ODE_API void dTimerNow (const char *description);
ODE_API void dTimerEnd (void);
ODE_API void dTimerReport (FILE *fout, int average);
ODE_API double dTimerTicksPerSecond (void);
ODE_API double dTimerResolution (void);
