/* Prototypes of matrix.h functions not yet implemented in Rust (one per line).
 * build.rs drops a line once src/ffi defines the function. */
ODE_API void dSetZero (dReal *a, int n);
ODE_API void dSetValue (dReal *a, int n, dReal value);
ODE_API dReal dDot (const dReal *a, const dReal *b, int n);
ODE_API void dMultiply0 (dReal *A, const dReal *B, const dReal *C, int p,int q,int r);
ODE_API void dMultiply1 (dReal *A, const dReal *B, const dReal *C, int p,int q,int r);
ODE_API void dMultiply2 (dReal *A, const dReal *B, const dReal *C, int p,int q,int r);
ODE_API int dFactorCholesky (dReal *A, int n);
ODE_API void dSolveCholesky (const dReal *L, dReal *b, int n);
ODE_API int dInvertPDMatrix (const dReal *A, dReal *Ainv, int n);
ODE_API int dIsPositiveDefinite (const dReal *A, int n);
ODE_API void dFactorLDLT (dReal *A, dReal *d, int n, int nskip);
ODE_API void dSolveL1 (const dReal *L, dReal *b, int n, int nskip);
ODE_API void dSolveL1T (const dReal *L, dReal *b, int n, int nskip);
ODE_API void dScaleVector (dReal *a, const dReal *d, int n);
ODE_API_DEPRECATED ODE_API void dVectorScale (dReal *a, const dReal *d, int n);
ODE_API void dSolveLDLT (const dReal *L, const dReal *d, dReal *b, int n, int nskip);
ODE_API void dLDLTAddTL (dReal *L, dReal *d, const dReal *a, int n, int nskip);
ODE_API void dLDLTRemove (dReal **A, const int *p, dReal *L, dReal *d, int n1, int n2, int r, int nskip);
ODE_API void dRemoveRowCol (dReal *A, int n, int nskip, int r);
