//! Box–box: ODE's `dBoxBox` (separating-axis test over the 15 face and
//! edge axes, then contact generation and reduction), `dBoxTouchesBox`,
//! and the box–box collider built on them.
//!
//! Contact generation: for an edge–edge axis, one contact midway between
//! the closest points of the two edges. For a face axis, the face of the
//! other box most anti-parallel to the normal (the incident face) is
//! clipped against the reference face rectangle; the clipped points below
//! the reference face become contacts. When more are found than requested,
//! the deepest is kept plus those whose angles around the polygon centroid
//! best spread the rest evenly.

use super::box_shape::{col_col_dot, col_dot, sub3};
use crate::collision::contact::{Contact, ContactSink, CONTACTS_UNIMPORTANT, NUMC_MASK};
use crate::collision::shapes::{BoxShape, Pose};
use crate::math::mat3::{mul0_331, mul1_331};
use crate::math::vec::dot3;

/// What `dBoxBox` computes, including what it leaves in its out-parameters
/// when it finds no contact after all (`normal_depth` set, `code` not).
#[derive(Clone, Debug, Default)]
pub struct BoxBoxResult {
    /// Normal (pointing from box 1 into box 2) and penetration depth along
    /// it, once the boxes are known to overlap.
    pub normal_depth: Option<([f64; 3], f64)>,
    /// 1–3: a face of box 1 is the reference face; 4–6: a face of box 2;
    /// 7–15: edge–edge. Set only when contacts were produced.
    pub code: Option<i32>,
    /// Contact (position, depth) pairs, at most 8.
    pub points: BoxPoints,
}

/// Up to 8 contact (position, depth) pairs, stored inline so a collision
/// never allocates.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoxPoints {
    buf: [([f64; 3], f64); 8],
    len: usize,
}

impl BoxPoints {
    pub fn push(&mut self, p: ([f64; 3], f64)) {
        self.buf[self.len] = p;
        self.len += 1;
    }
}

impl std::ops::Deref for BoxPoints {
    type Target = [([f64; 3], f64)];
    fn deref(&self) -> &Self::Target {
        &self.buf[..self.len]
    }
}

impl<'a> IntoIterator for &'a BoxPoints {
    type Item = &'a ([f64; 3], f64);
    type IntoIter = std::slice::Iter<'a, ([f64; 3], f64)>;
    fn into_iter(self) -> Self::IntoIter {
        self.buf[..self.len].iter()
    }
}

/// Points where the 2D rectangle |x| <= h[0], |y| <= h[1] and the
/// quadrilateral `p` (4 x,y pairs) overlap: the quad clipped against the
/// four rectangle edges in turn. Stops as soon as 8 points are produced,
/// as ODE does (the partial result is used then).
fn intersect_rect_quad(h: &[f64; 2], p: &[f64; 8], ret: &mut [f64; 16]) -> usize {
    // Two buffers used in turn (each pass reads one and writes the other),
    // so no pass clears or copies a whole buffer; every entry a pass reads
    // was written by the pass before.
    let mut bufs = [[0.0f64; 16]; 2];
    bufs[0][..8].copy_from_slice(p);
    let mut cur = 0;
    let mut nq = 4;
    for dir in 0..2 {
        let o = 1 - dir;
        let hd = h[dir];
        for sign in [-1.0f64, 1.0] {
            let [a, b] = &mut bufs;
            let (src, dst) = if cur == 0 { (&*a, b) } else { (&*b, a) };
            let mut nr = 0;
            let limit = sign * hd;
            for i in 0..nq {
                let (p0, p1) = (src[2 * i], src[2 * i + 1]);
                let nx = if i + 1 < nq { i + 1 } else { 0 };
                let (n0, n1) = (src[2 * nx], src[2 * nx + 1]);
                let (pd, po, nd, no) = if dir == 0 { (p0, p1, n0, n1) } else { (p1, p0, n1, n0) };
                let in_p = sign * pd < hd;
                if in_p {
                    dst[2 * nr] = p0;
                    dst[2 * nr + 1] = p1;
                    nr += 1;
                    if nr == 8 {
                        ret.copy_from_slice(dst);
                        return nr;
                    }
                }
                if in_p ^ (sign * nd < hd) {
                    dst[2 * nr + o] = po + (no - po) / (nd - pd) * (limit - pd);
                    dst[2 * nr + dir] = limit;
                    nr += 1;
                    if nr == 8 {
                        ret.copy_from_slice(dst);
                        return nr;
                    }
                }
            }
            cur ^= 1;
            nq = nr;
        }
    }
    ret.copy_from_slice(&bufs[cur]);
    nq
}

/// Chooses `m` of the `n` points `p` (x,y pairs): `i0` first, then for
/// each further slot the unused point whose angle about the centroid is
/// closest to `angle(i0) + j·2π/m`.
fn cull_points(n: usize, p: &[f64; 16], m: usize, i0: usize, iret: &mut [usize; 8]) {
    use std::f64::consts::PI;
    let (cx, cy);
    if n == 1 {
        cx = p[0];
        cy = p[1];
    } else if n == 2 {
        cx = 0.5 * (p[0] + p[2]);
        cy = 0.5 * (p[1] + p[3]);
    } else {
        // Area-weighted centroid of the polygon.
        let (mut a, mut sx, mut sy) = (0.0, 0.0, 0.0);
        for i in 0..n - 1 {
            let q = p[i * 2] * p[i * 2 + 3] - p[i * 2 + 2] * p[i * 2 + 1];
            a += q;
            sx += q * (p[i * 2] + p[i * 2 + 2]);
            sy += q * (p[i * 2 + 1] + p[i * 2 + 3]);
        }
        let q = p[n * 2 - 2] * p[1] - p[0] * p[n * 2 - 1];
        let a = 1.0 / (3.0 * (a + q));
        cx = a * (sx + q * (p[n * 2 - 2] + p[0]));
        cy = a * (sy + q * (p[n * 2 - 1] + p[1]));
    }
    let mut ang = [0.0f64; 8];
    for i in 0..n {
        ang[i] = (p[i * 2 + 1] - cy).atan2(p[i * 2] - cx);
    }
    let mut avail = [true; 8];
    avail[i0] = false;
    iret[0] = i0;
    for j in 1..m {
        let mut a = j as f64 * (2.0 * PI / m as f64) + ang[i0];
        if a > PI {
            a -= 2.0 * PI;
        }
        let mut maxdiff = 1e9;
        // ODE leaves i0 here if nothing qualifies (only with NaN angles).
        let mut pick = i0;
        for i in 0..n {
            if avail[i] {
                let mut diff = (ang[i] - a).abs();
                if diff > PI {
                    diff = 2.0 * PI - diff;
                }
                if diff < maxdiff {
                    maxdiff = diff;
                    pick = i;
                }
            }
        }
        avail[pick] = false;
        iret[j] = pick;
    }
}

/// Closest approach of lines pa + α·ua and pb + β·ub (unit directions);
/// (0, 0) when nearly parallel.
fn line_closest_approach(pa: &[f64; 3], ua: &[f64; 3], pb: &[f64; 3], ub: &[f64; 3]) -> (f64, f64) {
    let p = sub3(pb, pa);
    let uaub = dot3(ua, ub);
    let q1 = dot3(ua, &p);
    let q2 = -dot3(ub, &p);
    let d = 1.0 - uaub * uaub;
    if d <= 0.0001 {
        (0.0, 0.0)
    } else {
        let d = 1.0 / d;
        ((q1 + uaub * q2) * d, (uaub * q1 + q2) * d)
    }
}

/// ODE's `dBoxBox`: boxes (p1, r1, side1) and (p2, r2, side2) with full
/// side lengths; `flags` as for `dCollide` (max count in the low 16 bits,
/// `CONTACTS_UNIMPORTANT`). A max count of 0 is treated as 1.
pub fn box_box(
    p1: &[f64; 3],
    r1: &[f64; 12],
    side1: &[f64; 3],
    p2: &[f64; 3],
    r2: &[f64; 12],
    side2: &[f64; 3],
    flags: i32,
) -> BoxBoxResult {
    box_box_with::<true>(p1, r1, side1, p2, r2, side2, flags)
}

/// ODE's fudge factor on edge axes: an edge axis must beat the best so far
/// by 5 % (face contacts are preferred).
const FUDGE: f64 = 1.05;

/// Is the edge axis with `s2 = |e1| − e2` (≤ 0) and squared normal length
/// `l2` sure to fail ODE's `l > 0 && (s2 / l)·FUDGE > s`, `l = √l2`, with
/// `s` the best (least negative) separation so far? With x = −s2 and
/// t = −s it fails when x·FUDGE/l ≥ t, decided here on squares with a
/// relative margin of 1e-9 (far above the few ulps by which the rounded
/// sqrt, division and products can differ from the exact values), and only
/// where every square is a normal number (no over- or underflow), else
/// false: the exact test decides. Most edge axes lose (stacked boxes touch
/// face to face), and this skips their square root and division.
#[inline(always)]
fn edge_axis_loses(s2: f64, l2: f64, s: f64) -> bool {
    let normal = |v: f64| (f64::MIN_POSITIVE..f64::MAX).contains(&v);
    let xx = s2 * s2;
    let tt = s * s;
    let p = tt * l2;
    normal(xx) && normal(tt) && normal(l2) && normal(p) && (FUDGE * FUDGE) * xx > p * (1.0 + 1e-9)
}

/// `box_box`; `SHORTCUT` false takes ODE's exact test on every edge axis
/// (the reference the tests compare the shortcut against).
#[inline(always)]
fn box_box_with<const SHORTCUT: bool>(
    p1: &[f64; 3],
    r1: &[f64; 12],
    side1: &[f64; 3],
    p2: &[f64; 3],
    r2: &[f64; 12],
    side2: &[f64; 3],
    flags: i32,
) -> BoxBoxResult {
    let unimportant = flags & CONTACTS_UNIMPORTANT != 0;
    let mut out = BoxBoxResult::default();

    let p = sub3(p2, p1);
    let pp = mul1_331(r1, &p);
    let a = [side1[0] * 0.5, side1[1] * 0.5, side1[2] * 0.5];
    let b = [side2[0] * 0.5, side2[1] * 0.5, side2[2] * 0.5];

    // rm[i][j] = (column i of r1)·(column j of r2); qm = |rm|.
    let mut rm = [[0.0f64; 3]; 3];
    let mut qm = [[0.0f64; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            rm[i][j] = col_col_dot(r1, i, r2, j);
            qm[i][j] = rm[i][j].abs();
        }
    }
    let (r11, r12, r13, r21, r22, r23, r31, r32, r33) =
        (rm[0][0], rm[0][1], rm[0][2], rm[1][0], rm[1][1], rm[1][2], rm[2][0], rm[2][1], rm[2][2]);
    let (q11, q12, q13, q21, q22, q23, q31, q32, q33) =
        (qm[0][0], qm[0][1], qm[0][2], qm[1][0], qm[1][1], qm[1][2], qm[2][0], qm[2][1], qm[2][2]);

    // Best (least penetrating) axis so far: s = -depth along it.
    #[derive(Clone, Copy)]
    enum Axis {
        R1(usize),
        R2(usize),
        Cross([f64; 3]),
    }
    let mut s = f64::NEG_INFINITY;
    let mut best: Option<(Axis, bool, i32)> = None;

    // Each test returns Err(()) when the axis separates the boxes, Ok(true)
    // when an unimportant caller may stop testing.
    let face = |e1: f64, e2: f64, axis: Axis, code: i32, s: &mut f64, best: &mut Option<(Axis, bool, i32)>| {
        let s2 = e1.abs() - e2;
        if s2 > 0.0 {
            return Err(());
        }
        if s2 > *s {
            *s = s2;
            *best = Some((axis, e1 < 0.0, code));
            if unimportant {
                return Ok(true);
            }
        }
        Ok(false)
    };
    // An edge test is long enough that the compiler kept it out of line
    // (nine calls per pair); inlined, a pair takes 13 % fewer instructions
    // and about 17 % less time (same operations).
    #[inline(always)]
    fn edge_test<const SHORTCUT: bool>(
        unimportant: bool,
        e1: f64,
        e2: f64,
        n: [f64; 3],
        code: i32,
        s: &mut f64,
        best: &mut Option<(Axis, bool, i32)>,
    ) -> Result<bool, ()> {
        let mut s2 = e1.abs() - e2;
        if s2 > 0.0 {
            return Err(());
        }
        let l2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
        if SHORTCUT && edge_axis_loses(s2, l2, *s) {
            return Ok(false);
        }
        let l = l2.sqrt();
        if l > 0.0 {
            s2 /= l;
            if s2 * FUDGE > *s {
                *s = s2;
                *best = Some((Axis::Cross([n[0] / l, n[1] / l, n[2] / l]), e1 < 0.0, code));
                if unimportant {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
    let edge = |e1: f64, e2: f64, n: [f64; 3], code: i32, s: &mut f64, best: &mut Option<(Axis, bool, i32)>| {
        edge_test::<SHORTCUT>(unimportant, e1, e2, n, code, s, best)
    };

    let tests = (|| -> Result<(), ()> {
        macro_rules! stop {
            ($e:expr) => {
                if $e? {
                    return Ok(());
                }
            };
        }
        let (s, best) = (&mut s, &mut best);
        stop!(face(pp[0], a[0] + b[0] * q11 + b[1] * q12 + b[2] * q13, Axis::R1(0), 1, s, best));
        stop!(face(pp[1], a[1] + b[0] * q21 + b[1] * q22 + b[2] * q23, Axis::R1(1), 2, s, best));
        stop!(face(pp[2], a[2] + b[0] * q31 + b[1] * q32 + b[2] * q33, Axis::R1(2), 3, s, best));
        stop!(face(col_dot(&p, r2, 0), a[0] * q11 + a[1] * q21 + a[2] * q31 + b[0], Axis::R2(0), 4, s, best));
        stop!(face(col_dot(&p, r2, 1), a[0] * q12 + a[1] * q22 + a[2] * q32 + b[1], Axis::R2(1), 5, s, best));
        stop!(face(col_dot(&p, r2, 2), a[0] * q13 + a[1] * q23 + a[2] * q33 + b[2], Axis::R2(2), 6, s, best));
        // Edge axes u_i x v_j, in box 1's frame (only 3 edge directions per box).
        stop!(edge(
            pp[2] * r21 - pp[1] * r31,
            a[1] * q31 + a[2] * q21 + b[1] * q13 + b[2] * q12,
            [0.0, -r31, r21],
            7,
            s,
            best
        ));
        stop!(edge(
            pp[2] * r22 - pp[1] * r32,
            a[1] * q32 + a[2] * q22 + b[0] * q13 + b[2] * q11,
            [0.0, -r32, r22],
            8,
            s,
            best
        ));
        stop!(edge(
            pp[2] * r23 - pp[1] * r33,
            a[1] * q33 + a[2] * q23 + b[0] * q12 + b[1] * q11,
            [0.0, -r33, r23],
            9,
            s,
            best
        ));
        stop!(edge(
            pp[0] * r31 - pp[2] * r11,
            a[0] * q31 + a[2] * q11 + b[1] * q23 + b[2] * q22,
            [r31, 0.0, -r11],
            10,
            s,
            best
        ));
        stop!(edge(
            pp[0] * r32 - pp[2] * r12,
            a[0] * q32 + a[2] * q12 + b[0] * q23 + b[2] * q21,
            [r32, 0.0, -r12],
            11,
            s,
            best
        ));
        stop!(edge(
            pp[0] * r33 - pp[2] * r13,
            a[0] * q33 + a[2] * q13 + b[0] * q22 + b[1] * q21,
            [r33, 0.0, -r13],
            12,
            s,
            best
        ));
        stop!(edge(
            pp[1] * r11 - pp[0] * r21,
            a[0] * q21 + a[1] * q11 + b[1] * q33 + b[2] * q32,
            [-r21, r11, 0.0],
            13,
            s,
            best
        ));
        stop!(edge(
            pp[1] * r12 - pp[0] * r22,
            a[0] * q22 + a[1] * q12 + b[0] * q33 + b[2] * q31,
            [-r22, r12, 0.0],
            14,
            s,
            best
        ));
        stop!(edge(
            pp[1] * r13 - pp[0] * r23,
            a[0] * q23 + a[1] * q13 + b[0] * q32 + b[1] * q31,
            [-r23, r13, 0.0],
            15,
            s,
            best
        ));
        Ok(())
    })();
    if tests.is_err() {
        return out;
    }
    let Some((axis, invert, code)) = best else { return out };

    let mut normal = match axis {
        Axis::R1(i) => [r1[i], r1[4 + i], r1[8 + i]],
        Axis::R2(i) => [r2[i], r2[4 + i], r2[8 + i]],
        Axis::Cross(c) => mul0_331(r1, &c),
    };
    if invert {
        normal = [-normal[0], -normal[1], -normal[2]];
    }
    let depth = -s;
    out.normal_depth = Some((normal, depth));

    if code > 6 {
        // Edge–edge: a point on each edge, then their closest approach.
        let mut pa = *p1;
        for j in 0..3 {
            let sign = if col_dot(&normal, r1, j) > 0.0 { 1.0 } else { -1.0 };
            for i in 0..3 {
                pa[i] += sign * a[j] * r1[i * 4 + j];
            }
        }
        let mut pb = *p2;
        for j in 0..3 {
            let sign = if col_dot(&normal, r2, j) > 0.0 { -1.0 } else { 1.0 };
            for i in 0..3 {
                pb[i] += sign * b[j] * r2[i * 4 + j];
            }
        }
        let ca = ((code - 7) / 3) as usize;
        let cb = ((code - 7) % 3) as usize;
        let ua = [r1[ca], r1[4 + ca], r1[8 + ca]];
        let ub = [r2[cb], r2[4 + cb], r2[8 + cb]];
        let (alpha, beta) = line_closest_approach(&pa, &ua, &pb, &ub);
        for i in 0..3 {
            pa[i] += ua[i] * alpha;
        }
        for i in 0..3 {
            pb[i] += ub[i] * beta;
        }
        let pos = [0.5 * (pa[0] + pb[0]), 0.5 * (pa[1] + pb[1]), 0.5 * (pa[2] + pb[2])];
        out.points.push((pos, depth));
        out.code = Some(code);
        return out;
    }

    // Face case: 'a' owns the reference face, 'b' the incident one.
    let (ra, rb, pa, pb, sa, sb) = if code <= 3 { (r1, r2, p1, p2, &a, &b) } else { (r2, r1, p2, p1, &b, &a) };
    // normal2 points out of the reference face.
    let normal2 = if code <= 3 { normal } else { [-normal[0], -normal[1], -normal[2]] };
    let nr = mul1_331(rb, &normal2);
    let anr = [nr[0].abs(), nr[1].abs(), nr[2].abs()];

    // Incident face: axis of b most aligned with the normal; a1, a2 the others.
    let (lanr, a1, a2) = if anr[1] > anr[0] {
        if anr[1] > anr[2] {
            (1, 0, 2)
        } else {
            (2, 0, 1)
        }
    } else if anr[0] > anr[2] {
        (0, 1, 2)
    } else {
        (2, 0, 1)
    };

    // Incident face centre relative to the reference box centre.
    let mut center = [0.0; 3];
    for i in 0..3 {
        center[i] = if nr[lanr] < 0.0 {
            pb[i] - pa[i] + sb[lanr] * rb[i * 4 + lanr]
        } else {
            pb[i] - pa[i] - sb[lanr] * rb[i * 4 + lanr]
        };
    }

    let code_n = if code <= 3 { code - 1 } else { code - 4 } as usize;
    let (code1, code2) = match code_n {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };

    // Incident face corners in the reference face's 2D coordinates.
    let c1 = col_dot(&center, ra, code1);
    let c2 = col_dot(&center, ra, code2);
    let mut m11 = col_col_dot(ra, code1, rb, a1);
    let mut m12 = col_col_dot(ra, code1, rb, a2);
    let mut m21 = col_col_dot(ra, code2, rb, a1);
    let mut m22 = col_col_dot(ra, code2, rb, a2);
    let k1 = m11 * sb[a1];
    let k2 = m21 * sb[a1];
    let k3 = m12 * sb[a2];
    let k4 = m22 * sb[a2];
    let quad = [
        c1 - k1 - k3,
        c2 - k2 - k4,
        c1 - k1 + k3,
        c2 - k2 + k4,
        c1 + k1 + k3,
        c2 + k2 + k4,
        c1 + k1 - k3,
        c2 + k2 - k4,
    ];
    let rect = [sa[code1], sa[code2]];
    let mut ret = [0.0f64; 16];
    let n = intersect_rect_quad(&rect, &quad, &mut ret);
    if n < 1 {
        return out;
    }

    // Back to 3D (via the inverse of the 2x2 face map); keep points below
    // the reference face.
    let det1 = 1.0 / (m11 * m22 - m12 * m21);
    m11 *= det1;
    m12 *= det1;
    m21 *= det1;
    m22 *= det1;
    let mut point = [[0.0f64; 3]; 8];
    let mut dep = [0.0f64; 8];
    let mut cnum = 0;
    let want = flags & (NUMC_MASK | CONTACTS_UNIMPORTANT);
    for j in 0..n {
        let k1 = m22 * (ret[j * 2] - c1) - m12 * (ret[j * 2 + 1] - c2);
        let k2 = -m21 * (ret[j * 2] - c1) + m11 * (ret[j * 2 + 1] - c2);
        for i in 0..3 {
            point[cnum][i] = center[i] + k1 * rb[i * 4 + a1] + k2 * rb[i * 4 + a2];
        }
        dep[cnum] = sa[code_n] - dot3(&normal2, &point[cnum]);
        if dep[cnum] >= 0.0 {
            ret[cnum * 2] = ret[j * 2];
            ret[cnum * 2 + 1] = ret[j * 2 + 1];
            cnum += 1;
            // An unimportant caller stops once it has its count.
            if (cnum as i32 | CONTACTS_UNIMPORTANT) == want {
                break;
            }
        }
    }
    if cnum < 1 {
        return out;
    }

    let mut maxc = (flags & NUMC_MASK) as usize;
    if maxc > cnum {
        maxc = cnum;
    }
    if maxc < 1 {
        maxc = 1;
    }
    let world = |q: &[f64; 3]| [q[0] + pa[0], q[1] + pa[1], q[2] + pa[2]];
    if cnum <= maxc {
        for j in 0..cnum {
            out.points.push((world(&point[j]), dep[j]));
        }
    } else {
        let mut i1 = 0;
        let mut maxdepth = dep[0];
        for (i, &d) in dep.iter().enumerate().take(cnum).skip(1) {
            if d > maxdepth {
                maxdepth = d;
                i1 = i;
            }
        }
        let mut iret = [0usize; 8];
        cull_points(cnum, &ret, maxc, i1, &mut iret);
        for &k in &iret[..maxc] {
            out.points.push((world(&point[k]), dep[k]));
        }
    }
    out.code = Some(code);
    out
}

/// ODE's `dBoxTouchesBox`: do the boxes overlap (no separating axis among
/// the 15 candidates)? Touching counts as overlapping.
pub fn box_touches_box(
    p1: &[f64; 3],
    r1: &[f64; 12],
    side1: &[f64; 3],
    p2: &[f64; 3],
    r2: &[f64; 12],
    side2: &[f64; 3],
) -> bool {
    let p = sub3(p2, p1);
    let pp = mul1_331(r1, &p);
    let (a1, a2, a3) = (side1[0] * 0.5, side1[1] * 0.5, side1[2] * 0.5);
    let (b1, b2, b3) = (side2[0] * 0.5, side2[1] * 0.5, side2[2] * 0.5);
    let rr = |i: usize, j: usize| col_col_dot(r1, i, r2, j);

    let (r11, r12, r13) = (rr(0, 0), rr(0, 1), rr(0, 2));
    let (q11, q12, q13) = (r11.abs(), r12.abs(), r13.abs());
    if pp[0].abs() > a1 + b1 * q11 + b2 * q12 + b3 * q13 {
        return false;
    }
    let (r21, r22, r23) = (rr(1, 0), rr(1, 1), rr(1, 2));
    let (q21, q22, q23) = (r21.abs(), r22.abs(), r23.abs());
    if pp[1].abs() > a2 + b1 * q21 + b2 * q22 + b3 * q23 {
        return false;
    }
    let (r31, r32, r33) = (rr(2, 0), rr(2, 1), rr(2, 2));
    let (q31, q32, q33) = (r31.abs(), r32.abs(), r33.abs());
    if pp[2].abs() > a3 + b1 * q31 + b2 * q32 + b3 * q33 {
        return false;
    }
    !(col_dot(&p, r2, 0).abs() > a1 * q11 + a2 * q21 + a3 * q31 + b1
        || col_dot(&p, r2, 1).abs() > a1 * q12 + a2 * q22 + a3 * q32 + b2
        || col_dot(&p, r2, 2).abs() > a1 * q13 + a2 * q23 + a3 * q33 + b3
        || (pp[2] * r21 - pp[1] * r31).abs() > a2 * q31 + a3 * q21 + b2 * q13 + b3 * q12
        || (pp[2] * r22 - pp[1] * r32).abs() > a2 * q32 + a3 * q22 + b1 * q13 + b3 * q11
        || (pp[2] * r23 - pp[1] * r33).abs() > a2 * q33 + a3 * q23 + b1 * q12 + b2 * q11
        || (pp[0] * r31 - pp[2] * r11).abs() > a1 * q31 + a3 * q11 + b2 * q23 + b3 * q22
        || (pp[0] * r32 - pp[2] * r12).abs() > a1 * q32 + a3 * q12 + b1 * q23 + b3 * q21
        || (pp[0] * r33 - pp[2] * r13).abs() > a1 * q33 + a3 * q13 + b1 * q22 + b2 * q21
        || (pp[1] * r11 - pp[0] * r21).abs() > a1 * q21 + a2 * q11 + b2 * q33 + b3 * q32
        || (pp[1] * r12 - pp[0] * r22).abs() > a1 * q22 + a2 * q12 + b1 * q33 + b3 * q31
        || (pp[1] * r13 - pp[0] * r23).abs() > a1 * q23 + a2 * q13 + b1 * q32 + b2 * q31)
}

/// Box–box: up to 8 contacts (at most `sink.max()`), normal pointing from
/// box b towards box a.
pub fn collide_box_box(a: &BoxShape, pa: &Pose, b: &BoxShape, pb: &Pose, sink: &mut ContactSink) -> usize {
    let max = sink.max();
    if max == 0 {
        return 0;
    }
    let mut flags = (max.min(NUMC_MASK as usize)) as i32;
    if sink.unimportant() {
        flags |= CONTACTS_UNIMPORTANT;
    }
    let p1 = [pa.pos[0], pa.pos[1], pa.pos[2]];
    let p2 = [pb.pos[0], pb.pos[1], pb.pos[2]];
    let res = box_box(&p1, &pa.r, &a.sides, &p2, &pb.r, &b.sides, flags);
    let (Some((n, _)), Some(_)) = (res.normal_depth, res.code) else { return 0 };
    let normal = [-n[0], -n[1], -n[2]];
    let mut written = 0;
    for &(pos, depth) in &res.points {
        if sink.push(Contact::new(pos, normal, depth)) {
            written += 1;
        }
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Uniform numbers in [0, 1) from a 64-bit LCG seeded with `seed`.
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut st = seed;
        move || {
            st = st.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (st >> 11) as f64 / (1u64 << 53) as f64
        }
    }
    use crate::abi::contact::dContactGeom;
    use crate::math::rotation::IDENTITY;

    #[test]
    fn stacked_boxes_touch_on_four_corners() {
        let mut buf: [dContactGeom; 8] = unsafe { std::mem::zeroed() };
        let mut s = ContactSink::from_slice(&mut buf, 8);
        let unit = BoxShape { sides: [1.0, 1.0, 1.0] };
        let top = Pose::new([0.0, 0.0, 0.9], IDENTITY);
        assert_eq!(collide_box_box(&unit, &top, &unit, &Pose::IDENTITY, &mut s), 4);
        for c in &buf[..4] {
            assert_eq!(c.normal[..3], [0.0, 0.0, 1.0]);
            assert!((c.depth - 0.1).abs() < 1e-15);
        }
        let mut s = ContactSink::from_slice(&mut buf, 2);
        assert_eq!(collide_box_box(&unit, &top, &unit, &Pose::IDENTITY, &mut s), 2);
    }

    /// The edge-axis shortcut changes nothing: random box pairs (random
    /// and right-angle rotations, so parallel edges and ties occur, near
    /// and across contact, every contact limit, with and without
    /// CONTACTS_UNIMPORTANT) give the same result, bit for bit, as ODE's
    /// exact test on every axis.
    #[test]
    fn edge_axis_shortcut_gives_the_exact_results() {
        let mut unit = uniform(11);
        let (mut edge_wins, mut contacts) = (0, 0);
        for i in 0..60_000 {
            let rot = |u: &mut dyn FnMut() -> f64| {
                let (x, y, z) = (u() - 0.5, u() - 0.5, u() - 0.5);
                let angle = if i % 3 == 0 { (u() * 4.0).floor() * std::f64::consts::FRAC_PI_2 } else { u() * 7.0 };
                crate::math::rotation::r_from_axis_and_angle(x, y, z + 1e-3, angle)
            };
            let r1 = rot(&mut unit);
            let r2 = rot(&mut unit);
            let side = |u: &mut dyn FnMut() -> f64| [0.2 + 2.0 * u(), 0.2 + 2.0 * u(), 0.2 + 2.0 * u()];
            let s1 = side(&mut unit);
            let s2 = side(&mut unit);
            let p1 = [unit() - 0.5, unit() - 0.5, unit() - 0.5];
            let reach = 0.5 + 2.0 * unit();
            let p2 = [p1[0] + reach * (unit() - 0.5), p1[1] + reach * (unit() - 0.5), p1[2] + reach * (unit() - 0.5)];
            let flags = (1 + i % 8) | if i % 5 == 0 { CONTACTS_UNIMPORTANT } else { 0 };
            let fast = box_box_with::<true>(&p1, &r1, &s1, &p2, &r2, &s2, flags);
            let exact = box_box_with::<false>(&p1, &r1, &s1, &p2, &r2, &s2, flags);
            assert_eq!(format!("{fast:?}"), format!("{exact:?}"), "case {i}");
            edge_wins += exact.code.is_some_and(|c| c > 6) as u32;
            contacts += exact.code.is_some() as u32;
        }
        // Both kinds of axis won often enough for the comparison to mean something.
        assert!(edge_wins > 1000 && contacts > 10 * edge_wins / 2, "{edge_wins} {contacts}");
    }

    /// The shortcut never skips an edge axis that ODE's exact test would
    /// take, including within a few ulps of the tie and at extreme scales.
    #[test]
    fn edge_axis_shortcut_never_skips_a_winner() {
        let mut unit = uniform(7);
        let mut skipped = 0;
        for i in 0..400_000 {
            let scale = [1.0, 1e-100, 1e100, 1e-160, 1e160][i % 5];
            let s2 = -unit() * scale;
            let l2 = [unit(), 1e-30 * unit(), 1e30 * unit(), 0.0][i % 4];
            let l = l2.sqrt();
            let tie = if l > 0.0 { (s2 / l) * FUDGE } else { -1.0 };
            let s = match i % 4 {
                0 => unit() * 2.0 * tie,
                1 => tie * (1.0 + (unit() - 0.5) * 1e-15),
                2 => f64::from_bits(tie.to_bits().wrapping_add((unit() * 16.0) as u64).wrapping_sub(8)),
                _ => tie * (1.0 - 1e-9 * unit()),
            };
            let exact_wins = l > 0.0 && (s2 / l) * FUDGE > s;
            if edge_axis_loses(s2, l2, s) {
                assert!(!exact_wins, "s2 {s2:e} l2 {l2:e} s {s:e}");
                skipped += 1;
            }
        }
        assert!(skipped > 20_000, "{skipped}");
    }

    #[test]
    fn separated_boxes_do_not_touch() {
        let z = [0.0; 3];
        assert!(!box_touches_box(&z, &IDENTITY, &[1.0; 3], &[1.5, 0.0, 0.0], &IDENTITY, &[1.0; 3]));
        assert!(box_touches_box(&z, &IDENTITY, &[1.0; 3], &[0.9, 0.0, 0.0], &IDENTITY, &[1.0; 3]));
        let r = box_box(&z, &IDENTITY, &[1.0; 3], &[1.5, 0.0, 0.0], &IDENTITY, &[1.0; 3], 4);
        assert!(r.normal_depth.is_none() && r.points.is_empty());
    }

    /// ODE's clipping as written there: a fresh output buffer per edge,
    /// copied back after each pass.
    fn clip_reference(h: &[f64; 2], p: &[f64; 8], ret: &mut [f64; 16]) -> usize {
        let mut src = [0.0f64; 16];
        src[..8].copy_from_slice(p);
        let mut nq = 4;
        for dir in 0..2 {
            for sign in [-1.0f64, 1.0] {
                let mut dst = [0.0f64; 16];
                let mut nr = 0;
                let inside = |pt: &[f64]| sign * pt[dir] < h[dir];
                for i in 0..nq {
                    let pq = &src[2 * i..2 * i + 2];
                    let nx = if i + 1 < nq { i + 1 } else { 0 };
                    let nextq = &src[2 * nx..2 * nx + 2];
                    if inside(pq) {
                        dst[2 * nr] = pq[0];
                        dst[2 * nr + 1] = pq[1];
                        nr += 1;
                        if nr == 8 {
                            ret.copy_from_slice(&dst);
                            return nr;
                        }
                    }
                    if inside(pq) ^ inside(nextq) {
                        let o = 1 - dir;
                        dst[2 * nr + o] =
                            pq[o] + (nextq[o] - pq[o]) / (nextq[dir] - pq[dir]) * (sign * h[dir] - pq[dir]);
                        dst[2 * nr + dir] = sign * h[dir];
                        nr += 1;
                        if nr == 8 {
                            ret.copy_from_slice(&dst);
                            return nr;
                        }
                    }
                }
                src = dst;
                nq = nr;
            }
        }
        ret.copy_from_slice(&src);
        nq
    }

    /// Random quads (rotated and scaled squares, and arbitrary corners)
    /// against random rectangles, including coincident edges and corners
    /// exactly on the rectangle: the same count and the same points, bit
    /// for bit.
    #[test]
    fn rect_quad_clipping_matches_the_reference_bit_for_bit() {
        let mut unit = uniform(7);
        let mut eights = 0;
        for case in 0..200_000 {
            let h = [0.1 + unit() * 2.0, 0.1 + unit() * 2.0];
            let mut p = [0.0f64; 8];
            match case % 3 {
                0 => {
                    // A rotated rectangle around a random centre.
                    let (cx, cy) = (unit() * 3.0 - 1.5, unit() * 3.0 - 1.5);
                    let a = unit() * std::f64::consts::TAU;
                    let (s, c) = a.sin_cos();
                    let (w, l) = (unit() * 3.0, unit() * 3.0);
                    for (k, (u, v)) in [(-1.0, -1.0), (-1.0, 1.0), (1.0, 1.0), (1.0, -1.0)].iter().enumerate() {
                        p[2 * k] = cx + c * u * w - s * v * l;
                        p[2 * k + 1] = cy + s * u * w + c * v * l;
                    }
                }
                1 => {
                    // The rectangle itself, shifted by a grid step: edges
                    // and corners on the rectangle's edges.
                    let (dx, dy) = ((unit() * 4.0).floor() * 0.5 * h[0], (unit() * 4.0).floor() * 0.5 * h[1]);
                    for (k, (u, v)) in [(-1.0, -1.0), (-1.0, 1.0), (1.0, 1.0), (1.0, -1.0)].iter().enumerate() {
                        p[2 * k] = u * h[0] + dx - h[0];
                        p[2 * k + 1] = v * h[1] + dy - h[1];
                    }
                }
                _ => {
                    for v in p.iter_mut() {
                        *v = unit() * 6.0 - 3.0;
                    }
                }
            }
            let (mut a, mut b) = ([0.0f64; 16], [0.0f64; 16]);
            let na = intersect_rect_quad(&h, &p, &mut a);
            let nb = clip_reference(&h, &p, &mut b);
            assert_eq!(na, nb, "case {case}");
            eights += (na == 8) as usize;
            for k in 0..2 * na {
                assert_eq!(a[k].to_bits(), b[k].to_bits(), "case {case} value {k}");
            }
        }
        assert!(eights > 0, "no case reached eight points");
    }
}
