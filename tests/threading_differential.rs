//! Differential tests of the threading and cooperative APIs (threading_impl.h,
//! cooperative.h, matrix_coop.h) against Debian's libode.so.8.
mod common;

#[test]
fn thread_pool_and_self_threaded_scheduling() {
    common::differential("diff_threading_pool");
}

#[test]
fn cooperative_matrix_functions() {
    common::differential("diff_threading_cooperative");
}

#[test]
fn world_with_threading_steps_the_same() {
    common::differential("diff_threading_world");
}
