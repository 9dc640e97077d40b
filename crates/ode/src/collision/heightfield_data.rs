//! Heightfield sample data (`dGeomHeightfieldData*`): a grid of
//! `width_samples` × `depth_samples` heights over width × depth, read from
//! a host callback or from byte/short/float/double arrays (copied or
//! referenced), scaled and offset, with a thickness below the minimum and
//! optional wrapping. This module owns the data object, its height lookup
//! and the AABB of a heightfield geom; the collider lives with the other
//! heightfield code.

use super::shapes::{dequal, Pose};
use crate::handle::{Handle, Pool};
use std::ffi::{c_int, c_void};

pub type HeightfieldRef = Handle<HeightfieldData>;

/// All heightfield data objects. Tag spells "HFLD".
pub static HEIGHTFIELDS: Pool<HeightfieldData> = Pool::new(0x4846_4C44);

/// Height callback of `dGeomHeightfieldDataBuildCallback`.
pub type HeightCallback = unsafe extern "C" fn(user: *mut c_void, x: c_int, z: c_int) -> f64;

/// Where heights come from. Copied arrays are owned; referenced ones are
/// the host's (they must outlive the data, as in ODE).
pub enum Samples {
    Callback { user: *mut c_void, f: Option<HeightCallback> },
    Byte(Buf<u8>),
    Short(Buf<i16>),
    Single(Buf<f32>),
    Double(Buf<f64>),
}

pub enum Buf<T> {
    Owned(Vec<T>),
    Borrowed(*const T),
}

impl<T: Copy> Buf<T> {
    fn at(&self, i: usize) -> T {
        match self {
            Buf::Owned(v) => v[i],
            // SAFETY: the host promised `i` samples behind the pointer.
            Buf::Borrowed(p) => unsafe { *p.add(i) },
        }
    }

    /// Copies `n` samples when asked to, else keeps the pointer.
    ///
    /// # Safety
    /// `p` points to `n` readable samples.
    pub unsafe fn new(p: *const T, n: usize, copy: bool) -> Buf<T> {
        if copy {
            Buf::Owned(std::slice::from_raw_parts(p, n).to_vec())
        } else {
            Buf::Borrowed(p)
        }
    }
}

pub struct HeightfieldData {
    pub width: f64,
    pub depth: f64,
    pub sample_width: f64,
    pub sample_depth: f64,
    pub sample_zx_aspect: f64,
    pub inv_sample_width: f64,
    pub inv_sample_depth: f64,
    pub half_width: f64,
    pub half_depth: f64,
    pub min_height: f64,
    pub max_height: f64,
    pub thickness: f64,
    pub scale: f64,
    pub offset: f64,
    pub width_samples: i32,
    pub depth_samples: i32,
    pub wrap: bool,
    pub samples: Samples,
}

unsafe impl Send for HeightfieldData {}

impl HeightfieldData {
    /// A data object as ODE creates it: all zero, callback source unset.
    pub fn new() -> HeightfieldData {
        HeightfieldData {
            width: 0.0,
            depth: 0.0,
            sample_width: 0.0,
            sample_depth: 0.0,
            sample_zx_aspect: 0.0,
            inv_sample_width: 0.0,
            inv_sample_depth: 0.0,
            half_width: 0.0,
            half_depth: 0.0,
            min_height: 0.0,
            max_height: 0.0,
            thickness: 0.0,
            scale: 0.0,
            offset: 0.0,
            width_samples: 0,
            depth_samples: 0,
            wrap: false,
            samples: Samples::Callback { user: std::ptr::null_mut(), f: None },
        }
    }

    /// Grid geometry and scaling shared by every build function.
    pub fn set_grid(
        &mut self,
        ws: i32,
        ds: i32,
        width: f64,
        depth: f64,
        scale: f64,
        offset: f64,
        thickness: f64,
        wrap: bool,
    ) {
        self.width = width;
        self.depth = depth;
        self.half_width = width / 2.0;
        self.half_depth = depth / 2.0;
        self.scale = scale;
        self.offset = offset;
        self.thickness = thickness;
        self.width_samples = ws;
        self.depth_samples = ds;
        self.sample_width = width / (ws as f64 - 1.0);
        self.sample_depth = depth / (ds as f64 - 1.0);
        self.sample_zx_aspect = self.sample_depth / self.sample_width;
        self.inv_sample_width = 1.0 / self.sample_width;
        self.inv_sample_depth = 1.0 / self.sample_depth;
        self.wrap = wrap;
    }

    fn raw_sample(&self, i: usize) -> f64 {
        match &self.samples {
            Samples::Byte(b) => b.at(i) as f64,
            Samples::Short(b) => b.at(i) as f64,
            Samples::Single(b) => b.at(i) as f64,
            Samples::Double(b) => b.at(i),
            Samples::Callback { .. } => 0.0,
        }
    }

    /// Height bounds of array data (a callback keeps the bounds it has).
    pub fn compute_height_bounds(&mut self) {
        if let Samples::Callback { .. } = self.samples {
            return;
        }
        let n = (self.width_samples as i64 * self.depth_samples as i64).max(0) as usize;
        let (mut lo, mut hi) = (f64::INFINITY, -f64::INFINITY);
        for i in 0..n {
            let h = self.raw_sample(i);
            if h < lo {
                lo = h;
            }
            if h > hi {
                hi = h;
            }
        }
        lo *= self.scale;
        hi *= self.scale;
        lo += self.offset;
        hi += self.offset;
        lo -= self.thickness;
        self.min_height = lo;
        self.max_height = hi;
    }

    /// `dGeomHeightfieldDataSetBounds`.
    pub fn set_bounds(&mut self, min_h: f64, max_h: f64) {
        self.min_height = (min_h * self.scale) + self.offset - self.thickness;
        self.max_height = (max_h * self.scale) + self.offset;
    }

    /// Scaled height of sample (x, z), clamped or wrapped to the grid.
    pub fn height_at(&self, mut x: i32, mut z: i32) -> f64 {
        if !self.wrap {
            x = x.clamp(0, (self.width_samples - 1).max(0));
            z = z.clamp(0, (self.depth_samples - 1).max(0));
        } else {
            let (wx, wz) = (self.width_samples - 1, self.depth_samples - 1);
            if wx > 0 {
                x %= wx;
                if x < 0 {
                    x += wx;
                }
            }
            if wz > 0 {
                z %= wz;
                if z < 0 {
                    z += wz;
                }
            }
        }
        let h = match &self.samples {
            Samples::Callback { user, f: Some(f) } => unsafe { f(*user, x, z) },
            Samples::Callback { .. } => 0.0,
            _ => self.raw_sample((x + z * self.width_samples) as usize),
        };
        h * self.scale + self.offset
    }
}

impl Default for HeightfieldData {
    fn default() -> Self {
        HeightfieldData::new()
    }
}

/// AABB of a heightfield geom over `data` (ODE's formulas; `pose` for a
/// placeable geom). A destroyed data object gives an empty box.
pub fn geom_aabb(data: *mut c_void, pose: Option<&Pose>) -> [f64; 6] {
    let Some(d) = HEIGHTFIELDS.check(data) else { return [0.0; 6] };
    let d = d.get();
    let inf = f64::INFINITY;
    if d.wrap {
        return match pose {
            Some(_) => [-inf, inf, -inf, inf, -inf, inf],
            None => [-inf, inf, d.min_height, d.max_height, -inf, inf],
        };
    }
    let Some(p) = pose else {
        return [-d.half_width, d.half_width, d.min_height, d.max_height, -d.half_depth, d.half_depth];
    };
    let r = &p.r;
    let deq = dequal;
    let mut dy = [0.0; 6];
    for k in 0..3 {
        let rk = r[1 + 4 * k];
        dy[k] = if !deq(d.min_height, -inf) {
            rk * d.min_height
        } else if !deq(rk, 0.0) {
            rk * -inf
        } else {
            0.0
        };
        dy[3 + k] = if !deq(d.max_height, inf) {
            rk * d.max_height
        } else if !deq(rk, 0.0) {
            rk * inf
        } else {
            0.0
        };
    }
    let mut dx = [0.0; 6];
    let mut dz = [0.0; 6];
    for k in 0..3 {
        dx[k] = r[4 * k] * -d.half_width;
        dx[3 + k] = r[4 * k] * d.half_width;
        dz[k] = r[2 + 4 * k] * -d.half_depth;
        dz[3 + k] = r[2 + 4 * k] * d.half_depth;
    }
    let mn = |a: f64, b: f64| if a > b { b } else { a };
    let mx = |a: f64, b: f64| if a > b { a } else { b };
    let mn3 = |a: f64, b: f64, c: f64| if a < b { mn(a, c) } else { mn(b, c) };
    let mx3 = |a: f64, b: f64, c: f64| if a > b { mx(a, c) } else { mx(b, c) };
    let mut a = [0.0; 6];
    for k in 0..3 {
        a[2 * k] = p.pos[k] + mn3(mn(dx[k], dx[3 + k]), mn(dy[k], dy[3 + k]), mn(dz[k], dz[3 + k]));
        a[2 * k + 1] = p.pos[k] + mx3(mx(dx[k], dx[3 + k]), mx(dy[k], dy[3 + k]), mx(dz[k], dz[3 + k]));
    }
    a
}
