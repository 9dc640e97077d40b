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
//! Input that ODE carries out although it makes no sense is carried out
//! the same way and reported on the message channel instead
//! (`suspicious_input`), so a debug report always means "refused".

use std::ffi::{c_char, c_int, c_void};
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
        // "%.*s" takes the length, so the text needs no NUL terminator and
        // no copy: reporting allocates nothing (it can happen inside a step).
        let len = text.len().min(c_int::MAX as usize) as c_int;
        unsafe { rode_invoke_handler(h, num, c"%.*s".as_ptr(), len, text.as_ptr() as *const c_char) };
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

/// Reports suspicious input that the call nonetheless carries out exactly
/// as ODE does (a degenerate or meaningless result, or input ODE itself
/// crashes on where ours has a defined outcome): on the message channel
/// with `d_ERR_UASSERT`, so that the debug channel keeps meaning "refused,
/// nothing changed". Counted with the other reports.
pub fn suspicious_input(func: &str, what: std::fmt::Arguments<'_>) {
    REPORTS.fetch_add(1, Ordering::Relaxed);
    message(D_ERR_UASSERT, &format!("{func}: {what}"));
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

/// A fixed-capacity text buffer for messages built where allocating is not
/// allowed (inside a time step). Text past the capacity is dropped.
pub struct StackText<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> StackText<N> {
    pub fn new() -> Self {
        StackText { buf: [0; N], len: 0 }
    }

    pub fn as_str(&self) -> &str {
        // Only whole UTF-8 strings are appended (see write_str).
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl<const N: usize> Default for StackText<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> std::fmt::Write for StackText<N> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = N - self.len;
        // Cut at a character boundary so the buffer stays valid UTF-8.
        let mut n = s.len().min(room);
        while !s.is_char_boundary(n) {
            n -= 1;
        }
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// Writes `v` as C's `printf("%.4e")` does (exponent sign and at least two
/// digits), without allocating.
pub fn write_c_exp4(out: &mut impl std::fmt::Write, v: f64) -> std::fmt::Result {
    use std::fmt::Write;
    let mut t = StackText::<40>::new();
    write!(t, "{v:.4e}")?;
    match t.as_str().split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = e.strip_prefix('-').map_or(('+', e), |d| ('-', d));
            write!(out, "{m}e{sign}{digits:0>2}")
        }
        None => out.write_str(t.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    #[test]
    fn c_exponent_format() {
        for (v, want) in [(1.5e-5, "1.5000e-05"), (-2.0, "-2.0000e+00"), (0.0, "0.0000e+00"), (3.25e120, "3.2500e+120")] {
            let mut t = StackText::<64>::new();
            write_c_exp4(&mut t, v).unwrap();
            assert_eq!(t.as_str(), want);
        }
        let mut small = StackText::<4>::new();
        let _ = write!(small, "abcdef");
        assert_eq!(small.as_str(), "abcd");
    }
}
