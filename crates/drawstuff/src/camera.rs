//! The camera: drawstuff's viewpoint (position and heading/pitch/roll in
//! degrees), its mouse motion model, and the view and projection matrices
//! ODE's drawstuff sets up (x forward at heading 0, z up, a frustum whose
//! half-width at the near plane is 0.8 × near on the longer side).
use glam::{Mat4, Vec3};

/// Near and far planes of the frustum.
const NEAR: f32 = 0.1;
const FAR: f32 = 100.0;
/// View scale: 1 would be ±45° on the longer side.
const VIEW_SCALE: f32 = 0.8;

/// Position and heading, pitch, roll (degrees).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewpoint {
    /// Camera position.
    pub xyz: [f32; 3],
    /// Heading (about z), pitch (about the camera's y), roll, in degrees.
    pub hpr: [f32; 3],
}

impl Default for Viewpoint {
    /// drawstuff's start position: 2 m along x, 1 m up, looking back at the origin.
    fn default() -> Self {
        Viewpoint { xyz: [2.0, 0.0, 1.0], hpr: [180.0, 0.0, 0.0] }
    }
}

impl Viewpoint {
    /// Keeps the angles in [-180, 180].
    pub fn wrap_angles(&mut self) {
        for a in &mut self.hpr {
            if !a.is_finite() {
                *a = 0.0;
            }
            while *a > 180.0 {
                *a -= 360.0;
            }
            while *a < -180.0 {
                *a += 360.0;
            }
        }
    }

    /// Mouse drag: `buttons` has bit 1 for left, 2 for middle, 4 for right.
    /// Left turns the camera, right moves it forward and sideways, middle
    /// (or left + right) moves it sideways and up.
    pub fn apply_motion(&mut self, buttons: u32, dx: i32, dy: i32) {
        let side = 0.01 * dx as f32;
        let fwd = if buttons == 4 { 0.01 * dy as f32 } else { 0.0 };
        let (s, c) = self.hpr[0].to_radians().sin_cos();
        if buttons == 1 {
            self.hpr[0] += dx as f32 * 0.5;
            self.hpr[1] += dy as f32 * 0.5;
        } else {
            self.xyz[0] += -s * side + c * fwd;
            self.xyz[1] += c * side + s * fwd;
            if buttons == 2 || buttons == 5 {
                self.xyz[2] += 0.01 * dy as f32;
            }
        }
        self.wrap_angles();
    }

    /// World → eye matrix: the eye looks along its −z with y up; at heading 0
    /// it looks along world +x with world z up.
    pub fn view_matrix(&self) -> Mat4 {
        let [h, p, r] = self.hpr.map(f32::to_radians);
        Mat4::from_rotation_z(90f32.to_radians())
            * Mat4::from_rotation_y(90f32.to_radians())
            * Mat4::from_rotation_x(r)
            * Mat4::from_rotation_y(p)
            * Mat4::from_rotation_z(-h)
            * Mat4::from_translation(-Vec3::from(self.xyz))
    }
}

/// The perspective projection for a viewport of `width` × `height`.
pub fn projection(width: u32, height: u32) -> Mat4 {
    let (w, h) = (width.max(1) as f32, height.max(1) as f32);
    // Half extents at the near plane, as drawstuff's glFrustum call.
    let (half_w, half_h) = if w >= h {
        (NEAR * VIEW_SCALE, NEAR * VIEW_SCALE * h / w)
    } else {
        (NEAR * VIEW_SCALE * w / h, NEAR * VIEW_SCALE)
    };
    frustum(-half_w, half_w, -half_h, half_h, NEAR, FAR)
}

/// OpenGL's glFrustum matrix (clip z in [-w, w]).
fn frustum(l: f32, r: f32, b: f32, t: f32, n: f32, f: f32) -> Mat4 {
    Mat4::from_cols_array(&[
        2.0 * n / (r - l),
        0.0,
        0.0,
        0.0,
        0.0,
        2.0 * n / (t - b),
        0.0,
        0.0,
        (r + l) / (r - l),
        (t + b) / (t - b),
        -(f + n) / (f - n),
        -1.0,
        0.0,
        0.0,
        -2.0 * f * n / (f - n),
        0.0,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eye(vp: &Viewpoint, p: [f32; 3]) -> Vec3 {
        vp.view_matrix().transform_point3(Vec3::from(p))
    }

    #[test]
    fn camera_heading_zero_looks_along_x_with_z_up() {
        let vp = Viewpoint { xyz: [0.0, 0.0, 0.0], hpr: [0.0, 0.0, 0.0] };
        let ahead = eye(&vp, [5.0, 0.0, 0.0]);
        assert!((ahead - Vec3::new(0.0, 0.0, -5.0)).length() < 1e-5, "{ahead}");
        let up = eye(&vp, [0.0, 0.0, 1.0]);
        assert!((up - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-5, "{up}");
        // +y in the world is to the left when looking along +x.
        let left = eye(&vp, [0.0, 1.0, 0.0]);
        assert!((left - Vec3::new(-1.0, 0.0, 0.0)).length() < 1e-5, "{left}");
    }

    #[test]
    fn camera_default_viewpoint_sees_the_origin_ahead() {
        let vp = Viewpoint::default();
        let o = eye(&vp, [0.0, 0.0, 0.0]);
        assert!(o.z < -1.9 && o.x.abs() < 1e-5 && (o.y + 1.0).abs() < 1e-5, "{o}");
        // A positive pitch looks down.
        let mut down = vp;
        down.hpr[1] = -30.0;
        let o2 = eye(&down, [0.0, 0.0, 0.0]);
        assert!(o2.y > o.y, "pitch -30 should raise the origin in view: {o2} vs {o}");
    }

    #[test]
    fn camera_motion_turns_and_moves_like_drawstuff() {
        let mut vp = Viewpoint { xyz: [0.0, 0.0, 1.0], hpr: [0.0, 0.0, 0.0] };
        vp.apply_motion(1, 10, 4);
        assert_eq!(vp.hpr, [5.0, 2.0, 0.0]);
        let mut vp = Viewpoint { xyz: [0.0, 0.0, 1.0], hpr: [0.0, 0.0, 0.0] };
        vp.apply_motion(4, 0, 100); // right drag: forward along the heading
        assert!((vp.xyz[0] - 1.0).abs() < 1e-6 && vp.xyz[1].abs() < 1e-6);
        vp.apply_motion(2, 0, 50); // middle drag: up
        assert!((vp.xyz[2] - 1.5).abs() < 1e-6);
        let mut vp = Viewpoint { xyz: [0.0; 3], hpr: [179.0, 0.0, 0.0] };
        vp.apply_motion(1, 10, 0);
        assert!((vp.hpr[0] + 176.0).abs() < 1e-4, "wrapped: {:?}", vp.hpr);
    }

    #[test]
    fn camera_projection_keeps_the_centre_and_clips_far() {
        let p = projection(640, 480);
        let c = p.project_point3(Vec3::new(0.0, 0.0, -10.0));
        assert!(c.x.abs() < 1e-6 && c.y.abs() < 1e-6 && c.z > -1.0 && c.z < 1.0);
        let far = p.project_point3(Vec3::new(0.0, 0.0, -200.0));
        assert!(far.z > 1.0, "beyond the far plane");
        // 0.8 × distance to the side is the edge of a wide viewport.
        let edge = p.project_point3(Vec3::new(8.0, 0.0, -10.0));
        assert!((edge.x - 1.0).abs() < 1e-5, "{edge}");
    }
}
