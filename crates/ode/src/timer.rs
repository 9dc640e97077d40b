//! Stopwatches and the code-section timer of timer.h.
//!
//! Like Debian's ODE (its POSIX build), clock counts are wall-clock
//! microseconds from `gettimeofday`, kept as ODE's two `unsigned long`
//! words (microseconds, seconds) so `dStopwatch` keeps its C layout. The
//! section timer is one process-wide table of up to 100 events, reported in
//! ODE's text format.

use std::fmt::Write as _;
use std::sync::Mutex;

/// Clock ticks per second (microseconds).
pub const TICKS_PER_SECOND: f64 = 1_000_000.0;

/// Current clock count as ODE's `cc[2]`: `[microseconds, seconds]`.
pub fn clock_count() -> [u64; 2] {
    let mut tv = libc::timeval { tv_sec: 0, tv_usec: 0 };
    // SAFETY: gettimeofday writes the struct we pass; a null timezone is allowed.
    unsafe { libc::gettimeofday(&mut tv, std::ptr::null_mut()) };
    [tv.tv_usec as u64, tv.tv_sec as u64]
}

/// A clock count as a number of ticks.
pub fn ticks(cc: [u64; 2]) -> f64 {
    cc[1] as f64 * 1.0e6 + cc[0] as f64
}

/// Smallest observable clock step, in seconds (measured, as ODE does).
pub fn resolution() -> f64 {
    let mut a = clock_count();
    let mut b = clock_count();
    while a == b {
        b = clock_count();
    }
    a = clock_count();
    while a == b {
        a = clock_count();
    }
    (ticks(a) - ticks(b)) / TICKS_PER_SECOND
}

/// ODE's `dStopwatch` (C layout): accumulated ticks and the start count.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stopwatch {
    pub time: f64,
    pub cc: [u64; 2],
}

impl Stopwatch {
    pub fn reset(&mut self) {
        *self = Stopwatch::default();
    }

    pub fn start(&mut self) {
        self.cc = clock_count();
    }

    pub fn stop(&mut self) {
        let now = clock_count();
        self.time += ticks(now) - ticks(self.cc);
    }

    /// Accumulated time in seconds.
    pub fn seconds(&self) -> f64 {
        self.time / TICKS_PER_SECOND
    }
}

const MAX_EVENTS: usize = 100;

#[derive(Clone, Default)]
struct Event {
    cc: [u64; 2],
    total_t: f64,
    total_p: f64,
    count: u32,
    description: Vec<u8>,
}

struct Timer {
    used: usize,
    events: Vec<Event>,
}

static TIMER: Mutex<Timer> = Mutex::new(Timer { used: 0, events: Vec::new() });

fn with_timer<R>(f: impl FnOnce(&mut Timer) -> R) -> R {
    let mut t = TIMER.lock().unwrap_or_else(|e| e.into_inner());
    if t.events.is_empty() {
        t.events = vec![Event::default(); MAX_EVENTS];
    }
    f(&mut t)
}

/// Starts a new timing run; `description` names the first section.
pub fn timer_start(description: &[u8]) {
    with_timer(|t| {
        t.events[0].description = description.to_vec();
        t.used = 1;
        t.events[0].cc = clock_count();
    });
}

/// Ends the current section and starts one named `description`.
pub fn timer_now(description: &[u8]) {
    with_timer(|t| {
        if t.used < MAX_EVENTS {
            let i = t.used;
            t.events[i].cc = clock_count();
            t.events[i].description = description.to_vec();
            t.used += 1;
        }
    });
}

/// Ends the run (adds the "TOTAL" mark).
pub fn timer_end() {
    with_timer(|t| {
        if t.used < MAX_EVENTS {
            let i = t.used;
            t.events[i].cc = clock_count();
            t.events[i].description = b"TOTAL".to_vec();
            t.used += 1;
        }
    });
}

/// `a` with an SI prefix, printed with two decimals (ODE's helper).
fn with_prefix(out: &mut String, mut a: f64) {
    for prefix in ["", "m", "u"] {
        if a >= 0.999999 {
            let _ = write!(out, "{a:.2} {prefix}");
            return;
        }
        a *= 1000.0;
    }
    let _ = write!(out, "{a:.2} n");
}

/// The report of the current run, in ODE's format (bytes, since section
/// names come from C); also updates the per-section totals used for averages.
pub fn timer_report(average: bool) -> Vec<u8> {
    with_timer(|t| {
        let ccunit = 1.0 / TICKS_PER_SECOND;
        let mut out = String::from("\nTimer Report (");
        with_prefix(&mut out, ccunit);
        out.push_str("s resolution)\n------------\n");
        let num = t.used;
        if num < 1 {
            return out.into_bytes();
        }
        let maxl = t.events[..num].iter().map(|e| e.description.len()).max().unwrap_or(0);
        let mut total = ticks(t.events[num - 1].cc) - ticks(t.events[0].cc);
        if total <= 0.0 {
            total = 1.0;
        }
        let mut times = vec![0.0; num];
        for i in 0..num - 1 {
            times[i] = ticks(t.events[i + 1].cc) - ticks(t.events[i].cc);
            let e = &mut t.events[i];
            e.count += 1;
            e.total_t += times[i];
            e.total_p += times[i] / total * 100.0;
        }
        let mut out = out.into_bytes();
        for (i, e) in t.events[..num].iter().enumerate() {
            let (tt, p) = if i < num - 1 { (times[i], times[i] / total * 100.0) } else { (total, 100.0) };
            // Names are padded by bytes, like printf's %-*s.
            out.extend_from_slice(&e.description);
            out.resize(out.len() + (maxl - e.description.len()), b' ');
            let mut line = String::new();
            let _ = write!(line, " {:7.2}ms {:6.2}%", tt * ccunit * 1000.0, p);
            if average && i < num - 1 {
                let n = e.count as f64;
                let _ = write!(line, "  (avg {:7.2}ms {:6.2}%)", (e.total_t / n) * ccunit * 1000.0, e.total_p / n);
            }
            line.push('\n');
            out.extend_from_slice(line.as_bytes());
        }
        out.push(b'\n');
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwatch_measures_sleep() {
        let mut s = Stopwatch::default();
        s.reset();
        s.start();
        std::thread::sleep(std::time::Duration::from_millis(20));
        s.stop();
        let t = s.seconds();
        assert!((0.019..1.0).contains(&t), "{t}");
    }

    #[test]
    fn prefix_formatting() {
        let mut s = String::new();
        with_prefix(&mut s, 1e-6);
        assert_eq!(s, "1.00 u");
        s.clear();
        with_prefix(&mut s, 2.5);
        assert_eq!(s, "2.50 ");
    }

    #[test]
    fn report_lists_sections() {
        timer_start(b"first");
        timer_now(b"second section");
        timer_end();
        let r = String::from_utf8(timer_report(true)).unwrap();
        assert!(r.starts_with("\nTimer Report (1.00 us resolution)\n------------\n"), "{r}");
        let lines: Vec<&str> = r.lines().collect();
        assert!(lines[3].starts_with("first          "), "{r}");
        assert!(lines[5].starts_with("TOTAL          "), "{r}");
        assert!(lines[5].contains("100.00%"), "{r}");
        assert!(lines[3].contains("(avg"), "{r}");
    }
}
