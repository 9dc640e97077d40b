/* Prototypes of common.h functions not yet implemented in Rust (one per line).
 * build.rs drops a line once src/ffi defines the function. */
ODE_API const char* dGetConfiguration (void);
ODE_API int dCheckConfiguration (const char* token);
