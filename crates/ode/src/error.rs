//! ODE's error, debug and message handlers, and how the library reports.
//!
//! ODE has three channels: errors (`dError`, fatal by default: `exit(1)`),
//! debug/assertion failures (`dDebug`, fatal by default: `abort()`) and
//! messages (`dMessage`, informational). Handlers installed by the host
//! receive a printf format and a `va_list`; the variadic glue is C, in the
//! C library's `csrc/variadic.c` (see [`Invoker`]).
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
//!
//! Handlers see exactly what ODE's would (error number, printf format and
//! `va_list`). Only the text printed without a handler differs: ODE titles
//! every debug-channel report "ODE INTERNAL ERROR", which for a rejected
//! argument blames the library for the caller's mistake, so the library's
//! own `d_ERR_UASSERT` reports print as "ODE usage error (2): ...". Internal
//! errors and the host's own `dDebug` calls keep ODE's title.

use std::ffi::{c_int, c_void};
use std::io::Write;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

pub const D_ERR_UNKNOWN: c_int = 0;
pub const D_ERR_IASSERT: c_int = 1;
pub const D_ERR_UASSERT: c_int = 2;
pub const D_ERR_LCP: c_int = 3;

/// Finite values beyond this magnitude are accepted as ODE accepts them but
/// reported (README, "Huge finite values"): a product of three of them
/// still fits a double, while ODE's arithmetic on larger ones (squared
/// lengths, cross products, sums of two far points) overflows to inf or NaN.
pub const HUGE_INPUT: f64 = 1e100;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Channel {
    Error = 0,
    Debug = 1,
    Message = 2,
}

static HANDLERS: [AtomicPtr<c_void>; 3] =
    [AtomicPtr::new(std::ptr::null_mut()), AtomicPtr::new(std::ptr::null_mut()), AtomicPtr::new(std::ptr::null_mut())];

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

/// Calls a host handler (`handler(ch)`, a C `dMessageFunction`) with a
/// report's text. Handlers receive a printf format and a `va_list`, which
/// only C can build: the C layer, which is the only one to install
/// handlers, installs the invoker with them (its variadic shim is in
/// `csrc/variadic.c`). The core crate itself builds no C.
pub type Invoker = unsafe fn(handler: *mut c_void, num: c_int, text: &str);

static INVOKER: std::sync::OnceLock<Invoker> = std::sync::OnceLock::new();

/// Installs the function that calls host handlers (see [`Invoker`]). The
/// first one installed stays.
pub fn set_invoker(f: Invoker) {
    let _ = INVOKER.set(f);
}

/// Prints a report to stderr as ODE's default handlers do, except that the
/// library's own usage reports (`usage`) say so instead of "INTERNAL ERROR".
pub fn default_print(ch: Channel, num: c_int, text: &str, usage: bool) {
    unsafe { libc::fflush(std::ptr::null_mut()) };
    let mut err = std::io::stderr().lock();
    let _ = write_default_text(&mut err, ch, num, text, usage);
    let _ = err.flush();
}

fn write_default_text(out: &mut impl Write, ch: Channel, num: c_int, text: &str, usage: bool) -> std::io::Result<()> {
    let title = match ch {
        Channel::Debug if usage && num == D_ERR_UASSERT => return write!(out, "\nODE usage error ({num}): {text}\n"),
        Channel::Error => "ODE Error",
        Channel::Debug => "ODE INTERNAL ERROR",
        Channel::Message => "ODE Message",
    };
    if num != 0 {
        write!(out, "\n{title} {num}: {text}\n")
    } else {
        write!(out, "\n{title}: {text}\n")
    }
}

/// Reports a message of the library on a channel: to the host's handler if
/// one is installed, else to stderr. Never terminates.
pub fn report(ch: Channel, num: c_int, text: &str) {
    let h = handler(ch);
    match INVOKER.get() {
        // SAFETY: a non-null handler was installed by the C layer together
        // with the invoker that knows its type.
        Some(invoke) if !h.is_null() => unsafe { invoke(h, num, text) },
        _ => default_print(ch, num, text, true),
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

/// `suspicious_input` for text already formatted without allocating
/// (inside a time step).
pub fn suspicious_message(text: &str) {
    REPORTS.fetch_add(1, Ordering::Relaxed);
    message(D_ERR_UASSERT, text);
}

fn abort_on_bad_input() -> bool {
    static FLAG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FLAG.get_or_init(|| std::env::var("ODE_ABORT_ON_BAD_INPUT").map(|v| !v.is_empty() && v != "0").unwrap_or(false))
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

    fn default_text(ch: Channel, num: c_int, usage: bool) -> String {
        let mut v = Vec::new();
        write_default_text(&mut v, ch, num, "dBodySetPosition: argument 'x' is NaN", usage).unwrap();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn default_text_names_usage_errors() {
        // The library's argument reports: a usage error of the caller.
        assert_eq!(
            default_text(Channel::Debug, D_ERR_UASSERT, true),
            "\nODE usage error (2): dBodySetPosition: argument 'x' is NaN\n"
        );
        // Internal errors, and whatever the host passes to dDebug, keep ODE's text.
        assert!(default_text(Channel::Debug, D_ERR_IASSERT, true).starts_with("\nODE INTERNAL ERROR 1: "));
        assert!(default_text(Channel::Debug, D_ERR_UASSERT, false).starts_with("\nODE INTERNAL ERROR 2: "));
        assert!(default_text(Channel::Error, 5, false).starts_with("\nODE Error 5: "));
        assert!(default_text(Channel::Message, D_ERR_LCP, true).starts_with("\nODE Message 3: "));
        assert!(default_text(Channel::Message, 0, true).starts_with("\nODE Message: "));
    }

    #[test]
    fn c_exponent_format() {
        for (v, want) in [(1.5e-5, "1.5000e-05"), (-2.0, "-2.0000e+00"), (0.0, "0.0000e+00"), (3.25e120, "3.2500e+120")]
        {
            let mut t = StackText::<64>::new();
            write_c_exp4(&mut t, v).unwrap();
            assert_eq!(t.as_str(), want);
        }
        let mut small = StackText::<4>::new();
        let _ = write!(small, "abcdef");
        assert_eq!(small.as_str(), "abcd");
    }
}
