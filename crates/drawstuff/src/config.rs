//! How a run is set up: drawstuff's own command-line flags (`-notex`,
//! `-noshadow(s)`, `-pause`, `-texturepath DIR`) and this library's
//! additions, each with an environment variable read once when
//! `dsSimulationLoop` starts (a flag wins over its variable):
//!
//! | flag | variable | meaning |
//! |---|---|---|
//! | `-headless` | `DS_HEADLESS=1` | no window, even with a display |
//! | `-window` | `DS_WINDOW=1` | a window even when a frame count is given |
//! | `-frames N` | `DS_FRAMES=N` | run N frames, then return (headless unless `-window`) |
//! | `-output DIR` | `DS_OUTPUT=DIR` | write `frameNNNN.png` and `animation.gif` there |
//! | `-size WxH` | `DS_SIZE=WxH` | picture/window size (default: the program's) |
//! | `-interval K` | `DS_INTERVAL=K` | record every K-th frame (default 5) |
//! | `-keys STRING` | `DS_KEYS=STRING` | type STRING's keys into the program, one per frame from the first |
//!
//! Without a display and without a frame count, a headless run lasts
//! [`DEFAULT_HEADLESS_FRAMES`] frames.
use std::path::PathBuf;

/// Frames a headless run lasts when nothing says how many.
pub const DEFAULT_HEADLESS_FRAMES: u64 = 300;
/// Default recording interval.
pub const DEFAULT_INTERVAL: u64 = 5;

/// A run's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// No window.
    pub headless: bool,
    /// Frames to run before returning (`None`: until stopped).
    pub frames: Option<u64>,
    /// Where pictures go.
    pub output: Option<PathBuf>,
    /// Picture/window size.
    pub width: u32,
    /// Picture/window size.
    pub height: u32,
    /// Record every `interval`-th frame.
    pub interval: u64,
    /// Textures on (`-notex` turns them off).
    pub textures: bool,
    /// Shadows on (`-noshadow` turns them off).
    pub shadows: bool,
    /// Start paused (`-pause`).
    pub pause: bool,
    /// `-texturepath DIR`.
    pub texture_path: Option<PathBuf>,
    /// Keys passed to the program's `command`, one per frame (scripted runs).
    pub keys: Vec<u8>,
    /// Problems found in the settings (reported, then ignored).
    pub warnings: Vec<String>,
}

impl Config {
    /// drawstuff's defaults for a `width` × `height` picture: a window,
    /// textures and shadows on, no frame count, no output.
    pub fn new(width: u32, height: u32) -> Config {
        Config {
            headless: false,
            frames: None,
            output: None,
            width: width.clamp(1, 8192),
            height: height.clamp(1, 8192),
            interval: DEFAULT_INTERVAL,
            textures: true,
            shadows: true,
            pause: false,
            texture_path: None,
            keys: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// Reads the settings from `args` (argv, program name first), `env` (a
/// variable lookup) and whether a display exists.
pub fn parse(args: &[String], env: &dyn Fn(&str) -> Option<String>, display: bool, width: u32, height: u32) -> Config {
    let mut c = Config::new(width, height);
    let truthy = |v: Option<String>| v.is_some_and(|v| !v.is_empty() && v != "0");
    let mut headless = truthy(env("DS_HEADLESS"));
    let mut window = truthy(env("DS_WINDOW"));
    let mut frames = env("DS_FRAMES");
    let mut output = env("DS_OUTPUT");
    let mut size = env("DS_SIZE");
    let mut interval = env("DS_INTERVAL");
    let mut keys = env("DS_KEYS");
    let mut i = 1;
    while i < args.len() {
        let a = args[i].as_str();
        let value = |i: &mut usize| {
            *i += 1;
            args.get(*i).cloned()
        };
        match a {
            "-notex" => c.textures = false,
            "-noshadow" | "-noshadows" => c.shadows = false,
            "-pause" => c.pause = true,
            "-texturepath" => c.texture_path = value(&mut i).map(PathBuf::from).or(c.texture_path.take()),
            "-headless" => headless = true,
            "-window" => window = true,
            "-frames" => frames = value(&mut i).or(frames),
            "-output" => output = value(&mut i).or(output),
            "-size" => size = value(&mut i).or(size),
            "-interval" => interval = value(&mut i).or(interval),
            "-keys" => keys = value(&mut i).or(keys),
            _ => {}
        }
        i += 1;
    }
    if let Some(f) = frames {
        match f.trim().parse::<u64>() {
            Ok(n) => c.frames = Some(n),
            Err(_) => c.warnings.push(format!("frame count '{f}' is not a number; ignored")),
        }
    }
    if let Some(o) = output.filter(|o| !o.is_empty()) {
        c.output = Some(PathBuf::from(o));
    }
    if let Some(s) = size {
        match s
            .split_once(['x', 'X'])
            .and_then(|(w, h)| Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?)))
        {
            Some((w, h)) if (1..=8192).contains(&w) && (1..=8192).contains(&h) => (c.width, c.height) = (w, h),
            _ => c.warnings.push(format!("size '{s}' is not WxH within 1..8192; ignored")),
        }
    }
    if let Some(k) = interval {
        match k.trim().parse::<u64>() {
            Ok(k) if k > 0 => c.interval = k,
            _ => c.warnings.push(format!("interval '{k}' is not a positive number; ignored")),
        }
    }
    c.keys = keys.map(String::into_bytes).unwrap_or_default();
    c.headless = headless || !display || (c.frames.is_some() && !window);
    if c.headless && c.frames.is_none() {
        c.frames = Some(DEFAULT_HEADLESS_FRAMES);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        std::iter::once("demo").chain(a.iter().copied()).map(String::from).collect()
    }

    #[test]
    fn config_odes_flags_and_defaults() {
        let none = |_: &str| None;
        let c = parse(&args(&["-notex", "-noshadow", "-pause", "-texturepath", "/t"]), &none, true, 352, 288);
        assert!(!c.textures && !c.shadows && c.pause && !c.headless);
        assert_eq!(c.texture_path, Some(PathBuf::from("/t")));
        assert_eq!((c.width, c.height, c.frames), (352, 288, None));
        // No display: headless for the default frame count.
        let c = parse(&args(&[]), &none, false, 640, 480);
        assert!(c.headless && c.frames == Some(DEFAULT_HEADLESS_FRAMES));
    }

    #[test]
    fn config_environment_and_flags_flag_wins() {
        let env = |k: &str| match k {
            "DS_FRAMES" => Some("40".to_string()),
            "DS_OUTPUT" => Some("/tmp/o".to_string()),
            "DS_SIZE" => Some("320x240".to_string()),
            "DS_INTERVAL" => Some("3".to_string()),
            _ => None,
        };
        let c = parse(&args(&["-frames", "7", "-keys", "bs"]), &env, true, 640, 480);
        assert_eq!(c.keys, b"bs");
        assert!(c.headless, "a frame count means headless");
        assert_eq!((c.frames, c.width, c.height, c.interval), (Some(7), 320, 240, 3));
        assert_eq!(c.output, Some(PathBuf::from("/tmp/o")));
        let c = parse(&args(&["-window"]), &env, true, 640, 480);
        assert!(!c.headless && c.frames == Some(40));
    }

    #[test]
    fn config_bad_values_are_reported_and_ignored() {
        let env = |k: &str| match k {
            "DS_FRAMES" => Some("many".to_string()),
            "DS_SIZE" => Some("0x9".to_string()),
            "DS_INTERVAL" => Some("0".to_string()),
            _ => None,
        };
        let c = parse(&args(&["-frames"]), &env, true, 640, 480);
        assert_eq!(c.warnings.len(), 3, "{:?}", c.warnings);
        assert_eq!((c.width, c.height, c.interval), (640, 480, DEFAULT_INTERVAL));
        assert!(!c.headless && c.frames.is_none());
    }
}
