//! Face angles of `dGeomTriMeshDataPreprocess2(…BUILD_FACE_ANGLES…)`: one
//! code per triangle edge, which the convex–trimesh collider
//! (`colliders::ccd`) reads back for its contact normal correction.
//!
//! They are built as ODE 0.16.2 builds them, in the same walk as the use
//! flags (`preprocess`): the edge records sorted with libstdc++'s
//! algorithm, each pair of neighbouring records with the same vertex pair
//! is a shared edge, seen from the first record's triangle (its normal,
//! the host's if the data has normals) towards the second's opposite
//! vertex; every other record is an open edge. A vertex pair used by more
//! than two triangles thus makes as many pairs as the sort puts together,
//! and a record left over is open.
//!
//! The storage format (`requestExtraData[BUILD_FACE_ANGLES]`) decides the
//! quantisation and whether concave angles are kept:
//! * byte positive (the default): 1 + ⌊angle·254/π⌋ for convex and flat
//!   edges, 0 for concave ones (their angle is not kept);
//! * byte all / word all: ±⌊|angle|·N/π⌋ with N = 127 / 32767, negative
//!   for concave edges.

use super::preprocess::{edge_runs, fold, sorted_edges, Edge, EdgeRun, Fold};
use super::{cross, dot, sub, TriMeshData};
use std::f64::consts::{FRAC_PI_2, PI};

/// Storage of the angles, by `dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FaceAngleFormat {
    /// `…EXTRA_BYTE_POSITIVE` (0, the default): concave angles dropped.
    #[default]
    BytePositive,
    /// `…EXTRA_BYTE_ALL` (1): signed bytes.
    ByteAll,
    /// `…EXTRA_WORD_ALL` (2): signed 16-bit words.
    WordAll,
}

impl FaceAngleFormat {
    /// The format of a `requestExtraData` value (None if out of range).
    pub fn from_request(v: isize) -> Option<Self> {
        match v {
            0 => Some(Self::BytePositive),
            1 => Some(Self::ByteAll),
            2 => Some(Self::WordAll),
            _ => None,
        }
    }

    /// Largest magnitude of a signed code.
    fn signed_max(self) -> i32 {
        match self {
            Self::ByteAll => 127,
            _ => 32767,
        }
    }
}

/// What a stored code says about its edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    Concave,
    Flat,
    Convex,
}

/// The face angles of a mesh data object.
#[derive(Clone, Debug)]
pub struct FaceAngles {
    pub format: FaceAngleFormat,
    /// Three codes per triangle (edge e runs from corner e to e+1), in
    /// the format's range (0..=255 or ±127 or ±32767).
    codes: Vec<i16>,
}

impl FaceAngles {
    /// Builds the angles of every edge of `d` (see the module comment).
    pub fn build(d: &TriMeshData, format: FaceAngleFormat) -> FaceAngles {
        let mut out = FaceAngles { format, codes: vec![0; 3 * d.tri_count] };
        let edges = sorted_edges(d);
        for run in edge_runs(&edges) {
            let (cur, next) = match run {
                EdgeRun::Alone { e, .. } => {
                    out.set(&e, 0.0);
                    continue;
                }
                EdgeRun::Shared { first, second, .. } => (first, second),
            };
            let f = fold(d, &cur, &next);
            let angle = if f.concave() {
                if format == FaceAngleFormat::BytePositive {
                    -PI // not kept: any negative value
                } else if f.len2 != 0.0 {
                    -fold_angle(d, &cur, &f, f.dot)
                } else {
                    0.0
                }
            } else if f.dot < 0.0 && f.len2 != 0.0 {
                fold_angle(d, &cur, &f, -f.dot)
            } else {
                0.0
            };
            out.set(&cur, angle);
            out.set(&next, angle);
        }
        out
    }

    fn set(&mut self, e: &Edge, angle: f64) {
        self.codes[3 * e.tri as usize + e.slot()] = self.encode(angle);
    }

    fn encode(&self, angle: f64) -> i16 {
        match self.format {
            FaceAngleFormat::BytePositive => {
                if angle >= 0.0 {
                    1 + ((angle * (254.0 / PI)).floor() as u32).min(254) as i16
                } else {
                    0
                }
            }
            f => {
                let max = f.signed_max();
                let n = ((angle.abs() * (max as f64 / PI)).floor() as u32).min(max as u32) as i16;
                if angle < 0.0 {
                    -n
                } else {
                    n
                }
            }
        }
    }

    /// Kind and angle of edge `e` of triangle `t` (flat and 0 past the
    /// end). The angle is 0 where the format keeps none: flat edges, and
    /// concave ones in the byte-positive format.
    pub fn get(&self, t: usize, e: usize) -> (EdgeKind, f64) {
        let Some(&code) = self.codes.get(3 * t + e) else {
            return (EdgeKind::Flat, 0.0);
        };
        match self.format {
            FaceAngleFormat::BytePositive => match code {
                ..=0 => (EdgeKind::Concave, 0.0),
                1 => (EdgeKind::Flat, 0.0),
                _ => (EdgeKind::Convex, (code - 1) as f64 * (PI / 254.0)),
            },
            f => {
                let value = code as f64 * (PI / f.signed_max() as f64);
                match code {
                    ..=-1 => (EdgeKind::Concave, value),
                    0 => (EdgeKind::Flat, 0.0),
                    _ => (EdgeKind::Convex, value),
                }
            }
        }
    }
}

/// Unsigned angle between the two faces of fold `f` (shared edge of the
/// records `first` and the one after it), from `cos_dot`, the dot product
/// of the fold made positive: asin of the cosine when the second face
/// bends below the first's plane by less than a right angle, else
/// π/2 + acos; π/2 when the cosine is not below 1.
fn fold_angle(d: &TriMeshData, first: &Edge, f: &Fold, cos_dot: f64) -> f64 {
    let cosine = cos_dot / f.len2.sqrt();
    if !(cosine < 1.0) {
        return FRAC_PI_2;
    }
    let c1 = cross(&f.normal, &f.seg);
    let check = match f.along {
        Some(m) => dot(&c1, &m),
        None => {
            // Degenerate shared edge: compare with the direction from the
            // first triangle's edge start to its opposite corner.
            let t = d.local_triangle(first.tri as usize);
            let start = first.slot();
            let opp = if start != 0 { start - 1 } else { 2 };
            dot(&c1, &cross(&f.normal, &sub(&t[opp], &t[start])))
        }
    };
    if check < 0.0 {
        cosine.asin()
    } else {
        FRAC_PI_2 + cosine.acos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(format: FaceAngleFormat, angle: f64) -> (EdgeKind, f64) {
        let mut a = FaceAngles { format, codes: vec![0; 3] };
        a.codes[0] = a.encode(angle);
        a.get(0, 0)
    }

    #[test]
    fn formats_quantise_and_classify() {
        use EdgeKind::*;
        use FaceAngleFormat::*;
        let q = |n: f64, k: f64| k * (PI / n);
        assert_eq!(store(BytePositive, 0.0), (Flat, 0.0));
        assert_eq!(store(BytePositive, -0.3), (Concave, 0.0));
        assert_eq!(store(BytePositive, 1.0), (Convex, q(254.0, 80.0)));
        assert_eq!(store(BytePositive, 0.005), (Flat, 0.0));
        assert_eq!(store(BytePositive, PI), (Convex, q(254.0, 254.0)));
        assert_eq!(store(ByteAll, 1.0), (Convex, q(127.0, 40.0)));
        assert_eq!(store(ByteAll, -1.0), (Concave, q(127.0, -40.0)));
        assert_eq!(store(ByteAll, -0.01), (Flat, 0.0));
        assert_eq!(store(WordAll, -1.0), (Concave, q(32767.0, -10430.0)));
        assert_eq!(store(WordAll, 4.0), (Convex, q(32767.0, 32767.0)));
        assert_eq!(FaceAngles { format: WordAll, codes: vec![] }.get(5, 1), (Flat, 0.0));
    }
}
