//! The first panic of a host callback (a Rust geom class, a custom joint,
//! a near callback) during one API call, kept per thread so that the call
//! returns it as `Error::CallbackPanicked` instead of unwinding into ODE's
//! code. Shared by the modules whose calls run callbacks.

use super::{Error, Result};
use std::cell::RefCell;

thread_local! {
    /// The first panic of a user callback since the API call began.
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Keeps the first panic of a user callback for the API call running it.
pub(super) fn record_panic(p: Box<dyn std::any::Any + Send>) {
    PANIC.with(|s| {
        let mut s = s.borrow_mut();
        if s.is_none() {
            *s = Some(panic_message(&p));
        }
    });
}

/// Clears the panic record before an API call that may run user callbacks.
pub(super) fn clear_panic() {
    PANIC.with(|s| s.borrow_mut().take());
}

/// The error for a panic recorded since [`clear_panic`], if any.
pub(super) fn take_panic() -> Result<()> {
    match PANIC.with(|s| s.borrow_mut().take()) {
        Some(msg) => Err(Error::CallbackPanicked(msg)),
        None => Ok(()),
    }
}

/// The text of a panic payload.
pub(super) fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".into()
    }
}
