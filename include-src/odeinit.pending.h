/* Prototypes of odeinit.h functions not yet implemented in Rust (one per line).
 * build.rs drops a line once src/ffi defines the function. */
ODE_API void dInitODE (void);
ODE_API int dInitODE2 (unsigned int uiInitFlags);
ODE_API int dAllocateODEDataForThread (unsigned int uiAllocateFlags);
ODE_API void dCleanupODEAllDataForThread ();
ODE_API void dCloseODE (void);
