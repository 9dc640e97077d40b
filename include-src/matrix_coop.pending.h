/* Prototypes of matrix_coop.h functions not yet implemented in Rust (one per line).
 * build.rs drops a line once src/ffi defines the function. */
ODE_API void dEstimateCooperativelyFactorLDLTResourceRequirements (dResourceRequirementsID requirements, unsigned maximalAllowedThreadCount, unsigned maximalRowCount);
ODE_API void dCooperativelyFactorLDLT (dResourceContainerID resources, unsigned allowedThreadCount, dReal *A, dReal *d, unsigned rowCount, unsigned rowSkip);
ODE_API void dEstimateCooperativelySolveLDLTResourceRequirements (dResourceRequirementsID requirements, unsigned maximalAllowedThreadCount, unsigned maximalRowCount);
ODE_API void dCooperativelySolveLDLT (dResourceContainerID resources, unsigned allowedThreadCount, const dReal *L, const dReal *d, dReal *b, unsigned rowCount, unsigned rowSkip);
ODE_API void dEstimateCooperativelySolveL1StraightResourceRequirements (dResourceRequirementsID requirements, unsigned maximalAllowedThreadCount, unsigned maximalRowCount);
ODE_API void dCooperativelySolveL1Straight (dResourceContainerID resources, unsigned allowedThreadCount, const dReal *L, dReal *b, unsigned rowCount, unsigned rowSkip);
ODE_API void dEstimateCooperativelySolveL1TransposedResourceRequirements (dResourceRequirementsID requirements, unsigned maximalAllowedThreadCount, unsigned maximalRowCount);
ODE_API void dCooperativelySolveL1Transposed (dResourceContainerID resources, unsigned allowedThreadCount, const dReal *L, dReal *b, unsigned rowCount, unsigned rowSkip);
ODE_API void dEstimateCooperativelyScaleVectorResourceRequirements (dResourceRequirementsID requirements, unsigned maximalAllowedThreadCount, unsigned maximalElementCount);
ODE_API void dCooperativelyScaleVector (dResourceContainerID resources, unsigned allowedThreadCount, dReal *dataVector, const dReal *scaleVector, unsigned elementCount);
