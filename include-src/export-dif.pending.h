/* Prototypes of export-dif.h functions not yet implemented in Rust (one per line).
 * build.rs drops a line once src/ffi defines the function. */
ODE_API void dWorldExportDIF (dWorldID w, FILE *file, const char *world_name);
