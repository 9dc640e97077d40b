//! The fast `dWorldStep` solver of one island (`SolverMode::Fast`). It
//! solves the same boxed LCP as `step` — A = J·M⁻¹·Jᵀ + CFM/h and
//! rhs = c/h − J·(v/h + M⁻¹·f), with each row's bounds and findex friction
//! — without `step`'s dense O(m³) factorisation:
//!
//! - the bilateral rows (unbounded, no friction index: ball, hinge, slider
//!   and fixed constraints, motors without limits…) are factorised by
//!   `SparseLdl` in minimum-degree order: O(m) on chains and trees of
//!   joints, fill-in only where the joints form loops;
//! - the bounded rows (limits, contacts, friction) are then solved
//!   exactly on the reduced system: the Schur complement
//!   S = A_BB − A_BF·A_FF⁻¹·A_FB (one sparse solve per bounded row that
//!   shares a body with a bilateral one) is a dense k×k boxed LCP with the
//!   rows' bounds and friction indices, solved by `reduced_lcp` (a few
//!   Gauss–Seidel sweeps for the active set, then an exact active-set
//!   solve, Dantzig's friction semantics) or, when that cannot confirm its
//!   answer within its caps, by the Dantzig solver of the exact Step
//!   (`lcp`); the bilateral λ follow by one more sparse solve. This is the
//!   exact Step's LCP solution up to rounding (and, with friction, up to
//!   the order in which Dantzig meets the rows).
//!
//! The output is `step`'s: Jᵀλ per body (`StepBuffers::cforce`) and the
//! joints' feedback; the pipeline integrates as for the exact Step. `dRand`
//! is never used. Buffers are kept in `FastStepScratch` between steps; the
//! reduced LCP starts from the contacts' λ of the world's previous fast
//! step (`contact_cache::ContactCache`, matched by geom pair and
//! position), which changes how many steps it takes, not its answer.

mod reduced_lcp;

use super::fast_kernels::sub_outer_lower;
use super::contact_cache::{CachedContact, ContactCache};
use super::lcp::{solve_lcp, LcpScratch};
use reduced_lcp::ReducedLcp;
use super::sparse_ldl::SparseLdl;
use super::step::StepBuffers;
use super::{IslandInput, IslandRows};
use crate::joints::{JointKind, Row};
use crate::math::mat3::mul0_331;
use crate::math::matrix::pad;

const NONE: u32 = u32::MAX;

/// Reusable buffers of the fast Step solver.
#[derive(Default)]
pub struct FastStepScratch {
    /// Per row: the λ the world's previous fast step found for the same
    /// contact (0 for other rows and new contacts), the reduced LCP's
    /// starting guess.
    warm: Vec<f64>,
    /// The contacts solved since the cache was last replaced.
    fresh: Vec<CachedContact>,
    /// Per row: J (body 1, body 2), M⁻¹·Jᵀ (body 1, body 2), bodies.
    j: Vec<[f64; 12]>,
    mj: Vec<[f64; 12]>,
    bodies: Vec<[u32; 2]>,
    rhs: Vec<f64>,
    /// A_rr (CFM/h included).
    diag: Vec<f64>,
    lambda: Vec<f64>,
    /// Row → index among the bilateral unknowns, or NONE.
    unknown: Vec<u32>,
    bilateral: Vec<u32>,
    bounded: Vec<u32>,
    /// Bilateral rows acting on each body: (unknown, side).
    on_body: Vec<Vec<(u32, u8)>>,
    /// v/h + M⁻¹·f per body.
    fc: Vec<[f64; 6]>,
    x: Vec<f64>,
    ldl: SparseLdl,
    /// Rows a friction row's findex names.
    targeted: Vec<bool>,
    /// Row → index among the bounded unknowns (bounded rows only).
    bpos: Vec<u32>,
    /// Bounded rows acting on each body: (bounded index, side).
    on_body_b: Vec<Vec<(u32, u8)>>,
    /// A_FB by bounded column: entries `afb[afb_start[i]..afb_start[i + 1]]`
    /// are (bilateral unknown, A value) of bounded row i.
    afb_start: Vec<u32>,
    afb: Vec<(u32, f64)>,
    /// Bounded rows coupled to a bilateral row (A_FB column not zero).
    cols: Vec<u32>,
    /// Z = L⁻¹·A_FB on those columns (nu × cols, row-major), Zᵀ·D⁻¹·Z by
    /// column position (lower triangle) followed by one padded row of Z,
    /// and per bilateral unknown how many leading columns of Z may be
    /// nonzero.
    y: Vec<f64>,
    t: Vec<f64>,
    width: Vec<u32>,
    /// Coupled columns keyed by (first nonzero row of A_FB, column).
    colkey: Vec<u64>,
    /// The reduced boxed LCP: S (lower triangle, row stride `pad(k)`),
    /// right-hand side, answer, bounds, friction indices among the bounded.
    schur: Vec<f64>,
    rb: Vec<f64>,
    xb: Vec<f64>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    findex: Vec<i32>,
    lcp: LcpScratch,
    reduced: ReducedLcp,
}

#[inline]
fn row_j(r: &Row) -> [f64; 12] {
    [r.j1l[0], r.j1l[1], r.j1l[2], r.j1a[0], r.j1a[1], r.j1a[2], r.j2l[0], r.j2l[1], r.j2l[2], r.j2a[0], r.j2a[1], r.j2a[2]]
}

#[inline]
fn dot6(a: &[f64], b: &[f64; 6]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5]
}

/// J_r · (per-body vectors `f`) over the row's bodies.
#[inline]
fn j_dot(j: &[f64; 12], bodies: [u32; 2], f: &[[f64; 6]]) -> f64 {
    let mut s = 0.0;
    if bodies[0] != NONE {
        s += dot6(&j[..6], &f[bodies[0] as usize]);
    }
    if bodies[1] != NONE {
        s += dot6(&j[6..], &f[bodies[1] as usize]);
    }
    s
}

impl FastStepScratch {
    /// The contacts solved since the world's cache was last replaced
    /// (`ContactCache::replace_from` empties it).
    pub fn fresh_contacts(&mut self) -> &mut Vec<CachedContact> {
        &mut self.fresh
    }
}

/// Solves the island's rows with the buffers `s`; fills
/// `buf.cforce`/`buf.has_cforce` (the exact Step's output) and the
/// feedback records as `step::solve_island` does. `contacts` holds the
/// world's previous fast step's contact λ (the starting guess).
pub fn solve_island(
    input: &IslandInput<'_>,
    rows: &IslandRows,
    buf: &mut StepBuffers,
    s: &mut FastStepScratch,
    contacts: &ContactCache,
) {
    let nb = input.bodies.len();
    let m = rows.rows.len();
    let recip = 1.0 / input.h;
    buf.cforce.clear();
    buf.cforce.resize(nb, [0.0; 6]);
    buf.has_cforce.clear();
    buf.has_cforce.resize(nb, false);
    if m == 0 {
        return;
    }

    // Rows: Jacobians, M⁻¹·Jᵀ, bodies.
    s.j.clear();
    s.mj.clear();
    s.bodies.clear();
    s.bodies.resize(m, [NONE; 2]);
    for slot in &rows.joints {
        for r in slot.row0..slot.row0 + slot.m {
            s.bodies[r] = [slot.b1.map_or(NONE, |b| b as u32), slot.b2.map_or(NONE, |b| b as u32)];
        }
    }
    for (r, row) in rows.rows.iter().enumerate() {
        let j = row_j(row);
        let mut mj = [0.0; 12];
        for side in 0..2 {
            let b = s.bodies[r][side];
            if b == NONE {
                continue;
            }
            let body = input.bodies[b as usize].get();
            let jj = &j[6 * side..6 * side + 6];
            for k in 0..3 {
                mj[6 * side + k] = body.inv_mass * jj[k];
            }
            let a = mul0_331(&input.inv_i[b as usize], &jj[3..6]);
            mj[6 * side + 3..6 * side + 6].copy_from_slice(&a);
        }
        s.j.push(j);
        s.mj.push(mj);
    }

    // rhs = c/h − J·(v/h + M⁻¹·f); diagonal of A.
    s.fc.clear();
    s.fc.resize(nb, [0.0; 6]);
    for (bi, &b) in input.bodies.iter().enumerate() {
        let b = b.get();
        let t = &mut s.fc[bi];
        for k in 0..3 {
            t[k] = b.facc[k] * b.inv_mass + b.lvel[k] * recip;
        }
        let a = mul0_331(&input.inv_i[bi], &b.tacc);
        for k in 0..3 {
            t[3 + k] = a[k] + b.avel[k] * recip;
        }
    }
    s.rhs.clear();
    s.diag.clear();
    for (r, row) in rows.rows.iter().enumerate() {
        s.rhs.push(row.c * recip - j_dot(&s.j[r], s.bodies[r], &s.fc));
        let mut d = row.cfm * recip;
        for side in 0..2 {
            if s.bodies[r][side] != NONE {
                d += dot6(&s.j[r][6 * side..6 * side + 6], s.mj[r][6 * side..6 * side + 6].try_into().unwrap());
            }
        }
        s.diag.push(d);
    }

    // Bilateral and bounded rows.
    s.unknown.clear();
    s.bilateral.clear();
    s.bounded.clear();
    // A row some friction row takes its bound from stays with the bounded
    // ones even if unbounded: the reduced LCP needs it among its unknowns.
    s.targeted.clear();
    s.targeted.resize(m, false);
    for row in &rows.rows {
        if row.findex >= 0 && (row.findex as usize) < m {
            s.targeted[row.findex as usize] = true;
        }
    }
    for (r, row) in rows.rows.iter().enumerate() {
        if row.findex < 0 && row.lo == f64::NEG_INFINITY && row.hi == f64::INFINITY && !s.targeted[r] {
            s.unknown.push(s.bilateral.len() as u32);
            s.bilateral.push(r as u32);
        } else {
            s.unknown.push(NONE);
            s.bounded.push(r as u32);
        }
    }

    // The bilateral block of A, assembled through the bodies it shares.
    let nu = s.bilateral.len();
    if nu > 0 {
        rows_on_bodies(&mut s.on_body, &s.bilateral, &s.bodies, nb);
        s.ldl.reset(s.bilateral.iter().map(|&r| s.diag[r as usize]));
        for list in s.on_body.iter().take(nb) {
            for (a, &(ua, sa)) in list.iter().enumerate() {
                let ra = s.bilateral[ua as usize] as usize;
                let ja: &[f64; 6] = s.j[ra][6 * sa as usize..6 * sa as usize + 6].try_into().unwrap();
                for &(ub, sb) in &list[a + 1..] {
                    if ua == ub {
                        continue;
                    }
                    let rb = s.bilateral[ub as usize] as usize;
                    let v = dot6(&s.mj[rb][6 * sb as usize..6 * sb as usize + 6], ja);
                    if v != 0.0 {
                        s.ldl.add(ua as usize, ub as usize, v);
                    }
                }
            }
        }
        s.ldl.factor();
    }

    s.lambda.clear();
    s.lambda.resize(m, 0.0);
    let k = s.bounded.len();
    // x0 = A_FF⁻¹·rhs_F: the whole answer when no row is bounded, and the
    // bilateral part of the reduced right-hand side otherwise.
    s.x.clear();
    s.x.extend(s.bilateral.iter().map(|&r| s.rhs[r as usize]));
    if nu > 0 {
        s.ldl.solve(&mut s.x);
    }
    if k > 0 {
        // The contacts' λ of the previous step start the reduced LCP (its
        // answer is exact either way; a near guess saves active-set
        // steps). The cache holds the whole world's contacts, filled in
        // island order, so the guess is the same at any thread count.
        s.warm.clear();
        s.warm.resize(m, 0.0);
        for js in &rows.joints {
            if let JointKind::Contact(c) = &js.joint.get().kind {
                if let Some(l) = contacts.lookup(c.geom.g1 as usize, c.geom.g2 as usize, &c.geom.pos) {
                    let n = js.m.min(3);
                    s.warm[js.row0..js.row0 + n].copy_from_slice(&l[..n]);
                }
            }
        }
        reduced_solve(rows, s);
    }
    for (u, &r) in s.bilateral.iter().enumerate() {
        s.lambda[r as usize] = s.x[u];
    }
    // This step's contacts, for the next one.
    for js in &rows.joints {
        if let JointKind::Contact(c) = &js.joint.get().kind {
            let mut l = [0.0; 3];
            let n = js.m.min(3);
            l[..n].copy_from_slice(&s.lambda[js.row0..js.row0 + n]);
            s.fresh.push(CachedContact::new(c.geom.g1 as usize, c.geom.g2 as usize, c.geom.pos, l));
        }
    }

    // Jᵀλ per body and the feedback, as the exact Step does.
    let lambda = std::mem::take(&mut s.lambda);
    super::step::constraint_forces(rows, &lambda, &mut buf.cforce, &mut buf.has_cforce);
    s.lambda = lambda;
}

/// The bounded rows' λ from the reduced boxed LCP, then the bilateral λ.
///
/// With F the bilateral rows and B the bounded ones, eliminating λ_F from
/// A·λ = rhs leaves S·λ_B = rhs_B − A_BF·A_FF⁻¹·rhs_F with the Schur
/// complement S = A_BB − A_BF·A_FF⁻¹·A_FB, under the same bounds and
/// friction indices. Its exact solution (Dantzig, as the exact Step) gives
/// the exact solution of the whole LCP, and λ_F = A_FF⁻¹·(rhs_F − A_FB·λ_B).
/// On entry `s.x` holds A_FF⁻¹·rhs_F; on return λ_F, and `s.lambda` the
/// bounded λ.
fn reduced_solve(rows: &IslandRows, s: &mut FastStepScratch) {
    let nu = s.bilateral.len();
    let k = s.bounded.len();
    let nb = s.fc.len();
    let m = rows.rows.len();
    s.bpos.clear();
    s.bpos.resize(m, NONE);
    for (i, &r) in s.bounded.iter().enumerate() {
        s.bpos[r as usize] = i as u32;
    }

    // A_FB, column by bounded row, through the bodies the rows share.
    s.afb_start.clear();
    s.afb.clear();
    for &r in &s.bounded {
        let r = r as usize;
        let start = s.afb.len();
        s.afb_start.push(start as u32);
        if nu == 0 {
            continue;
        }
        for side in 0..2 {
            let b = s.bodies[r][side];
            if b == NONE {
                continue;
            }
            let mjr: &[f64; 6] = s.mj[r][6 * side..6 * side + 6].try_into().unwrap();
            for &(u, su) in &s.on_body[b as usize] {
                let ru = s.bilateral[u as usize] as usize;
                let v = dot6(&s.j[ru][6 * su as usize..6 * su as usize + 6], mjr);
                if v == 0.0 {
                    continue;
                }
                match s.afb[start..].iter_mut().find(|e| e.0 == u) {
                    Some(e) => e.1 += v,
                    None => s.afb.push((u, v)),
                }
            }
        }
    }
    s.afb_start.push(s.afb.len() as u32);

    // A_BB (lower triangle) through the bodies the bounded rows share.
    let skip = pad(k);
    if s.schur.len() < k * skip {
        s.schur.resize(k * skip, 0.0);
    }
    for i in 0..k {
        let row = &mut s.schur[i * skip..i * skip + i + 1];
        row.fill(0.0);
        row[i] = s.diag[s.bounded[i] as usize];
    }
    rows_on_bodies(&mut s.on_body_b, &s.bounded, &s.bodies, nb);
    for list in s.on_body_b.iter().take(nb) {
        for (a, &(ia, sa)) in list.iter().enumerate() {
            let ra = s.bounded[ia as usize] as usize;
            let mja: &[f64; 6] = s.mj[ra][6 * sa as usize..6 * sa as usize + 6].try_into().unwrap();
            // Later entries have larger bounded indices (pushed in order).
            for &(ib, sb) in &list[a + 1..] {
                if ia == ib {
                    continue;
                }
                let rb = s.bounded[ib as usize] as usize;
                s.schur[ib as usize * skip + ia as usize] += dot6(&s.j[rb][6 * sb as usize..6 * sb as usize + 6], mja);
            }
        }
    }

    // S −= A_BF·A_FF⁻¹·A_FB, one bilateral solve per bounded column that
    // touches a bilateral row; and the reduced right-hand side.
    s.rb.clear();
    for (i, &r) in s.bounded.iter().enumerate() {
        let e = &s.afb[s.afb_start[i] as usize..s.afb_start[i + 1] as usize];
        s.rb.push(s.rhs[r as usize] - e.iter().map(|&(u, v)| v * s.x[u as usize]).sum::<f64>());
    }
    if nu > 0 {
        // With A_FF = L·D·Lᵀ, A_BF·A_FF⁻¹·A_FB = Zᵀ·D⁻¹·Z for
        // Z = L⁻¹·A_FB: one forward pass over the factor instead of a full
        // solve, and a symmetric product. Only the bounded columns coupled
        // to a bilateral row take part; they are ordered by their first
        // nonzero row, so that on the dense (natural order) factor row u of
        // Z is zero beyond the first `width[u]` columns and both passes
        // skip the zeros.
        // Keys (first row, column) are unique; computed once, then an
        // unstable sort of plain integers (no allocation).
        s.colkey.clear();
        for c in 0..k {
            let e = &s.afb[s.afb_start[c] as usize..s.afb_start[c + 1] as usize];
            if let Some(f) = e.iter().map(|e| e.0).min() {
                s.colkey.push((u64::from(f) << 32) | c as u64);
            }
        }
        s.colkey.sort_unstable();
        s.cols.clear();
        s.cols.extend(s.colkey.iter().map(|&key| key as u32));
        let w = s.cols.len();
        s.width.clear();
        s.width.resize(nu, 0);
        if s.ldl.is_dense() {
            for &key in &s.colkey {
                s.width[(key >> 32) as usize] += 1;
            }
            let mut acc = 0;
            for v in s.width.iter_mut() {
                acc += *v;
                *v = acc;
            }
        } else {
            s.width.fill(w as u32);
        }
        // Only each row's possibly nonzero prefix is ever read: zero that.
        if s.y.len() < nu * w {
            s.y.resize(nu * w, 0.0);
        }
        for (u, &wu) in s.width.iter().enumerate() {
            s.y[u * w..u * w + wu as usize].fill(0.0);
        }
        for (ci, &c) in s.cols.iter().enumerate() {
            for &(u, v) in &s.afb[s.afb_start[c as usize] as usize..s.afb_start[c as usize + 1] as usize] {
                s.y[u as usize * w + ci] = v;
            }
        }
        s.ldl.forward_many(&mut s.y, w, &s.width);
        // S −= Zᵀ·D⁻¹·Z = Σ_u z_u·z_uᵀ/D_u over Z's rows z_u (contiguous
        // in y): one vector update per nonzero of Z over its row's prefix
        // (a third of Z's prefix entries are zero, and dot products of Z's
        // columns touched them all and needed Z transposed). Summed by
        // column position first (P, lower triangle, stride w4), then added
        // to S at the columns' bounded indices.
        // (At least one group: w is 0 when no bounded row touches a
        // bilateral one, and rows of length 0 cannot be chunked.)
        let w4 = ((w + 3) & !3).max(4);
        // P has w4 rows: the padding rows are never written (z is zero there).
        if s.t.len() < w4 * w4 + w4 {
            s.t.resize(w4 * w4 + w4, 0.0);
        }
        let (p, zbuf) = s.t[..w4 * w4 + w4].split_at_mut(w4 * w4);
        for (bi, row) in p.chunks_exact_mut(w4).take(w).enumerate() {
            row[..(bi + 4) & !3].fill(0.0);
        }
        for (u, &d) in s.ldl.d().iter().enumerate() {
            let wu = s.width[u] as usize;
            if wu == 0 {
                continue;
            }
            // Row u's prefix, zero-padded to whole groups of four.
            let wu4 = (wu + 3) & !3;
            zbuf[..wu].copy_from_slice(&s.y[u * w..u * w + wu]);
            zbuf[wu..wu4].fill(0.0);
            sub_outer_lower(p, w4, 1.0 / d, &zbuf[..wu4]);
        }
        for (bi, &kb) in s.colkey.iter().enumerate() {
            let b = kb as u32;
            for (ci, &kc) in s.colkey[..=bi].iter().enumerate() {
                let c = kc as u32;
                let (hi, lo) = if b >= c { (b, c) } else { (c, b) };
                s.schur[hi as usize * skip + lo as usize] += p[bi * w4 + ci];
            }
        }
    }

    // The reduced boxed LCP, solved exactly: by the active-set solver, or
    // by Dantzig when that gives up (the matrix is left untouched for it).
    s.lo.clear();
    s.hi.clear();
    s.findex.clear();
    let mut friction = false;
    for &r in &s.bounded {
        let row = &rows.rows[r as usize];
        s.lo.push(row.lo);
        s.hi.push(row.hi);
        let f = if row.findex >= 0 && (row.findex as usize) < m { s.bpos[row.findex as usize] } else { NONE };
        friction |= f != NONE;
        s.findex.push(if f == NONE { -1 } else { f as i32 });
    }
    s.xb.clear();
    s.xb.extend(s.bounded.iter().map(|&r| s.warm[r as usize]));
    let solved = s.reduced.solve(k, &s.schur, skip, &s.rb, &s.lo, &s.hi, &s.findex, &mut s.xb, reduced_lcp::LIMITS);
    if !solved {
        s.xb.fill(0.0);
        solve_lcp(
            k,
            &mut s.schur,
            &mut s.xb,
            &mut s.rb,
            None,
            0,
            &mut s.lo,
            &mut s.hi,
            if friction { Some(&mut s.findex[..]) } else { None },
            &mut s.lcp,
        );
    }
    for (i, &r) in s.bounded.iter().enumerate() {
        s.lambda[r as usize] = s.xb[i];
    }

    // λ_F = A_FF⁻¹·(rhs_F − A_FB·λ_B).
    if nu > 0 {
        s.x.clear();
        s.x.extend(s.bilateral.iter().map(|&r| s.rhs[r as usize]));
        for (i, &l) in s.xb.iter().enumerate() {
            if l != 0.0 {
                for &(u, v) in &s.afb[s.afb_start[i] as usize..s.afb_start[i + 1] as usize] {
                    s.x[u as usize] -= v * l;
                }
            }
        }
        s.ldl.solve(&mut s.x);
    }
}

/// Lists, for each of the `nb` bodies, the rows of `rows` (by their index
/// in `rows`) acting on it and on which side; the lists are reused, so a
/// warm step does not allocate.
fn rows_on_bodies(on_body: &mut Vec<Vec<(u32, u8)>>, rows: &[u32], bodies: &[[u32; 2]], nb: usize) {
    if on_body.len() < nb {
        on_body.resize_with(nb, Vec::new);
    }
    for v in on_body.iter_mut().take(nb) {
        v.clear();
    }
    for (i, &r) in rows.iter().enumerate() {
        for side in 0..2 {
            let b = bodies[r as usize][side];
            if b != NONE {
                on_body[b as usize].push((i as u32, side as u8));
            }
        }
    }
}
