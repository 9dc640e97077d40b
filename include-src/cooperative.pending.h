/* Prototypes of cooperative.h functions not yet implemented in Rust (one per line).
 * build.rs drops a line once src/ffi defines the function. */
ODE_API dCooperativeID dCooperativeCreate (const dThreadingFunctionsInfo *functionInfo, dThreadingImplementationID threadingImpl);
ODE_API void dCooperativeDestroy (dCooperativeID cooperative);
ODE_API dResourceRequirementsID dResourceRequirementsCreate (dCooperativeID cooperative);
ODE_API void dResourceRequirementsDestroy (dResourceRequirementsID requirements);
ODE_API dResourceRequirementsID dResourceRequirementsClone (dResourceRequirementsID requirements);
ODE_API void dResourceRequirementsMergeIn (dResourceRequirementsID summaryRequirements, dResourceRequirementsID extraRequirements);
ODE_API dResourceContainerID dResourceContainerAcquire (dResourceRequirementsID requirements);
ODE_API void dResourceContainerDestroy (dResourceContainerID resources);
