/* Prototypes of misc.h functions not yet implemented in Rust (one per line).
 * build.rs drops a line once src/ffi defines the function. */
ODE_API int dTestRand (void);
ODE_API unsigned long dRand (void);
ODE_API unsigned long dRandGetSeed (void);
ODE_API void dRandSetSeed (unsigned long s);
ODE_API int dRandInt (int n);
ODE_API dReal dRandReal (void);
ODE_API void dPrintMatrix (const dReal *A, int n, int m, const char *fmt, FILE *f);
ODE_API void dMakeRandomVector (dReal *A, int n, dReal range);
ODE_API void dMakeRandomMatrix (dReal *A, int n, int m, dReal range);
ODE_API void dClearUpperTriangle (dReal *A, int n);
ODE_API dReal dMaxDifference (const dReal *A, const dReal *B, int n, int m);
ODE_API dReal dMaxDifferenceLowerTriangle (const dReal *A, const dReal *B, int n);
