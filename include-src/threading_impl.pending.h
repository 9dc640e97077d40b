/* Prototypes of threading_impl.h functions not yet implemented in Rust (one per line).
 * build.rs drops a line once src/ffi defines the function. */
ODE_API dThreadingImplementationID dThreadingAllocateSelfThreadedImplementation ();
ODE_API dThreadingImplementationID dThreadingAllocateMultiThreadedImplementation ();
ODE_API const dThreadingFunctionsInfo *dThreadingImplementationGetFunctions (dThreadingImplementationID impl);
ODE_API void dThreadingImplementationShutdownProcessing (dThreadingImplementationID impl);
ODE_API void dThreadingImplementationCleanupForRestart (dThreadingImplementationID impl);
ODE_API void dThreadingFreeImplementation (dThreadingImplementationID impl);
ODE_API void dExternalThreadingServeMultiThreadedImplementation (dThreadingImplementationID impl, dThreadReadyToServeCallback *readiness_callback, void *callback_context);
ODE_API dThreadingThreadPoolID dThreadingAllocateThreadPool (unsigned thread_count, dsizeint stack_size, unsigned int ode_data_allocate_flags, void *reserved);
ODE_API void dThreadingThreadPoolServeMultiThreadedImplementation (dThreadingThreadPoolID pool, dThreadingImplementationID impl);
ODE_API void dThreadingThreadPoolWaitIdleState (dThreadingThreadPoolID pool);
ODE_API void dThreadingFreeThreadPool (dThreadingThreadPoolID pool);
