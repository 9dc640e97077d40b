/* Prototypes of odemath.h functions not yet implemented in Rust (one per line).
 * build.rs drops a line once src/ffi defines the function. */
ODE_API int dSafeNormalize3 (dVector3 a);
ODE_API int dSafeNormalize4 (dVector4 a);
ODE_API void dNormalize3 (dVector3 a);
ODE_API void dNormalize4 (dVector4 a);
ODE_API void dPlaneSpace (const dVector3 n, dVector3 p, dVector3 q);
ODE_API int dOrthogonalizeR (dMatrix3 m);
