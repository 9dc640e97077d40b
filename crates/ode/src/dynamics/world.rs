//! The world: global simulation parameters and the list of its bodies.
//!
//! ODE keeps bodies in a list with the newest first; island building and
//! hence results depend on that order, so `World::bodies` is read in the
//! same order (`body::world_bodies`).

use crate::handle::{ErasedHandle, Handle, Pool};

pub type WorldRef = Handle<World>;

/// All worlds. Tag spells "WRLD".
pub static WORLDS: Pool<World> = Pool::new(0x574C_5244);

/// Auto-disable parameters (world defaults, copied into each new body).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoDisable {
    pub idle_time: f64,
    pub idle_steps: i32,
    /// Squared thresholds, as ODE stores them.
    pub linear_average_threshold: f64,
    pub angular_average_threshold: f64,
    pub average_samples: u32,
}

/// Damping parameters (world defaults, copied into each new body).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Damping {
    pub linear_scale: f64,
    pub angular_scale: f64,
    /// Squared speed thresholds below which damping applies.
    pub linear_threshold: f64,
    pub angular_threshold: f64,
}

/// QuickStep (PGS/SOR) settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuickStepParams {
    pub num_iterations: i32,
    pub w: f64,
}

/// Contact correction settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactParams {
    pub max_vel: f64,
    pub min_depth: f64,
}

/// Which solver algorithms a world's steps use.
///
/// `Exact` (the default) reproduces ODE 0.16.2 bit for bit. `Fast` keeps
/// ODE's model (ERP/CFM, friction pyramid, findex, bounce, limits, motors,
/// feedback) but solves it with different algorithms, so results differ
/// from ODE's in the last bits and beyond; it never draws from `dRand`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SolverMode {
    /// ODE 0.16.2's algorithms, bit for bit.
    #[default]
    Exact,
    /// ODE's model solved by faster algorithms.
    Fast,
}

impl SolverMode {
    /// The environment variable that sets the mode of new worlds.
    pub const ENV: &'static str = "ODE_SOLVER";

    /// `ODE_SOLVER` (`exact` or `fast`, any case), read once per process;
    /// unset or anything else means `Exact`.
    pub fn from_env() -> SolverMode {
        static MODE: std::sync::OnceLock<SolverMode> = std::sync::OnceLock::new();
        *MODE.get_or_init(|| match std::env::var(Self::ENV) {
            Ok(v) if v.trim().eq_ignore_ascii_case("fast") => SolverMode::Fast,
            _ => SolverMode::Exact,
        })
    }
}

/// Body flag bits (same meaning and values as ODE's internal flags).
pub mod flags {
    pub const FINITE_ROTATION: u32 = 1;
    pub const FINITE_ROTATION_AXIS: u32 = 2;
    pub const DISABLED: u32 = 4;
    pub const NO_GRAVITY: u32 = 8;
    pub const AUTO_DISABLE: u32 = 16;
    pub const LINEAR_DAMPING: u32 = 32;
    pub const ANGULAR_DAMPING: u32 = 64;
    pub const MAX_ANGULAR_SPEED: u32 = 128;
    pub const GYROSCOPIC: u32 = 256;
    /// A step carried the body beyond `error::HUGE_INPUT` and said so
    /// (once per body: the report is about the body, not each step).
    pub const HUGE_REPORTED: u32 = 512;
}

pub struct World {
    /// Bodies in creation order (oldest first); ODE's list order is the
    /// reverse. Bodies sit a layer above their world (a body reads its
    /// world's defaults): `body::create_body` and `body::free_body` keep
    /// this list, and `body::world_bodies` reads it in ODE's order.
    pub(crate) bodies: Vec<ErasedHandle>,
    /// Joints in creation order (oldest first); ODE's list order is the
    /// reverse. Joints belong to the layer above, which maintains this list
    /// and reads it in ODE's order (`joints::object::world_joints`).
    pub(crate) joints: Vec<ErasedHandle>,
    pub gravity: [f64; 3],
    pub erp: f64,
    pub cfm: f64,
    pub adis: AutoDisable,
    /// Flags given to new bodies (auto-disable, damping, max angular speed).
    pub body_flags: u32,
    pub qs: QuickStepParams,
    pub contactp: ContactParams,
    pub dampingp: Damping,
    pub max_angular_speed: f64,
    pub data: *mut core::ffi::c_void,
    /// Settings accepted for API compatibility that do not change results
    /// (memory reservation policy, threading): stored so getters echo them.
    pub islands_max_threads: u32,
    /// Threads stepping islands set by `odexWorldSetStepThreads` (0: not
    /// set, then the ODE threading API or `ODE_THREADS` decide).
    pub step_threads: u32,
    /// Exact (ODE's bits) or fast solver algorithms; new worlds take
    /// `ODE_SOLVER`, `odexWorldSetSolverMode` changes it.
    pub solver_mode: SolverMode,
    /// Our built-in multi-threaded implementation when the host set one
    /// with `dWorldSetStepThreadingImplementation` (its serving threads
    /// then step islands in parallel).
    pub step_threads_impl: Option<crate::threading::engine::ImplRef>,
    /// Step memory and threading settings (see `StepSettings`).
    pub step_settings: StepSettings,
    /// Buffers reused by every step, so a warm step does not allocate. The
    /// step pipeline (a layer above) owns their type and keeps them here
    /// between steps; `None` until the first step.
    pub(crate) step_scratch: Option<Box<dyn std::any::Any + Send>>,
    /// The island search's stamp of its latest step: a joint whose
    /// `visit` equals it was reached in that search (no pass clears the
    /// joints first). Kept here, not with the step's buffers, so that it
    /// only ever moves on.
    pub(crate) island_stamp: u32,
}

/// ODE's per-world step memory and threading configuration. The library
/// steps single-threaded with its own buffers, so none of this changes
/// results; it is kept to accept, validate and answer exactly as ODE does.
#[derive(Clone, Copy, Debug)]
pub struct StepSettings {
    /// ODE allocates a world's working memory on demand (first step, or a
    /// memory policy/manager being set, or sharing); some calls then
    /// behave differently (e.g. sharing into a world that already has it).
    pub has_working_memory: bool,
    /// Reservation policy (factor, minimum) or `None` for ODE's defaults.
    pub reserve: Option<(f32, u32)>,
    /// Host memory manager (alloc, shrink, free) or `None` for the default.
    pub memory_manager: Option<[usize; 3]>,
    /// Host threading implementation (functions info, implementation).
    pub threading: Option<(usize, usize)>,
}

impl Default for StepSettings {
    fn default() -> Self {
        StepSettings::new()
    }
}

impl StepSettings {
    pub const fn new() -> StepSettings {
        StepSettings { has_working_memory: false, reserve: None, memory_manager: None, threading: None }
    }
}

// Raw user-data pointers are the host's; the world itself is moved between
// threads only as ODE allows.
unsafe impl Send for World {}

impl World {
    /// A world with ODE's defaults.
    pub fn new() -> World {
        World {
            bodies: Vec::new(),
            joints: Vec::new(),
            gravity: [0.0; 3],
            erp: 0.2,
            cfm: 1e-10,
            adis: AutoDisable {
                idle_time: 0.0,
                idle_steps: 10,
                linear_average_threshold: 0.01 * 0.01,
                angular_average_threshold: 0.01 * 0.01,
                average_samples: 1,
            },
            body_flags: 0,
            qs: QuickStepParams { num_iterations: 20, w: 1.3 },
            contactp: ContactParams { max_vel: f64::INFINITY, min_depth: 0.0 },
            dampingp: Damping {
                linear_scale: 0.0,
                angular_scale: 0.0,
                linear_threshold: 0.01 * 0.01,
                angular_threshold: 0.01 * 0.01,
            },
            max_angular_speed: f64::INFINITY,
            data: std::ptr::null_mut(),
            islands_max_threads: 0,
            step_threads: 0,
            solver_mode: SolverMode::from_env(),
            step_threads_impl: None,
            step_settings: StepSettings::new(),
            step_scratch: None,
            island_stamp: 0,
        }
    }

    /// `dWorldGetAutoDisableFlag` returns the flag bit itself, as ODE does.
    pub fn auto_disable_flag(&self) -> i32 {
        (self.body_flags & flags::AUTO_DISABLE) as i32
    }

    pub fn set_auto_disable_flag(&mut self, on: bool) {
        set_flag(&mut self.body_flags, flags::AUTO_DISABLE, on);
    }

    /// Damping scales turn the world's damping flags on when nonzero
    /// (NaN counts as nonzero, as in C).
    pub fn set_linear_damping(&mut self, scale: f64) {
        set_flag(&mut self.body_flags, flags::LINEAR_DAMPING, scale != 0.0);
        self.dampingp.linear_scale = scale;
    }

    pub fn set_angular_damping(&mut self, scale: f64) {
        set_flag(&mut self.body_flags, flags::ANGULAR_DAMPING, scale != 0.0);
        self.dampingp.angular_scale = scale;
    }

    /// A finite limit turns the max-angular-speed flag on; infinity off.
    pub fn set_max_angular_speed(&mut self, max_speed: f64) {
        set_flag(&mut self.body_flags, flags::MAX_ANGULAR_SPEED, max_speed < f64::INFINITY);
        self.max_angular_speed = max_speed;
    }

    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }
}

impl Default for World {
    fn default() -> Self {
        World::new()
    }
}

fn set_flag(bits: &mut u32, flag: u32, on: bool) {
    if on {
        *bits |= flag;
    } else {
        *bits &= !flag;
    }
}

/// `dWorldUseSharedWorkingMemory`: with a source world, `w` starts using
/// (a reference to) its working memory, allocated on demand; ODE refuses
/// when `w` already has working memory. Without one, `w` drops its own.
pub fn use_shared_working_memory(w: WorldRef, from: Option<WorldRef>) -> Result<(), &'static str> {
    match from {
        Some(src) => {
            if w.get().step_settings.has_working_memory {
                return Err("world does already have working memory allocated");
            }
            src.get_mut().step_settings.has_working_memory = true;
            w.get_mut().step_settings.has_working_memory = true;
        }
        None => w.get_mut().step_settings.has_working_memory = false,
    }
    Ok(())
}

/// Creates a world and returns its handle.
pub fn create_world() -> WorldRef {
    WORLDS.alloc(World::new())
}
