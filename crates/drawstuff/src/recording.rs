//! Pictures from Rust without the simulation loop: a program that steps its
//! own world (the `ode` crate's examples, a robot simulator, a test) opens a
//! [`Recording`], and for each frame draws its shapes with a [`Pen`]; every
//! `interval`-th frame is rendered headless and written as a PNG and into
//! the animated GIF, exactly as `DS_OUTPUT` does for drawstuff programs.
//!
//! ```no_run
//! use drawstuff::{Recording, Texture};
//! use glam::{DMat3, DVec3};
//! let mut rec = Recording::new("/tmp/pictures", 320, 240, 5).expect("headless GL");
//! rec.set_viewpoint([3.0, 0.0, 1.0], [180.0, 0.0, 0.0]);
//! for step in 0..100 {
//!     let z = 2.0 - 0.01 * step as f64;
//!     rec.frame(|pen| {
//!         pen.set_texture(Texture::Wood);
//!         pen.set_color(1.0, 0.5, 0.0);
//!         pen.draw_box(DVec3::new(0.0, 0.0, z), DMat3::IDENTITY, DVec3::splat(0.5));
//!     })
//!     .unwrap();
//! }
//! ```
use crate::camera::{projection, Viewpoint};
use crate::frame::Frame;
use crate::recorder::Recorder;
use crate::shapes::{draw_background, DrawState, Placement, Tessellator};
use crate::viewer::{open_offscreen, Graphics};
use glam::{DMat3, DVec3};
use std::path::Path;

/// drawstuff's textures, for [`Pen::set_texture`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Texture {
    /// Plain colour.
    None = 0,
    /// Wood grain.
    Wood = 1,
    /// Black and white checks.
    Checkered = 2,
    /// The ground's texture.
    Ground = 3,
    /// The sky's texture.
    Sky = 4,
}

/// A headless recording: PNG frames and `animation.gif` in a directory.
pub struct Recording {
    graphics: Graphics,
    recorder: Recorder,
    frame: Frame,
    tess: Tessellator,
    view: Viewpoint,
    state: DrawState,
    pixels: Vec<u8>,
    sky_offset: f32,
    n: u64,
}

impl Recording {
    /// Opens a `width` × `height` headless renderer writing every
    /// `interval`-th frame (the first included) to `dir`. Fails when no
    /// headless OpenGL is available (Mesa's EGL) or `dir` cannot be created.
    pub fn new(dir: impl AsRef<Path>, width: u32, height: u32, interval: u64) -> Result<Self, String> {
        let cfg = crate::config::Config {
            headless: true,
            output: Some(dir.as_ref().to_path_buf()),
            interval: interval.max(1),
            ..crate::config::Config::new(width, height)
        };
        let graphics = open_offscreen(&cfg, None)?;
        let recorder = Recorder::new(dir.as_ref(), cfg.interval)?;
        Ok(Recording {
            graphics,
            recorder,
            frame: Frame::default(),
            tess: Tessellator::default(),
            view: Viewpoint::default(),
            state: DrawState::default(),
            pixels: Vec::new(),
            sky_offset: 0.0,
            n: 0,
        })
    }

    /// Camera position and heading/pitch/roll in degrees, as `dsSetViewpoint`.
    pub fn set_viewpoint(&mut self, xyz: [f32; 3], hpr: [f32; 3]) {
        self.view = Viewpoint { xyz, hpr };
        self.view.wrap_angles();
    }

    /// Shadows and textures on or off (both on by default).
    pub fn set_shadows_and_textures(&mut self, shadows: bool, textures: bool) {
        self.state.shadows = shadows;
        self.state.textures = textures;
    }

    /// One frame: when it is one to record, `draw` is called with a pen and
    /// the picture written (returns `true`); otherwise `draw` is not called.
    pub fn frame(&mut self, draw: impl FnOnce(&mut Pen)) -> Result<bool, String> {
        self.n += 1;
        self.sky_offset = (self.sky_offset + 0.002) % 1.0;
        if !self.recorder.wants(self.n) {
            return Ok(false);
        }
        self.frame.clear();
        draw_background(&mut self.frame, &self.state, &self.view, self.sky_offset);
        let mut pen = Pen {
            frame: &mut self.frame,
            tess: &mut self.tess,
            state: DrawState { color: [1.0; 4], texture: 0, ..self.state },
        };
        draw(&mut pen);
        let r = &mut self.graphics.renderer;
        let (w, h) = r.size();
        r.draw(&self.frame, self.view.view_matrix(), projection(w, h), self.view.xyz);
        r.read_pixels(&mut self.pixels);
        self.recorder.record(self.n, w, h, &self.pixels)?;
        Ok(true)
    }

    /// Pictures written so far.
    pub fn pictures(&self) -> u64 {
        self.recorder.written()
    }
}

/// Draws shapes into one recorded frame (world coordinates, z up).
pub struct Pen<'a> {
    frame: &'a mut Frame,
    tess: &'a mut Tessellator,
    state: DrawState,
}

fn placement(pos: DVec3, rot: DMat3) -> Placement {
    let c = rot.to_cols_array(); // column-major: c[col * 3 + row]
    let r = |row: usize, col: usize| c[col * 3 + row] as f32;
    Placement {
        pos: pos.as_vec3().to_array(),
        r: [r(0, 0), r(0, 1), r(0, 2), 0.0, r(1, 0), r(1, 1), r(1, 2), 0.0, r(2, 0), r(2, 1), r(2, 2), 0.0],
    }
}

impl Pen<'_> {
    /// Colour of the next shapes (opaque).
    pub fn set_color(&mut self, r: f32, g: f32, b: f32) {
        self.state.color = [r, g, b, 1.0];
    }

    /// Colour with alpha (translucent when < 1).
    pub fn set_color_alpha(&mut self, r: f32, g: f32, b: f32, a: f32) {
        self.state.color = [r, g, b, a];
    }

    /// Texture of the next shapes.
    pub fn set_texture(&mut self, t: Texture) {
        self.state.texture = t as i32;
    }

    /// A box centred at `pos`, rotated by `rot`, of side lengths `sides`.
    pub fn draw_box(&mut self, pos: DVec3, rot: DMat3, sides: DVec3) {
        let st = self.state;
        self.tess.draw_box(self.frame, &st, &placement(pos, rot), sides.as_vec3().to_array());
    }

    /// A sphere.
    pub fn draw_sphere(&mut self, pos: DVec3, rot: DMat3, radius: f64) {
        let st = self.state;
        self.tess.draw_sphere(self.frame, &st, &placement(pos, rot), radius as f32);
    }

    /// A cylinder along its local z axis.
    pub fn draw_cylinder(&mut self, pos: DVec3, rot: DMat3, length: f64, radius: f64) {
        let st = self.state;
        self.tess.draw_cylinder(self.frame, &st, &placement(pos, rot), length as f32, radius as f32);
    }

    /// A capsule along its local z axis (`length` without the caps).
    pub fn draw_capsule(&mut self, pos: DVec3, rot: DMat3, length: f64, radius: f64) {
        let st = self.state;
        self.tess.draw_capsule(self.frame, &st, &placement(pos, rot), length as f32, radius as f32);
    }

    /// A line segment (unlit, with its shadow).
    pub fn draw_line(&mut self, a: DVec3, b: DVec3) {
        let st = self.state;
        self.tess.draw_line(self.frame, &st, a.as_vec3().to_array(), b.as_vec3().to_array());
    }

    /// Triangles in the placement's local frame: `solid` lit, else outlines.
    pub fn draw_triangles(&mut self, pos: DVec3, rot: DMat3, triangles: &[[DVec3; 3]], solid: bool) {
        let st = self.state;
        let tris: Vec<[f32; 9]> = triangles
            .iter()
            .map(|t| {
                let (a, b, c) = (t[0].as_vec3(), t[1].as_vec3(), t[2].as_vec3());
                [a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z]
            })
            .collect();
        self.tess.draw_triangles(self.frame, &st, &placement(pos, rot), &tris, solid);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recording_placement_is_row_major_from_glam_columns() {
        let rot = DMat3::from_rotation_z(std::f64::consts::FRAC_PI_2);
        let p = placement(DVec3::ZERO, rot);
        // ODE's R: local x maps to world y → R[4] (row 1, col 0) = 1.
        assert!((p.r[4] - 1.0).abs() < 1e-6 && (p.r[1] + 1.0).abs() < 1e-6);
    }
}
