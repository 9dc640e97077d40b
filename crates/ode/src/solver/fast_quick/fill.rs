//! Writing an island's rows into the fast QuickStep's lanes: each row
//! scaled by its `Ad` with its M⁻¹·Jᵀ, joints that fit a block lane
//! through `fill_block_lane`, contacts straight from their geometry
//! (`fill_contact_lane`, or four at a time with `fill_contact_block`),
//! and the warm start's λ and velocity change. The AVX2 copy
//! (`fill_lanes_avx2`) does the same operations in the same order.

use super::*;

/// What `fill_block_lane` and `fill_contact_lane` need of one block joint.
pub(super) struct LaneFill {
    pub(super) lane: usize,
    /// Island body indices, `dummy_body` for the static environment.
    pub(super) bodies: [u32; 2],
    /// The lane's body indices in the sweep (lane dummies for bodies
    /// without inverse mass).
    pub(super) lane_bodies: [u32; 2],
    pub(super) hinv: f64,
    pub(super) w: f64,
    pub(super) prev: [f64; 6],
    /// λ slot of row 0 (rows k at + 4k).
    pub(super) slot0: usize,
}

/// Inverse mass and world inverse inertia of each side's body (`None`:
/// the static environment).
pub(super) type Sides<'a> = [Option<(f64, &'a [f64; 12])>; 2];

/// One row of a block joint: Jacobian (linear then angular part per
/// body), right-hand side, CFM and bounds, as `info2` gives them.
pub(super) struct LaneRow {
    j1: [f64; 6],
    j2: [f64; 6],
    c: f64,
    cfm: f64,
    lo: f64,
    hi: f64,
}

/// Writes row `k` of a block joint into its lane, scaled as in `Batch`
/// (row 0 with its bounds, friction rows with fcoef = |hi|), and writes
/// its warm start λ (`fill_lanes` applies it to the velocities); the
/// arithmetic is the row batches', in the same order.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn fill_lane_row(
    f: &LaneFill,
    sides: &Sides<'_>,
    k: usize,
    row: &LaneRow,
    bk: &mut Block,
    tmp: &[[f64; 6]],
    lambda: &mut [f64],
) {
    let lane = f.lane & 3;
    let (t1, t2) = (&tmp[f.bodies[0] as usize], &tmp[f.bodies[1] as usize]);
    let (j1, j2) = (&row.j1, &row.j2);
    let mut m = [[0.0; 6]; 2];
    for (mm, (j, side)) in m.iter_mut().zip([(j1, sides[0]), (j2, sides[1])]) {
        if let Some((inv_mass, ii)) = side {
            for c in 0..3 {
                mm[c] = inv_mass * j[c];
            }
            mm[3..].copy_from_slice(&mul0_331(ii, &j[3..]));
        }
    }
    let [m1, m2] = m;
    let mut jmj = 0.0;
    let mut jt = 0.0;
    for c in 0..6 {
        jmj += j1[c] * m1[c] + j2[c] * m2[c];
        jt += j1[c] * t1[c] + j2[c] * t2[c];
    }
    let cfm = row.cfm * f.hinv;
    let ad = f.w / (jmj + cfm);
    for c in 0..3 {
        lanes(&mut bk.d[k][c])[lane] = j1[c];
        lanes(&mut bk.j1a[k][c])[lane] = j1[3 + c] * ad;
        lanes(&mut bk.j2a[k][c])[lane] = j2[3 + c] * ad;
        lanes(&mut bk.m1a[k][c])[lane] = m1[3 + c];
        lanes(&mut bk.m2a[k][c])[lane] = m2[3 + c];
    }
    lanes(&mut bk.im1)[lane] = sides[0].map_or(0.0, |s| s.0);
    lanes(&mut bk.im2)[lane] = sides[1].map_or(0.0, |s| s.0);
    lanes(&mut bk.ad[k])[lane] = ad;
    lanes(&mut bk.rhs[k])[lane] = (row.c * f.hinv + jt) * ad;
    lanes(&mut bk.cfm[k])[lane] = cfm * ad;
    if k == 0 {
        lanes(&mut bk.lo0)[lane] = row.lo;
        lanes(&mut bk.hi0)[lane] = row.hi;
    } else {
        lanes(&mut bk.fcoef[k - 1])[lane] = row.hi.abs();
    }
    // The warm start's velocity change follows, block by block
    // (`fill_lanes`).
    lambda[f.slot0 + 4 * k] = f.prev[k] * WARM_FACTOR;
}

/// Writes one block joint's rows into its lane (see `fill_lane_row`) and
/// makes its missing rows inert.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn fill_block_lane(
    f: &LaneFill,
    sides: &Sides<'_>,
    rows: &[Row],
    bk: &mut Block,
    tmp: &[[f64; 6]],
    lambda: &mut [f64],
) {
    for (k, row) in rows.iter().enumerate().take(3) {
        let lr = LaneRow {
            j1: [row.j1l[0], row.j1l[1], row.j1l[2], row.j1a[0], row.j1a[1], row.j1a[2]],
            j2: [row.j2l[0], row.j2l[1], row.j2l[2], row.j2a[0], row.j2a[1], row.j2a[2]],
            c: row.c,
            cfm: row.cfm,
            lo: row.lo,
            hi: row.hi,
        };
        fill_lane_row(f, sides, k, &lr, bk, tmp, lambda);
    }
    let lane = f.lane & 3;
    bk.b1[lane] = f.lane_bodies[0];
    bk.b2[lane] = f.lane_bodies[1];
    clear_rows(bk, lane, rows.len());
}

/// `fill_block_lane` for a contact `direct_contact` accepted, its `m`
/// rows computed here from the contact as `ContactJoint::info2` computes
/// them (same expressions, so the same bits), without a `Row` in memory.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn fill_contact_lane(
    f: &LaneFill,
    sides: &Sides<'_>,
    cj: &ContactJoint,
    head: &JointHead,
    m: usize,
    world: &crate::dynamics::world::World,
    bk: &mut Block,
    tmp: &[[f64; 6]],
    lambda: &mut [f64],
) {
    let s = &cj.surface;
    let mode = s.mode;
    let (Some(b0), b1) = (head.body[0].map(|b| b.get()), head.body[1].map(|b| b.get())) else {
        return; // excluded by `direct_contact`
    };
    // Row 0, the normal (see `ContactJoint::info2`).
    let (mut c, motion_n) = cj.correction_speed(f.hinv, world.erp, world);
    let apply_bounce = mode & cmode::BOUNCE != 0 && s.bounce_vel >= 0.0;
    let g = &cj.geom;
    let n = cj.normal(head);
    let c1 = [g.pos[0] - b0.pos[0], g.pos[1] - b0.pos[1], g.pos[2] - b0.pos[2]];
    let c2 = b1.map_or([0.0; 3], |b| [g.pos[0] - b.pos[0], g.pos[1] - b.pos[1], g.pos[2] - b.pos[2]]);
    // Jacobian of a row along unit direction `d` at the contact point.
    let jac = |d: &[f64; 3]| {
        let a1 = cross3(&c1, d);
        let j1 = [d[0], d[1], d[2], a1[0], a1[1], a1[2]];
        let j2 = match b1 {
            Some(_) => {
                let a2 = cross3(d, &c2);
                [-d[0], -d[1], -d[2], a2[0], a2[1], a2[2]]
            }
            None => [0.0; 6],
        };
        (j1, j2)
    };
    let (j1, j2) = jac(&n);
    if apply_bounce {
        let mut outgoing = 0.0;
        if let Some(b) = b1 {
            outgoing = dot3(&j2[3..], &b.avel) - dot3(&n, &b.lvel);
        }
        outgoing += dot3(&j1[3..], &b0.avel) + dot3(&n, &b0.lvel);
        let negated_outgoing = motion_n - outgoing;
        if negated_outgoing > s.bounce_vel {
            let newc = s.bounce * negated_outgoing + motion_n;
            if newc > c {
                c = newc;
            }
        }
    }
    let cfm = if mode & cmode::SOFT_CFM != 0 { s.soft_cfm } else { world.cfm };
    let row = LaneRow { j1, j2, c, cfm, lo: 0.0, hi: f64::INFINITY };
    fill_lane_row(f, sides, 0, &row, bk, tmp, lambda);
    if m > 1 {
        let (t1, t2) = if mode & cmode::FDIR1 != 0 { (cj.fdir1, cross3(&n, &cj.fdir1)) } else { plane_space(&n) };
        let mu = s.mu;
        let mu2 = if mode & cmode::MU2 != 0 { s.mu2 } else { mu };
        let friction = [
            (mu, t1, cmode::MOTION1, s.motion1, cmode::SLIP1, s.slip1),
            (mu2, t2, cmode::MOTION2, s.motion2, cmode::SLIP2, s.slip2),
        ];
        let mut k = 1;
        for (mu, t, motion_bit, motion, slip_bit, slip) in friction {
            if !(mu > 0.0) || k >= m {
                continue;
            }
            let (j1, j2) = jac(&t);
            let c = if mode & motion_bit != 0 { motion } else { 0.0 };
            let cfm = if mode & slip_bit != 0 { slip } else { world.cfm };
            let row = LaneRow { j1, j2, c, cfm, lo: -mu, hi: mu };
            fill_lane_row(f, sides, k, &row, bk, tmp, lambda);
            k += 1;
        }
    }
    let lane = f.lane & 3;
    bk.b1[lane] = f.lane_bodies[0];
    bk.b2[lane] = f.lane_bodies[1];
    clear_rows(bk, lane, m);
}

/// One plain contact's own values (see `fill_contact_block`): row
/// directions, arms, per-row right-hand side and CFM, friction
/// coefficients, and its island bodies (`ba`, and `bb` = nb without a
/// second body).
#[derive(Clone, Copy, Default)]
pub(super) struct PlainLane {
    n: [f64; 3],
    c1: [f64; 3],
    c2: [f64; 3],
    rc: [f64; 3],
    rcfm: [f64; 3],
    mu: [f64; 2],
    ba: usize,
    bb: usize,
    /// Inverse masses (0 without a second body).
    im1: f64,
    im2: f64,
}

/// `fill_contact_lane` for the four plain contacts (`FastScratch::plain`)
/// of one block at once, lane by lane the same operations in the same
/// order (so the same bits), four-wide; the contacts' own values (normal,
/// arms, tangents, bodies' data) are gathered lane by lane first. The
/// warm start is left to the caller. `js`: the lanes' joint slots.
///
/// `AVX2`: the caller runs with AVX2 enabled (only `fill_lanes_avx2`
/// passes true), so the bodies' inverse inertias and `tmp` rows are
/// gathered by `avx2::gather_inertia` and `avx2::gather_rows` (the same
/// values, fewer shuffles).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn fill_contact_block<const AVX2: bool>(
    input: &IslandInput,
    island: &IslandRows,
    js: [usize; 4],
    bk: &mut Block,
    tmp: &[[f64; 6]],
    hinv: f64,
    l: &mut [PlainLane; 4],
) {
    let world = input.world;
    let nb = input.bodies.len();
    let dummy_body = nb as u32;
    // Each lane's own values first (scalar stores, later read back as
    // scalars): filling per-lane columns of `[[f64; 4]; _]` arrays and
    // loading them as vectors stalled on store forwarding (four scalar
    // stores read by one 256-bit load) and needed the arrays zeroed.
    for (lane, pl) in l.iter_mut().enumerate() {
        let slot = &island.joints[js[lane]];
        let joint = slot.joint.get();
        let (JointKind::Contact(cj), Some(b0)) = (&joint.kind, joint.head.body[0]) else {
            unreachable!("plain contacts are attached contacts");
        };
        let (b0, b1) = (b0.get(), joint.head.body[1].map(|b| b.get()));
        let s = &cj.surface;
        let mode = s.mode;
        // As `fill_contact_lane` (no bounce).
        pl.rc[0] = cj.correction_speed(hinv, world.erp, world).0;
        pl.rc[1] = if mode & cmode::MOTION1 != 0 { s.motion1 } else { 0.0 };
        pl.rc[2] = if mode & cmode::MOTION2 != 0 { s.motion2 } else { 0.0 };
        pl.rcfm[0] = if mode & cmode::SOFT_CFM != 0 { s.soft_cfm } else { world.cfm };
        pl.rcfm[1] = if mode & cmode::SLIP1 != 0 { s.slip1 } else { world.cfm };
        pl.rcfm[2] = if mode & cmode::SLIP2 != 0 { s.slip2 } else { world.cfm };
        pl.mu[0] = s.mu;
        pl.mu[1] = if mode & cmode::MU2 != 0 { s.mu2 } else { s.mu };
        let g = &cj.geom;
        pl.n = cj.normal(&joint.head);
        pl.c1 = [g.pos[0] - b0.pos[0], g.pos[1] - b0.pos[1], g.pos[2] - b0.pos[2]];
        pl.c2 = b1.map_or([0.0; 3], |b| [g.pos[0] - b.pos[0], g.pos[1] - b.pos[1], g.pos[2] - b.pos[2]]);
        pl.ba = slot.b1.unwrap_or(nb);
        pl.bb = slot.b2.unwrap_or(nb);
        // Each body's inverse mass read once; a body without one is
        // swept as the lane's dummy (as `dynamic` in `solve_rows`).
        let im = |b: usize| if b < nb { input.bodies[b].get().inv_mass } else { 0.0 };
        (pl.im1, pl.im2) = (im(pl.ba), im(pl.bb));
        let lane_body = |b: usize, im: f64| if im > 0.0 { b as u32 } else { dummy_body + lane as u32 };
        bk.b1[lane] = lane_body(pl.ba, pl.im1);
        bk.b2[lane] = lane_body(pl.bb, pl.im2);
    }
    // A lane's four values as one vector (scalar loads and shuffles).
    macro_rules! v4 {
        (|$x:ident| $e:expr) => {{
            let f = |$x: &PlainLane| $e;
            DVec4::new(f(&l[0]), f(&l[1]), f(&l[2]), f(&l[3]))
        }};
    }
    let v = DVec4::from_array;
    let c1 = [v4!(|x| x.c1[0]), v4!(|x| x.c1[1]), v4!(|x| x.c1[2])];
    let c2 = [v4!(|x| x.c2[0]), v4!(|x| x.c2[1]), v4!(|x| x.c2[2])];
    // Body 2 absent: inverse mass and inertia 0 (as `fill_contact_lane`'s
    // `None` side gives zero products).
    const NO_INERTIA: [f64; 12] = [0.0; 12];
    let has2 = l.map(|x| x.bb < nb);
    let (im1, im2) = (v4!(|x| x.im1), v4!(|x| x.im2));
    let ii1p: [&[f64; 12]; 4] = std::array::from_fn(|k| &input.inv_i[l[k].ba]);
    let ii2p: [&[f64; 12]; 4] = std::array::from_fn(|k| if has2[k] { &input.inv_i[l[k].bb] } else { &NO_INERTIA });
    let mut vii1 = [DVec4::ZERO; 9];
    let mut vii2 = [DVec4::ZERO; 9];
    let mut tt1 = [DVec4::ZERO; 6];
    let mut tt2 = [DVec4::ZERO; 6];
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        let (ba, bb) = (l.map(|x| x.ba), l.map(|x| x.bb));
        assert!(ba.iter().chain(&bb).all(|&b| b < tmp.len()));
        // SAFETY: AVX2 is enabled (see above); every index is inside
        // `tmp` (asserted) and every pointer is a whole matrix.
        unsafe {
            vii1 = avx2::gather_inertia(ii1p);
            vii2 = avx2::gather_inertia(ii2p);
            tt1 = avx2::gather_rows(tmp.as_ptr(), ba);
            tt2 = avx2::gather_rows(tmp.as_ptr(), bb);
        }
    }
    if !(cfg!(target_arch = "x86_64") && AVX2) {
        for r in 0..3 {
            for c in 0..3 {
                let i = 4 * r + c;
                vii1[3 * r + c] = DVec4::new(ii1p[0][i], ii1p[1][i], ii1p[2][i], ii1p[3][i]);
                vii2[3 * r + c] = DVec4::new(ii2p[0][i], ii2p[1][i], ii2p[2][i], ii2p[3][i]);
            }
        }
        for c in 0..6 {
            tt1[c] = v4!(|x| tmp[x.ba][c]);
            tt2[c] = v4!(|x| tmp[x.bb][c]);
        }
    }
    // Lanes without a second body: all-ones bits where there is one.
    let keep2 = v(has2.map(|h| if h { f64::from_bits(u64::MAX) } else { 0.0 }));
    let and = |x: DVec4, m: DVec4| v([0, 1, 2, 3].map(|l| f64::from_bits(x.to_array()[l].to_bits() & m.to_array()[l].to_bits())));
    #[inline(always)]
    fn cross(a: &[DVec4; 3], b: &[DVec4; 3]) -> [DVec4; 3] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
    // `mul0_331` lane-wise: row r of the inverse inertia times (x, y, z).
    #[inline(always)]
    fn mul(ii: &[DVec4; 9], x: DVec4, y: DVec4, z: DVec4) -> [DVec4; 3] {
        [
            ii[0] * x + ii[1] * y + ii[2] * z,
            ii[3] * x + ii[4] * y + ii[5] * z,
            ii[6] * x + ii[7] * y + ii[8] * z,
        ]
    }
    let w = DVec4::splat(input.world.qs.w);
    // Lanes without a second body have im2 = 0 (see above).
    (bk.im1, bk.im2) = (im1, im2);
    let n = [v4!(|x| x.n[0]), v4!(|x| x.n[1]), v4!(|x| x.n[2])];
    let (t1, t2) = plane_space4(&n);
    let dirs = [n, t1, t2];
    for (k, d) in dirs.iter().enumerate() {
        let a1 = cross(&c1, d);
        let a2 = cross(d, &c2);
        let j1 = [d[0], d[1], d[2], a1[0], a1[1], a1[2]];
        let j2 = [and(-d[0], keep2), and(-d[1], keep2), and(-d[2], keep2), and(a2[0], keep2), and(a2[1], keep2), and(a2[2], keep2)];
        let (r1, r2) = (mul(&vii1, j1[3], j1[4], j1[5]), mul(&vii2, j2[3], j2[4], j2[5]));
        let m1 = [im1 * j1[0], im1 * j1[1], im1 * j1[2], r1[0], r1[1], r1[2]];
        let m2 = [im2 * j2[0], im2 * j2[1], im2 * j2[2], r2[0], r2[1], r2[2]];
        let mut jmj = DVec4::ZERO;
        let mut jt = DVec4::ZERO;
        for c in 0..6 {
            jmj += j1[c] * m1[c] + j2[c] * m2[c];
            jt += j1[c] * tt1[c] + j2[c] * tt2[c];
        }
        let cfm = v4!(|x| x.rcfm[k]) * hinv;
        let ad = w / (jmj + cfm);
        for c in 0..3 {
            bk.d[k][c] = d[c];
            bk.j1a[k][c] = j1[3 + c] * ad;
            bk.j2a[k][c] = j2[3 + c] * ad;
            bk.m1a[k][c] = m1[3 + c];
            bk.m2a[k][c] = m2[3 + c];
        }
        bk.ad[k] = ad;
        bk.rhs[k] = (v4!(|x| x.rc[k]) * hinv + jt) * ad;
        bk.cfm[k] = cfm * ad;
        if k == 0 {
            bk.lo0 = DVec4::ZERO;
            bk.hi0 = DVec4::INFINITY;
        } else {
            bk.fcoef[k - 1] = v4!(|x| x.mu[k - 1]).abs();
        }
    }
}

/// `plane_space` of four unit normals, lane by lane the same operations
/// (both branches formed, each lane taking its own): the same bits
/// without a data-dependent branch and a scalar square root and division
/// per lane.
#[inline(always)]
pub(super) fn plane_space4(n: &[DVec4; 3]) -> ([DVec4; 3], [DVec4; 3]) {
    let yz = n[2].abs().cmpgt(DVec4::splat(std::f64::consts::FRAC_1_SQRT_2));
    let a = DVec4::select(yz, n[1] * n[1] + n[2] * n[2], n[0] * n[0] + n[1] * n[1]);
    // glam's DVec4 has no square root; this compiles to one vsqrtpd.
    let k = DVec4::ONE / DVec4::from_array(a.to_array().map(f64::sqrt));
    let zero = DVec4::ZERO;
    let p = [
        DVec4::select(yz, zero, -n[1] * k),
        DVec4::select(yz, -n[2] * k, n[0] * k),
        DVec4::select(yz, n[1] * k, zero),
    ];
    let q = [
        DVec4::select(yz, a * k, -n[2] * p[1]),
        DVec4::select(yz, -n[0] * p[2], n[2] * p[0]),
        DVec4::select(yz, n[0] * p[1], a * k),
    ];
    (p, q)
}

/// How many blocks ahead `fill_lanes` prefetches the joints of.
#[cfg(target_arch = "x86_64")]
pub(super) const PREFETCH_BLOCKS: usize = 2;

/// Fills every joint's rows into its batch lanes or block lane, scaled,
/// with its warm start applied to `lambda` and `fc` (see `solve_rows`).
/// Compiled a second time for AVX2 and FMA (`fill_lanes_avx2`), where the
/// six-wide loops take 4-wide vectors; both do the same operations, but
/// for the blocks' warm start, fused only in the AVX2 copy (see `fma4`).
///
/// `AVX2`: the caller runs with AVX2 enabled (only `fill_lanes_avx2`
/// passes true), so the warm start moves the blocks' velocities with
/// `avx2::gather`/`scatter`.
#[inline(always)]
pub(super) fn fill_lanes<const AVX2: bool>(input: &IslandInput, island: &IslandRows, s: &mut FastScratch, cache: &ContactCache, block_base: usize) {
    let rows = &island.rows;
    let dummy_body = input.bodies.len() as u32;
    let dummy_slot = (block_base - 1) as u32;
    let hinv = 1.0 / input.h;
    let w = input.world.qs.w;
    let dynamic = |b: Option<usize>| b.filter(|&i| input.bodies[i].get().inv_mass > 0.0);
    // The last geom pair looked up and its chain in the contact cache.
    let mut last_pair: Option<((usize, usize), u32)> = None;
    // `fill_contact_block`'s per-lane values, every field rewritten per
    // block (a fresh default array cost a memset per block).
    let mut plain_lanes = [PlainLane::default(); 4];
    for (bi, &v) in s.vec_block.iter().enumerate() {
        // The blocks take their joints in colour order, scattered over
        // the joint pool (a few MB in the pyramid): fetch the next
        // blocks' joints early instead of stalling on each.
        #[cfg(target_arch = "x86_64")]
        if let Some(next) = s.block_joint.get(4 * (bi + PREFETCH_BLOCKS)..4 * (bi + PREFETCH_BLOCKS) + 4) {
            for &j in next {
                if let Some(slot) = island.joints.get(j as usize) {
                    crate::joints::prefetch(slot.joint.get());
                }
            }
        }
        if v {
            let js = std::array::from_fn(|l| s.block_joint[4 * bi + l] as usize);
            fill_contact_block::<AVX2>(input, island, js, &mut s.blocks[bi], &s.tmp, hinv, &mut plain_lanes);
        }
    }
    for (j, slot) in island.joints.iter().enumerate() {
        let b1 = slot.b1.map_or(dummy_body, |i| i as u32);
        let b2 = slot.b2.map_or(dummy_body, |i| i as u32);
        let joint = slot.joint.get();
        let prev = match &joint.kind {
            JointKind::Contact(c) => {
                let g = &c.geom;
                let pair = (g.g1 as usize, g.g2 as usize);
                let head = match last_pair {
                    Some((p, head)) if p == pair => head,
                    _ => cache.chain(pair.0, pair.1),
                };
                last_pair = Some((pair, head));
                let l = cache.lookup_in(head, pair.0, pair.1, &g.pos).unwrap_or_default();
                [l[0], l[1], l[2], 0.0, 0.0, 0.0]
            }
            _ => joint.head.lambda,
        };
        if s.is_block[j] && s.vec_block[s.block_pos[j] as usize / 4] {
            // Filled by `fill_contact_block`; its warm start λ here, their
            // velocity change below, block by block (as `fill_lane_row`).
            let pos = s.block_pos[j] as usize;
            let slot0 = block_base + 12 * (pos / 4) + pos % 4;
            for k in 0..3 {
                s.lambda[slot0 + 4 * k] = prev[k] * WARM_FACTOR;
            }
            continue;
        }
        if s.is_block[j] {
            let pos = s.block_pos[j] as usize;
            let side = |b: u32| {
                (b != dummy_body).then(|| (input.bodies[b as usize].get().inv_mass, &input.inv_i[b as usize]))
            };
            let lane = pos % 4;
            let lane_body = |b: Option<usize>| dynamic(b).map_or(dummy_body + lane as u32, |i| i as u32);
            let lf = LaneFill {
                lane,
                bodies: [b1, b2],
                lane_bodies: [lane_body(slot.b1), lane_body(slot.b2)],
                hinv,
                w,
                prev,
                slot0: block_base + 12 * (pos / 4) + lane,
            };
            let sides = [side(b1), side(b2)];
            let bk = &mut s.blocks[pos / 4];
            match &joint.kind {
                JointKind::Contact(c) if s.direct[j] => {
                    let world = input.world;
                    fill_contact_lane(&lf, &sides, c, &joint.head, slot.m, world, bk, &s.tmp, &mut s.lambda)
                }
                _ => {
                    let rs = &rows[slot.row0..slot.row0 + slot.m];
                    fill_block_lane(&lf, &sides, rs, bk, &s.tmp, &mut s.lambda)
                }
            }
            continue;
        }
        for (k, row) in rows[slot.row0..slot.row0 + slot.m].iter().enumerate() {
            let r = slot.row0 + k;
            let sl = s.slot[r] as usize;
            let (bi, lane) = (sl / 4, sl % 4);
            let j1 = [row.j1l[0], row.j1l[1], row.j1l[2], row.j1a[0], row.j1a[1], row.j1a[2]];
            let j2 = [row.j2l[0], row.j2l[1], row.j2l[2], row.j2a[0], row.j2a[1], row.j2a[2]];
            let mut m1 = [0.0; 6];
            let mut m2 = [0.0; 6];
            for (mm, j, b) in [(&mut m1, &j1, b1), (&mut m2, &j2, b2)] {
                if b != dummy_body {
                    let body = input.bodies[b as usize].get();
                    for c in 0..3 {
                        mm[c] = body.inv_mass * j[c];
                    }
                    mm[3..].copy_from_slice(&mul0_331(&input.inv_i[b as usize], &j[3..]));
                }
            }
            let (t1, t2) = (&s.tmp[b1 as usize], &s.tmp[b2 as usize]);
            let mut jmj = 0.0;
            let mut jt = 0.0;
            for c in 0..6 {
                jmj += j1[c] * m1[c] + j2[c] * m2[c];
                jt += j1[c] * t1[c] + j2[c] * t2[c];
            }
            let cfm = row.cfm * hinv;
            let ad = w / (jmj + cfm);
            // Each lane has its own dummy body, so that lanes acting on the
            // static environment do not chain through one memory cell.
            let lane_body = |b: u32| if b == dummy_body { dummy_body + lane as u32 } else { b };
            let code = s.layout.code(bi);
            if code >= s.layout.nbatch {
                // An overflow row: its batch's lane 0 (see `Single`).
                let (fcoef, fslot, lo, hi) = if row.findex != -1 {
                    (row.hi.abs(), s.slot[row.findex as usize], 0.0, 0.0)
                } else {
                    (0.0, dummy_slot, row.lo, row.hi)
                };
                s.singles[code - s.layout.nbatch] = Single {
                    j1,
                    j2,
                    ad,
                    rhs: (row.c * hinv + jt) * ad,
                    cfm: cfm * ad,
                    lo,
                    hi,
                    fcoef,
                    b1: lane_body(b1),
                    b2: lane_body(b2),
                    fslot,
                    slot: sl as u32,
                };
            } else {
                let bt = &mut s.batches[code];
                for c in 0..6 {
                    lanes(&mut bt.j1[c])[lane & 3] = j1[c] * ad;
                    lanes(&mut bt.j2[c])[lane & 3] = j2[c] * ad;
                    bt.m1[lane][c] = m1[c];
                    bt.m2[lane][c] = m2[c];
                }
                lanes(&mut bt.rhs)[lane & 3] = (row.c * hinv + jt) * ad;
                lanes(&mut bt.cfm)[lane & 3] = cfm * ad;
                bt.b1[lane] = lane_body(b1);
                bt.b2[lane] = lane_body(b2);
                if row.findex != -1 {
                    lanes(&mut bt.fcoef)[lane & 3] = row.hi.abs();
                    bt.fslot[lane] = s.slot[row.findex as usize];
                } else {
                    lanes(&mut bt.lo)[lane & 3] = row.lo;
                    lanes(&mut bt.hi)[lane & 3] = row.hi;
                }
            }
            if prev[k] != 0.0 {
                let l = prev[k] * WARM_FACTOR;
                s.lambda[sl] = l;
                for (b, mm) in [(b1, &m1), (b2, &m2)] {
                    let f = &mut s.fc[b as usize];
                    for c in 0..6 {
                        f[c] += mm[c] * l;
                    }
                }
            }
        }
    }
    // The warm start of the blocks: the velocity change of their λ, four
    // lanes at once (as a sweep applies its λ changes; the lanes' dynamic
    // bodies are distinct), after the other joints', whichever way the
    // blocks were filled (so a contact's bits do not depend on the path).
    for bi in 0..s.vec_block.len() {
        let slot0 = block_base + 12 * bi;
        let l = &s.lambda[slot0..slot0 + 12];
        if l.iter().any(|&x| x != 0.0) {
            let dl = [0, 1, 2].map(|k| DVec4::from_slice(&l[4 * k..]));
            let bk = &s.blocks[bi];
            #[cfg(target_arch = "x86_64")]
            if AVX2 {
                debug_assert!(bk.b1.iter().chain(&bk.b2).all(|&b| (b as usize) < s.fc.len()));
                // SAFETY: AVX2 and FMA are enabled (see above); the body indices
                // are in range by construction in `solve_rows`.
                unsafe { avx2::add_impulse_block(bk, &dl, s.fc.as_mut_ptr()) };
                continue;
            }
            let (mut v1, mut v2) = gather_block(bk, &s.fc);
            add_impulse::<false>(bk, &dl, &mut v1, &mut v2);
            scatter_block(bk, &mut s.fc, &v1, &v2);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
pub(super) unsafe fn fill_lanes_avx2(input: &IslandInput, island: &IslandRows, s: &mut FastScratch, cache: &ContactCache, block_base: usize) {
    fill_lanes::<true>(input, island, s, cache, block_base);
}

/// Makes rows `from..3` of a block lane inert (zero Jacobian, right-hand
/// side, bounds).
pub(super) fn clear_rows(bk: &mut Block, lane: usize, from: usize) {
    let lane = lane & 3;
    for k in from..3 {
        for c in 0..3 {
            lanes(&mut bk.d[k][c])[lane] = 0.0;
            lanes(&mut bk.j1a[k][c])[lane] = 0.0;
            lanes(&mut bk.j2a[k][c])[lane] = 0.0;
            lanes(&mut bk.m1a[k][c])[lane] = 0.0;
            lanes(&mut bk.m2a[k][c])[lane] = 0.0;
        }
        lanes(&mut bk.ad[k])[lane] = 0.0;
        lanes(&mut bk.rhs[k])[lane] = 0.0;
        lanes(&mut bk.cfm[k])[lane] = 0.0;
        if k > 0 {
            lanes(&mut bk.fcoef[k - 1])[lane] = 0.0;
        }
    }
}

/// Makes a whole block lane inert (see `clear_rows`) and points its bodies
/// at the lane's dummy (`dummy_body + lane`).
pub(super) fn clear_lane(bk: &mut Block, lane: usize, dummy_body: u32) {
    clear_rows(bk, lane, 0);
    bk.im1.as_mut()[lane & 3] = 0.0;
    bk.im2.as_mut()[lane & 3] = 0.0;
    bk.lo0.as_mut()[lane & 3] = 0.0;
    bk.hi0.as_mut()[lane & 3] = 0.0;
    bk.b1[lane & 3] = dummy_body + lane as u32;
    bk.b2[lane & 3] = dummy_body + lane as u32;
}

/// Fills `bk.a` from the block's rows: `Ad_k·J_k·M⁻¹·J_jᵀ` with the
/// scaled Jacobian of row k and the unscaled M⁻¹·Jᵀ of row j as the sweep
/// applies them (linear parts `d·Ad` and `−d·Ad` against `im·d` and
/// `−im·d`). Inert rows and lanes give zero.
pub(super) fn couple(bk: &mut Block) {
    for (a, &(k, j)) in bk.a.iter_mut().zip(&COUPLED) {
        let dd = (bk.d[k][0] * bk.d[j][0] + bk.d[k][1] * bk.d[j][1]) + bk.d[k][2] * bk.d[j][2];
        let mut x = bk.ad[k] * (bk.im1 * dd + bk.im2 * dd);
        for c in 0..3 {
            x += bk.j1a[k][c] * bk.m1a[j][c] + bk.j2a[k][c] * bk.m2a[j][c];
        }
        *a = x;
    }
}

