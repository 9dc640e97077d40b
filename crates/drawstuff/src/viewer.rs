//! The simulation loop and the viewer state the `ds*` calls share: the
//! camera, the drawing state, the frame being built. The state lives in one
//! mutex that is never held while the program's callbacks run (they call
//! back into the drawing functions). The loop runs in a window or headless
//! (see [`crate::config`]), calls `step` once per frame, and draws and
//! records the frame when something will show it.
use crate::camera::{projection, Viewpoint};
use crate::config::Config;
use crate::egl_context::GlContext;
use crate::frame::Frame;
use crate::recorder::Recorder;
use crate::renderer::Renderer;
use crate::shapes::{DrawState, Tessellator, TEX_NONE};
use crate::x11_window::{WindowEvent, X11Window};
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Where the library is in drawstuff's life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No loop running.
    Idle,
    /// Inside `dsSimulationLoop`, between frames (`start`, `stop`, commands).
    InLoop,
    /// Inside a frame's `step` callback: drawing is allowed.
    InFrame,
}

/// The shared viewer state.
pub struct Viewer {
    /// Life-cycle phase.
    pub phase: Phase,
    /// Camera.
    pub view: Viewpoint,
    /// Colour, texture and modes for the next shapes.
    pub draw: DrawState,
    /// The frame being built.
    pub frame: Frame,
    /// Tessellation scratch.
    pub tess: Tessellator,
    /// Whether shapes are turned into geometry this frame (something shows it).
    pub rendering: bool,
    /// `dsStop` was called.
    pub stop: bool,
    /// Headless: `dsElapsedTime` reports 1/60 s per call, so runs repeat.
    pub fixed_time: bool,
    /// Previous `dsElapsedTime` call.
    pub last_time: Option<Instant>,
    /// Sky texture drift, as drawstuff's.
    pub sky_offset: f32,
    /// Messages already printed (each misuse is reported once).
    reported: Vec<&'static str>,
}

static VIEWER: LazyLock<Mutex<Viewer>> = LazyLock::new(|| {
    Mutex::new(Viewer {
        phase: Phase::Idle,
        view: Viewpoint::default(),
        draw: DrawState::default(),
        frame: Frame::default(),
        tess: Tessellator::default(),
        rendering: false,
        stop: false,
        fixed_time: false,
        last_time: None,
        sky_offset: 0.0,
        reported: Vec::new(),
    })
});

/// Locks the viewer state (a panic elsewhere does not make it unusable).
pub fn viewer() -> MutexGuard<'static, Viewer> {
    VIEWER.lock().unwrap_or_else(|e| e.into_inner())
}

impl Viewer {
    /// Prints `msg` to stderr the first time it happens.
    pub fn report_once(&mut self, msg: &'static str) {
        if !self.reported.contains(&msg) {
            self.reported.push(msg);
            eprintln!("drawstuff: {msg}");
        }
    }
}

/// The program's callbacks (drawstuff.h's `dsFunctions`).
#[repr(C)]
pub struct DsFunctions {
    /// `DS_VERSION` the program was built with.
    pub version: libc::c_int,
    /// Before the first frame.
    pub start: Option<unsafe extern "C" fn()>,
    /// Each frame.
    pub step: Option<unsafe extern "C" fn(libc::c_int)>,
    /// A key without Ctrl.
    pub command: Option<unsafe extern "C" fn(libc::c_int)>,
    /// After the last frame.
    pub stop: Option<unsafe extern "C" fn()>,
    /// Version 2: texture directory.
    pub path_to_textures: *const libc::c_char,
}

/// The callbacks, copied out of the program's struct.
#[derive(Clone, Copy)]
pub struct Callbacks {
    /// See [`DsFunctions`].
    pub start: Option<unsafe extern "C" fn()>,
    /// See [`DsFunctions`].
    pub step: Option<unsafe extern "C" fn(libc::c_int)>,
    /// See [`DsFunctions`].
    pub command: Option<unsafe extern "C" fn(libc::c_int)>,
    /// See [`DsFunctions`].
    pub stop: Option<unsafe extern "C" fn()>,
}

/// The graphics a run uses: none (headless without pictures), an offscreen
/// context, or a window. Fields drop in order: renderer, context, window.
pub(crate) struct Graphics {
    pub(crate) renderer: Renderer,
    pub(crate) context: GlContext,
    pub(crate) window: Option<X11Window>,
}

fn open_window(cfg: &Config, textures: Option<&std::path::Path>) -> Result<Graphics, String> {
    let window = X11Window::open(cfg.width, cfg.height, "Simulation")?;
    // SAFETY: the display and window live in `Graphics` after the context.
    let (context, gl) = unsafe { GlContext::x11(window.display_ptr(), window.window_id()) }?;
    let renderer = Renderer::new(gl, cfg.width, cfg.height, false, textures)?;
    Ok(Graphics { renderer, context, window: Some(window) })
}

pub(crate) fn open_offscreen(cfg: &Config, textures: Option<&std::path::Path>) -> Result<Graphics, String> {
    let (context, gl) = GlContext::headless()?;
    let renderer = Renderer::new(gl, cfg.width, cfg.height, true, textures)?;
    Ok(Graphics { renderer, context, window: None })
}

const BANNER: &str = "
Simulation test environment (drawstuff, ode-rs)
   Ctrl-P : pause / unpause (or say `-pause' on command line).
   Ctrl-O : single step when paused.
   Ctrl-T : toggle textures (or say `-notex' on command line).
   Ctrl-S : toggle shadows (or say `-noshadow' on command line).
   Ctrl-V : print current viewpoint coordinates (x,y,z,h,p,r).
   Ctrl-W : write frames to PNG files (DS_OUTPUT, or ./frame/).
   Ctrl-X : exit.

Change the camera position by clicking + dragging in the window.
   Left button - pan and tilt.
   Right button - forward and sideways.
   Left + Right button (or middle button) - sideways and up.
";

/// Runs the loop. `texture_dir` is the program's `path_to_textures`.
pub fn run(cfg: Config, callbacks: Callbacks, texture_dir: Option<PathBuf>) {
    for w in &cfg.warnings {
        eprintln!("drawstuff: {w}");
    }
    let texture_dir = cfg.texture_path.clone().or(texture_dir);
    {
        let mut v = viewer();
        if v.phase != Phase::Idle {
            v.report_once("dsSimulationLoop() called while a loop is running; ignored");
            return;
        }
        v.phase = Phase::InLoop;
        v.view = Viewpoint::default();
        v.draw = DrawState { textures: cfg.textures, shadows: cfg.shadows, ..DrawState::default() };
        v.stop = false;
        v.last_time = None;
    }

    let mut cfg = cfg;
    let mut graphics = None;
    if !cfg.headless {
        match open_window(&cfg, texture_dir.as_deref()) {
            Ok(g) => graphics = Some(g),
            Err(e) => {
                eprintln!("drawstuff: no window ({e}); running headless");
                cfg.headless = true;
                cfg.frames.get_or_insert(crate::config::DEFAULT_HEADLESS_FRAMES);
            }
        }
    }
    if cfg.headless && cfg.output.is_some() {
        match open_offscreen(&cfg, texture_dir.as_deref()) {
            Ok(g) => graphics = Some(g),
            Err(e) => eprintln!("drawstuff: cannot render headless ({e}); no pictures will be written"),
        }
    }
    let mut recorder = None;
    if let (Some(dir), Some(_)) = (&cfg.output, &graphics) {
        match Recorder::new(dir, cfg.interval) {
            Ok(r) => recorder = Some(r),
            Err(e) => eprintln!("drawstuff: {e}"),
        }
    }
    if cfg.headless {
        eprintln!(
            "drawstuff: headless, {} frames{}",
            cfg.frames.unwrap_or(0),
            cfg.output.as_ref().map(|d| format!(", pictures in {}", d.display())).unwrap_or_default()
        );
    } else {
        eprintln!("{BANNER}");
    }
    viewer().fixed_time = cfg.headless;

    if let Some(start) = callbacks.start {
        // SAFETY: the program's callback, called as drawstuff calls it.
        unsafe { start() };
    }

    let mut pause = cfg.pause;
    let mut single_step = false;
    let mut events = Vec::new();
    let mut pixels = Vec::new();
    let mut spare = Frame::default();
    let mut n: u64 = 0;
    let frame_time = Duration::from_secs_f64(1.0 / 60.0);
    let mut next_frame = Instant::now();
    loop {
        if cfg.frames.is_some_and(|f| n >= f) || viewer().stop {
            break;
        }
        n += 1;
        // Window events: camera, viewer commands, the program's keys.
        if let Some(w) = graphics.as_mut().and_then(|g| g.window.as_mut()) {
            events.clear();
            w.poll(&mut events);
        }
        for ev in events.drain(..) {
            match ev {
                WindowEvent::Drag { buttons, dx, dy } => viewer().view.apply_motion(buttons, dx, dy),
                WindowEvent::Resize(w, h) => {
                    if let Some(g) = graphics.as_mut() {
                        g.renderer.resize(w, h);
                    }
                }
                WindowEvent::Close => viewer().stop = true,
                WindowEvent::Key { key, ctrl: false } => {
                    if let Some(command) = callbacks.command {
                        // SAFETY: the program's callback.
                        unsafe { command(key as libc::c_int) };
                    }
                }
                WindowEvent::Key { key, ctrl: true } => match key.to_ascii_lowercase() {
                    b't' => {
                        let mut v = viewer();
                        v.draw.textures = !v.draw.textures;
                    }
                    b's' => {
                        let mut v = viewer();
                        v.draw.shadows = !v.draw.shadows;
                    }
                    b'x' => viewer().stop = true,
                    b'p' => {
                        pause = !pause;
                        single_step = false;
                    }
                    b'o' => single_step = pause,
                    b'v' => {
                        let vp = viewer().view;
                        println!(
                            "Viewpoint = ({:.4},{:.4},{:.4},{:.4},{:.4},{:.4})",
                            vp.xyz[0], vp.xyz[1], vp.xyz[2], vp.hpr[0], vp.hpr[1], vp.hpr[2]
                        );
                    }
                    b'w' => {
                        if recorder.is_some() {
                            recorder = None;
                        } else {
                            let dir = cfg.output.clone().unwrap_or_else(|| PathBuf::from("frame"));
                            match Recorder::new(&dir, 1) {
                                Ok(r) => {
                                    println!("Now writing frames to {}", dir.display());
                                    recorder = Some(r);
                                }
                                Err(e) => eprintln!("drawstuff: {e}"),
                            }
                        }
                    }
                    _ => {}
                },
            }
        }
        // A scripted key for this frame.
        if let (Some(&key), Some(command)) = (cfg.keys.get(n as usize - 1), callbacks.command) {
            // SAFETY: the program's callback.
            unsafe { command(key as libc::c_int) };
        }
        if viewer().stop {
            break;
        }

        // Headless, only the frames to be recorded are drawn.
        let draw_this = graphics.as_ref().is_some_and(|g| g.window.is_some())
            || (graphics.is_some() && recorder.as_ref().is_some_and(|r| !pause && r.wants(n)));
        {
            let mut v = viewer();
            v.rendering = draw_this;
            // The sky drifts every frame, drawn or not, as in drawstuff (which draws every frame).
            v.sky_offset += 0.002;
            if v.sky_offset > 1.0 {
                v.sky_offset -= 1.0;
            }
            v.frame.clear();
            v.phase = Phase::InFrame;
            v.draw.color = [1.0; 4];
            v.draw.texture = TEX_NONE;
            if v.rendering {
                let (st, view, sky) = (v.draw, v.view, v.sky_offset);
                crate::shapes::draw_background(&mut v.frame, &st, &view, sky);
            }
        }
        if let Some(step) = callbacks.step {
            // SAFETY: the program's callback.
            unsafe { step((pause && !single_step) as libc::c_int) };
        }
        single_step = false;
        let view = {
            let mut v = viewer();
            v.phase = Phase::InLoop;
            std::mem::swap(&mut v.frame, &mut spare);
            v.view
        };
        if let Some(g) = graphics.as_mut().filter(|_| draw_this) {
            let (w, h) = g.renderer.size();
            g.renderer.draw(&spare, view.view_matrix(), projection(w, h), view.xyz);
            if let Some(r) = recorder.as_mut().filter(|r| !pause && r.wants(n)) {
                g.renderer.read_pixels(&mut pixels);
                if let Err(e) = r.record(n, w, h, &pixels) {
                    eprintln!("drawstuff: {e}; recording stopped");
                    recorder = None;
                }
            }
            if g.window.is_some() {
                g.context.swap();
                // ODE's drawstuff draws at most 60 frames per second.
                let now = Instant::now();
                if next_frame > now {
                    std::thread::sleep(next_frame - now);
                }
                next_frame = next_frame.max(now) + frame_time;
            }
        }
    }

    if let Some(stop) = callbacks.stop {
        // SAFETY: the program's callback.
        unsafe { stop() };
    }
    if let Some(r) = &recorder {
        if let Some(dir) = &cfg.output {
            eprintln!("drawstuff: {} pictures written to {}", r.written(), dir.display());
        }
    }
    drop(recorder);
    drop(graphics);
    let mut v = viewer();
    v.phase = Phase::Idle;
    v.rendering = false;
    v.frame.clear();
}
