//! ODE's error, debug and message handlers, and how the library reports.
//!
//! ODE has three channels: errors (`dError`, fatal by default: `exit(1)`),
//! debug/assertion failures (`dDebug`, fatal by default: `abort()`) and
//! messages (`dMessage`, informational). Handlers installed by the host
//! receive a printf format and a `va_list`; the variadic glue is in
//! `csrc/variadic.c`.
//!
//! Policy for the library's own argument checks (see README, "Bad input"):
//! a rejected call is reported on the debug channel with `d_ERR_UASSERT`
//! (as ODE's user assertions are) and then has no effect. With the default
//! handler the message goes to stderr and the process goes on; set the
//! environment variable `ODE_ABORT_ON_BAD_INPUT=1` to abort as ODE does.
//! Explicit calls of `dError`/`dDebug` by the host keep ODE's fatal defaults.

use std::ffi::{c_char, c_int, c_void, CString};
use std::io::Write;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

pub const D_ERR_UNKNOWN: c_int = 0;
pub const D_ERR_IASSERT: c_int = 1;
pub const D_ERR_UASSERT: c_int = 2;
pub const D_ERR_LCP: c_int = 3;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Channel {
    Error = 0,
    Debug = 1,
    Message = 2,
}

static HANDLERS: [AtomicPtr<c_void>; 3] = [
    AtomicPtr::new(std::ptr::null_mut()),
    AtomicPtr::new(std::ptr::null_mut()),
    AtomicPtr::new(std::ptr::null_mut()),
];

/// Number of reports made by the library's own checks (for tests).
static REPORTS: AtomicU64 = AtomicU64::new(0);

pub fn set_handler(ch: Channel, f: *mut c_void) {
    HANDLERS[ch as usize].store(f, Ordering::Release);
}

pub fn handler(ch: Channel) -> *mut c_void {
    HANDLERS[ch as usize].load(Ordering::Acquire)
}

pub fn report_count() -> u64 {
    REPORTS.load(Ordering::Relaxed)
}

extern "C" {
    fn rode_invoke_handler(h: *mut c_void, num: c_int, fmt: *const c_char, ...);
}

#[no_mangle]
extern "C" fn rode_handler(kind: c_int) -> *mut c_void {
    match kind {
        0 => handler(Channel::Error),
        1 => handler(Channel::Debug),
        _ => handler(Channel::Message),
    }
}

/// Default action for a formatted message: print like ODE; terminate like
/// ODE when the host itself called `dError`/`dDebug` (`from_user != 0`).
#[no_mangle]
extern "C" fn rode_default_report(kind: c_int, num: c_int, text: *const c_char, from_user: c_int) {
    let s = if text.is_null() {
        String::new()
    } else {
        unsafe { std::ffi::CStr::from_ptr(text) }.to_string_lossy().into_owned()
    };
    let ch = match kind {
        0 => Channel::Error,
        1 => Channel::Debug,
        _ => Channel::Message,
    };
    default_print(ch, num, &s);
    if from_user != 0 {
        match ch {
            Channel::Error => std::process::exit(1),
            Channel::Debug => std::process::abort(),
            Channel::Message => {}
        }
    }
}

fn default_print(ch: Channel, num: c_int, text: &str) {
    let title = match ch {
        Channel::Error => "ODE Error",
        Channel::Debug => "ODE INTERNAL ERROR",
        Channel::Message => "ODE Message",
    };
    unsafe { libc::fflush(std::ptr::null_mut()) };
    let mut err = std::io::stderr().lock();
    let _ = if num != 0 {
        write!(err, "\n{title} {num}: {text}\n")
    } else {
        write!(err, "\n{title}: {text}\n")
    };
    let _ = err.flush();
}

/// Reports a message on a channel: to the host's handler if one is
/// installed, else to stderr. Never terminates for the message channel.
pub fn report(ch: Channel, num: c_int, text: &str) {
    let h = handler(ch);
    if !h.is_null() {
        let c = CString::new(text.replace('\0', "?")).unwrap_or_default();
        unsafe { rode_invoke_handler(h, num, c"%s".as_ptr(), c.as_ptr()) };
    } else {
        default_print(ch, num, text);
    }
}

/// Reports a rejected API call (bad handle or argument). The call must then
/// return without any effect.
pub fn bad_input(func: &str, what: std::fmt::Arguments<'_>) {
    REPORTS.fetch_add(1, Ordering::Relaxed);
    report(Channel::Debug, D_ERR_UASSERT, &format!("{func}: {what}"));
    if handler(Channel::Debug).is_null() && abort_on_bad_input() {
        std::process::abort();
    }
}

fn abort_on_bad_input() -> bool {
    static FLAG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FLAG.get_or_init(|| {
        std::env::var("ODE_ABORT_ON_BAD_INPUT").map(|v| !v.is_empty() && v != "0").unwrap_or(false)
    })
}

/// Informational message on the message channel (ODE uses it for
/// non-fatal warnings such as LCP trouble).
pub fn message(num: c_int, text: &str) {
    report(Channel::Message, num, text);
}
