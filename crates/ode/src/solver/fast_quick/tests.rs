//! Unit tests of the fast QuickStep: the fill and the sweeps (portable,
//! AVX2, blocks, batches and singles) against each other and against the
//! row-by-row model.

use super::*;

/// xorshift64 values in [-1, 1).
fn uniform(state: &mut u64) -> f64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// Random Jacobians, scales, M⁻¹·Jᵀ angular parts and inverse masses
/// for every row and lane of `bk`.
/// `x` equals `reference` to rounding: the block sweep carries the
/// rows' `J·v` through the couplings instead of recomputing them from
/// the velocities, the same update in exact arithmetic.
fn assert_close(x: &[f64], reference: &[f64], what: &str) {
    let scale = reference.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for (i, (a, b)) in x.iter().zip(reference).enumerate() {
        assert!((a - b).abs() <= 1e-12 * scale, "{what}: element {i}: {a} against {b}");
    }
    assert_eq!(x.len(), reference.len(), "{what}");
}

/// Distinct dynamic bodies (of `nb`) for a block's lanes, shuffled;
/// lane l's body 1 on its dummy (`nb + l`) when `(case + l)` is a
/// multiple of `every[0]`, body 2 when of `every[1]`, and lane 3 a
/// padding lane (inert rows on the dummy) when `case` is a multiple of
/// `every[2]`.
fn random_lane_bodies(bk: &mut Block, r: &mut u64, nb: usize, case: usize, every: [usize; 3]) {
    let mut perm: Vec<u32> = (0..nb as u32).collect();
    for i in (1..perm.len()).rev() {
        let j = ((uniform(r) + 1.0) * 0.5 * (i + 1) as f64) as usize % (i + 1);
        perm.swap(i, j);
    }
    for lane in 0..4 {
        let dummy = nb as u32 + lane as u32;
        bk.b1[lane] = if (case + lane).is_multiple_of(every[0]) { dummy } else { perm[2 * lane] };
        bk.b2[lane] = if (case + lane).is_multiple_of(every[1]) { dummy } else { perm[2 * lane + 1] };
        if case.is_multiple_of(every[2]) && lane == 3 {
            clear_lane(bk, lane, nb as u32);
        }
    }
}

fn random_rows(bk: &mut Block, r: &mut u64) {
    for k in 0..3 {
        for c in 0..3 {
            for lane in 0..4 {
                lanes(&mut bk.d[k][c])[lane] = uniform(r);
                lanes(&mut bk.j1a[k][c])[lane] = uniform(r);
                lanes(&mut bk.j2a[k][c])[lane] = uniform(r);
                lanes(&mut bk.m1a[k][c])[lane] = uniform(r);
                lanes(&mut bk.m2a[k][c])[lane] = uniform(r);
            }
        }
    }
    for k in 0..3 {
        for lane in 0..4 {
            lanes(&mut bk.ad[k])[lane] = uniform(r).abs() + 0.1;
        }
    }
    for lane in 0..4 {
        lanes(&mut bk.im1)[lane] = uniform(r).abs();
        lanes(&mut bk.im2)[lane] = uniform(r).abs();
    }
}

/// The compact block row (body 2's linear Jacobian and both linear
/// M⁻¹·Jᵀ parts not stored) is the projected Gauss–Seidel update with
/// the full rows J₁ = (d·ad, j1a), J₂ = (−d·ad, j2a), M⁻¹Jᵀ = (m₁·d, m1a),
/// (m₂·(−d), m2a), friction rows then the normal row, each lane on its
/// own bodies: a plain scalar sweep over the full 12-element rows gives
/// the same values to rounding (the full rows are what the blocks held
/// before; the block carries `J·v` through `Block::a`).
#[test]
fn compact_block_sweep_is_the_full_row_update() {
    let mut rng = 0x0DDB_1A5E_5BAD_5EEDu64;
    for case in 0..500 {
        let r = &mut rng;
        let mut bk = Block::default();
        random_rows(&mut bk, r);
        couple(&mut bk);
        for k in 0..3 {
            for lane in 0..4 {
                lanes(&mut bk.rhs[k])[lane] = 5.0 * uniform(r);
                lanes(&mut bk.cfm[k])[lane] = uniform(r).abs() * 0.1;
                if k > 0 {
                    lanes(&mut bk.fcoef[k - 1])[lane] = uniform(r).abs();
                }
            }
        }
        for lane in 0..4 {
            lanes(&mut bk.lo0)[lane] = if case % 2 == 0 { 0.0 } else { -uniform(r).abs() };
            lanes(&mut bk.hi0)[lane] = if case % 3 == 0 { f64::INFINITY } else { uniform(r).abs() * 3.0 };
            bk.b1[lane] = 2 * lane as u32;
            bk.b2[lane] = 2 * lane as u32 + 1;
        }
        let mut lambda: Vec<f64> = (0..12).map(|_| uniform(r)).collect();
        let mut fc: Vec<[f64; 6]> = (0..8).map(|_| std::array::from_fn(|_| uniform(r))).collect();
        let (mut lambda_ref, mut fc_ref) = (lambda.clone(), fc.clone());
        let (mut lambda_fused, mut fc_fused) = (lambda.clone(), fc.clone());
        for _ in 0..2 {
            sweep_block::<false>(&bk, &mut lambda, 0, &mut fc);
            sweep_block::<true>(&bk, &mut lambda_fused, 0, &mut fc_fused);
            // Reference: lane by lane, rows 1, 2 then 0, full rows.
            for lane in 0..4 {
                let at = |v: DVec4| v.to_array()[lane];
                let normal = lambda_ref[lane].abs();
                for k in [1, 2, 0] {
                    let jl = bk.d[k].map(|d| at(d * bk.ad[k]));
                    let (j1a, j2a) = (bk.j1a[k].map(at), bk.j2a[k].map(at));
                    let j1 = [jl[0], jl[1], jl[2], j1a[0], j1a[1], j1a[2]];
                    let j2 = [-jl[0], -jl[1], -jl[2], j2a[0], j2a[1], j2a[2]];
                    let (m1, m2) = (lane_m(&bk, k, lane, 0), lane_m(&bk, k, lane, 1));
                    let (b1, b2) = (bk.b1[lane] as usize, bk.b2[lane] as usize);
                    let slot = 4 * k + lane;
                    let old = lambda_ref[slot];
                    let mut delta = at(bk.rhs[k]) - old * at(bk.cfm[k]);
                    for c in 0..6 {
                        delta -= j1[c] * fc_ref[b1][c] + j2[c] * fc_ref[b2][c];
                    }
                    let (lo, hi) = if k == 0 {
                        (at(bk.lo0), at(bk.hi0))
                    } else {
                        let f = at(bk.fcoef[k - 1]) * normal;
                        (-f, f)
                    };
                    let new = (old + delta).clamp(lo, hi);
                    lambda_ref[slot] = new;
                    for c in 0..6 {
                        fc_ref[b1][c] += m1[c] * (new - old);
                        fc_ref[b2][c] += m2[c] * (new - old);
                    }
                }
            }
        }
        assert_close(&lambda, &lambda_ref, &format!("λ, case {case}"));
        assert_close(fc.as_flattened(), fc_ref.as_flattened(), &format!("velocities, case {case}"));
        assert_close(&lambda_fused, &lambda_ref, &format!("fused λ, case {case}"));
        assert_close(fc_fused.as_flattened(), fc_ref.as_flattened(), &format!("fused velocities, case {case}"));
    }
}

/// The AVX2 block sweep gives the fused portable sweep's bits (λ and every
/// body velocity, dummies included) on random blocks: rows clamped at
/// both bounds, friction bounds of either sign of the normal λ, exact
/// zeros (λ at 0 meeting lo = −0), lanes on the static dummy or padding.
#[cfg(target_arch = "x86_64")]
#[test]
fn avx2_block_sweep_matches_portable_bits() {
    if !has_avx2_fma() {
        return;
    }
    let mut rng = 0x1234_5678_9ABC_DEF1u64;
    let nb = 9; // bodies 0..8, lane dummies 9..12
    for case in 0..2000 {
        let mut bk = Block::default();
        let r = &mut rng;
        random_rows(&mut bk, r);
        couple(&mut bk);
        for k in 0..3 {
            for lane in 0..4 {
                lanes(&mut bk.rhs[k])[lane] = 10.0 * uniform(r);
                lanes(&mut bk.cfm[k])[lane] = uniform(r).abs() * 0.1;
                if k > 0 {
                    lanes(&mut bk.fcoef[k - 1])[lane] = uniform(r).abs();
                }
            }
        }
        for lane in 0..4 {
            lanes(&mut bk.lo0)[lane] = if case % 3 == 0 { -0.0 } else { -uniform(r).abs() };
            lanes(&mut bk.hi0)[lane] = if case % 5 == 0 { 0.0 } else { uniform(r).abs() * 5.0 };
        }
        random_lane_bodies(&mut bk, r, nb, case, [7, 3, 11]);
        let mut lambda: Vec<f64> = (0..12).map(|i| if i % 4 == case % 4 { 0.0 } else { uniform(r) }).collect();
        let mut fc: Vec<[f64; 6]> = (0..nb + 4).map(|_| [0.0; 6]).collect();
        for f in fc.iter_mut().take(nb) {
            for v in f.iter_mut() {
                *v = uniform(r);
            }
        }
        let (mut lambda2, mut fc2) = (lambda.clone(), fc.clone());
        for _ in 0..3 {
            sweep_block::<true>(&bk, &mut lambda, 0, &mut fc);
            // SAFETY: AVX2 and FMA checked above; 12 λ; body indices < nb + 4.
            unsafe { avx2::sweep_block(&bk, lambda2.as_mut_ptr(), fc2.as_mut_ptr()) };
        }
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&lambda), bits(&lambda2), "λ, case {case}");
        assert_eq!(bits(fc.as_flattened()), bits(fc2.as_flattened()), "velocities, case {case}");
    }
}

/// The fill's AVX2 warm start of a block (`avx2::add_impulse_block`)
/// gives the bits of the portable `gather_block`, `add_impulse`,
/// `scatter_block` on every body, dummies included: lanes on their
/// dummy on one side or both (padding), λ changes of either sign and
/// exact zeros.
#[cfg(target_arch = "x86_64")]
#[test]
fn avx2_block_warm_start_matches_portable_bits() {
    if !has_avx2_fma() {
        return;
    }
    let mut rng = 0x5DEE_CE66_D1CE_4E5Bu64;
    let nb = 9; // bodies 0..8, lane dummies 9..12
    for case in 0..500 {
        let mut bk = Block::default();
        let r = &mut rng;
        random_rows(&mut bk, r);
        random_lane_bodies(&mut bk, r, nb, case, [5, 3, 7]);
        let dl = [0, 1, 2].map(|_| DVec4::from_array([0, 1, 2, 3].map(|l| if (case + l) % 6 == 0 { 0.0 } else { uniform(r) })));
        let fc: Vec<[f64; 6]> = (0..nb + 4).map(|_| std::array::from_fn(|_| uniform(r))).collect();
        let mut portable = fc.clone();
        let (mut v1, mut v2) = gather_block(&bk, &portable);
        add_impulse::<true>(&bk, &dl, &mut v1, &mut v2);
        scatter_block(&bk, &mut portable, &v1, &v2);
        let mut vector = fc;
        // SAFETY: AVX2 and FMA checked above; body indices < nb + 4.
        unsafe { avx2::add_impulse_block(&bk, &dl, vector.as_mut_ptr()) };
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(vector.as_flattened()), bits(portable.as_flattened()), "case {case}");
    }
}

/// A block filled from `Row`s (`fill_block_lane`) and swept, with the
/// scaled linear Jacobian formed in the sweep as `d·Ad`, gives (to
/// rounding; the AVX2 sweep bit for bit the fused portable one) the values
/// of the projected Gauss–Seidel update over the rows as the blocks
/// stored them before: every Jacobian scaled by `Ad = w / (J·M⁻¹·Jᵀ +
/// cfm/h)` at fill time, right-hand side and CFM scaled, M⁻¹·Jᵀ from the
/// inverse mass and inertia; friction rows (bounded by the normal λ)
/// then the normal row; one lane on the static environment.
#[test]
fn block_from_rows_sweeps_as_the_scaled_rows() {
    let mut r = 0x5EED_0FB1_0C5E_ED0F_u64;
    let nb = 8;
    let dummy = nb as u32;
    for case in 0..300 {
        let r = &mut r;
        let inv_mass: Vec<f64> = (0..nb).map(|_| 0.2 + uniform(r).abs()).collect();
        let inv_i: Vec<[f64; 12]> = (0..nb).map(|_| std::array::from_fn(|_| uniform(r))).collect();
        let mut tmp: Vec<[f64; 6]> = (0..nb).map(|_| std::array::from_fn(|_| 3.0 * uniform(r))).collect();
        tmp.push([0.0; 6]);
        let (hinv, w) = (100.0, 1.3);
        // Lane l: bodies 2l and 2l + 1; lane 3 on the static environment.
        let bodies: [[u32; 2]; 4] = std::array::from_fn(|l| [2 * l as u32, if l == 3 { dummy } else { 2 * l as u32 + 1 }]);
        let rows: Vec<[Row; 3]> = (0..4)
            .map(|l| {
                std::array::from_fn(|k| {
                    let j1l = [uniform(r), uniform(r), uniform(r)];
                    let no2 = bodies[l][1] == dummy;
                    Row {
                        j1l,
                        j1a: [uniform(r), uniform(r), uniform(r)],
                        j2l: if no2 { [0.0; 3] } else { j1l.map(|x| -x) },
                        j2a: if no2 { [0.0; 3] } else { [uniform(r), uniform(r), uniform(r)] },
                        c: uniform(r),
                        cfm: 1e-3 * uniform(r).abs(),
                        lo: if k == 0 { -0.1 * uniform(r).abs() } else { -0.6 },
                        hi: if k == 0 { f64::INFINITY } else { 0.6 + 0.1 * k as f64 },
                        findex: if k == 0 { -1 } else { 0 },
                    }
                })
            })
            .collect();
        let mut bk = Block::default();
        let mut lambda = vec![0.0; 12];
        for (lane, rs) in rows.iter().enumerate() {
            let f = LaneFill {
                lane,
                bodies: bodies[lane],
                lane_bodies: bodies[lane].map(|b| if b == dummy { dummy + lane as u32 } else { b }),
                hinv,
                w,
                prev: [0.0; 6],
                slot0: lane,
            };
            let side = |b: u32| (b != dummy).then(|| (inv_mass[b as usize], &inv_i[b as usize]));
            let sides = [side(f.bodies[0]), side(f.bodies[1])];
            fill_block_lane(&f, &sides, rs, &mut bk, &tmp, &mut lambda);
        }
        couple(&mut bk);
        // Start from random λ and velocities (the dummies at zero).
        let mut lambda: Vec<f64> = (0..12).map(|i| if (i + case) % 5 == 0 { 0.0 } else { uniform(r) }).collect();
        let mut fc: Vec<[f64; 6]> = (0..nb + 4).map(|b| if b < nb { std::array::from_fn(|_| uniform(r)) } else { [0.0; 6] }).collect();
        let (mut lambda_ref, mut fc_ref) = (lambda.clone(), fc.clone());
        // The rows as stored before: full, scaled at fill time.
        struct Scaled {
            j1: [f64; 6],
            j2: [f64; 6],
            m1: [f64; 6],
            m2: [f64; 6],
            rhs: f64,
            cfm: f64,
        }
        let scaled: Vec<Vec<Scaled>> = rows
            .iter()
            .enumerate()
            .map(|(lane, rs)| {
                rs.iter()
                    .map(|row| {
                        let j1 = [row.j1l[0], row.j1l[1], row.j1l[2], row.j1a[0], row.j1a[1], row.j1a[2]];
                        let j2 = [row.j2l[0], row.j2l[1], row.j2l[2], row.j2a[0], row.j2a[1], row.j2a[2]];
                        let m = |j: &[f64; 6], b: u32| {
                            if b == dummy {
                                return [0.0; 6];
                            }
                            let (im, a) = (inv_mass[b as usize], mul0_331(&inv_i[b as usize], &j[3..]));
                            [im * j[0], im * j[1], im * j[2], a[0], a[1], a[2]]
                        };
                        let (m1, m2) = (m(&j1, bodies[lane][0]), m(&j2, bodies[lane][1]));
                        let (t1, t2) = (&tmp[bodies[lane][0] as usize], &tmp[bodies[lane][1] as usize]);
                        let (mut jmj, mut jt) = (0.0, 0.0);
                        for c in 0..6 {
                            jmj += j1[c] * m1[c] + j2[c] * m2[c];
                            jt += j1[c] * t1[c] + j2[c] * t2[c];
                        }
                        let cfm = row.cfm * hinv;
                        let ad = w / (jmj + cfm);
                        Scaled { j1: j1.map(|x| x * ad), j2: j2.map(|x| x * ad), m1, m2, rhs: (row.c * hinv + jt) * ad, cfm: cfm * ad }
                    })
                    .collect()
            })
            .collect();
        #[cfg(target_arch = "x86_64")]
        let avx2 = has_avx2_fma();
        let (mut lambda2, mut fc2) = (lambda.clone(), fc.clone());
        let (mut lambda_fused, mut fc_fused) = (lambda.clone(), fc.clone());
        for _ in 0..2 {
            sweep_block::<false>(&bk, &mut lambda, 0, &mut fc);
            sweep_block::<true>(&bk, &mut lambda_fused, 0, &mut fc_fused);
            #[cfg(target_arch = "x86_64")]
            if avx2 {
                // SAFETY: AVX2 and FMA checked above; 12 λ; body indices < nb + 4.
                unsafe { avx2::sweep_block(&bk, lambda2.as_mut_ptr(), fc2.as_mut_ptr()) };
            }
            for lane in 0..4 {
                let b = bk.b1[lane] as usize;
                let b2 = bk.b2[lane] as usize;
                let normal = lambda_ref[lane].abs();
                for k in [1, 2, 0] {
                    let (s, row) = (&scaled[lane][k], &rows[lane][k]);
                    let slot = 4 * k + lane;
                    let old = lambda_ref[slot];
                    let mut delta = s.rhs - old * s.cfm;
                    for c in 0..6 {
                        delta -= s.j1[c] * fc_ref[b][c] + s.j2[c] * fc_ref[b2][c];
                    }
                    let (lo, hi) = if k == 0 { (row.lo, row.hi) } else { (-(row.hi.abs() * normal), row.hi.abs() * normal) };
                    let new = (old + delta).clamp(lo, hi);
                    lambda_ref[slot] = new;
                    for c in 0..6 {
                        fc_ref[b][c] += s.m1[c] * (new - old);
                        fc_ref[b2][c] += s.m2[c] * (new - old);
                    }
                }
            }
        }
        assert_close(&lambda, &lambda_ref, &format!("λ, case {case}"));
        assert_close(fc.as_flattened(), fc_ref.as_flattened(), &format!("velocities, case {case}"));
        assert_close(&lambda_fused, &lambda_ref, &format!("fused λ, case {case}"));
        assert_close(fc_fused.as_flattened(), fc_ref.as_flattened(), &format!("fused velocities, case {case}"));
        #[cfg(target_arch = "x86_64")]
        if avx2 {
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&lambda2), bits(&lambda_fused), "AVX2 λ, case {case}");
            assert_eq!(bits(fc2.as_flattened()), bits(fc_fused.as_flattened()), "AVX2 velocities, case {case}");
        }
    }
}

/// Every value of a block, as bits.
fn block_bits(bk: &Block) -> Vec<u64> {
    let mut v: Vec<DVec4> = Vec::new();
    for a in [&bk.d, &bk.j1a, &bk.j2a, &bk.m1a, &bk.m2a] {
        v.extend(a.iter().flatten());
    }
    v.extend(bk.ad);
    v.extend([bk.im1, bk.im2, bk.lo0, bk.hi0]);
    v.extend(bk.rhs.iter().chain(&bk.cfm).chain(&bk.fcoef));
    let mut out: Vec<u64> = v.iter().flat_map(|x| x.to_array().map(f64::to_bits)).collect();
    out.extend(bk.b1.iter().chain(&bk.b2).map(|&b| b as u64));
    out
}

/// `fill_contact_block` (four plain contacts at once) writes the same
/// bits into a block as `fill_contact_lane` does lane by lane: contacts
/// between two bodies, on one body (attached either way round), with a
/// body without inverse mass, with soft ERP/CFM, motion and slip.
#[test]
fn contact_block_fill_matches_lane_fill_bit_for_bit() {
    use crate::dynamics::body::create_body;
    use crate::dynamics::world::create_world;
    use crate::joints::contact::{ContactPoint, Surface};
    use crate::joints::object::{attach, create_joint, destroy_world};
    let mut r = 0x2545_f491_4f6c_dd1d_u64;
    let w = create_world();
    let nb = 5;
    let bodies: Vec<_> = (0..nb).map(|_| create_body(w)).collect();
    for (i, b) in bodies.iter().enumerate() {
        let b = b.get_mut();
        for c in 0..3 {
            b.pos[c] = 3.0 * uniform(&mut r);
        }
        b.inv_mass = if i == 4 { 0.0 } else { 1.5 + uniform(&mut r) };
    }
    let inv_i: Vec<[f64; 12]> = (0..nb).map(|_| std::array::from_fn(|_| uniform(&mut r))).collect();
    let mut tmp: Vec<[f64; 6]> = (0..nb).map(|_| std::array::from_fn(|_| 4.0 * uniform(&mut r))).collect();
    tmp.push([0.0; 6]);
    let approx = cmode::APPROX1_1 | cmode::APPROX1_2;
    // (body 1, body 2, mode, mu, mu2) per lane.
    let lanes_in = [
        (Some(0), Some(1), approx | cmode::MU2, 0.5, 0.7),
        (None, Some(2), approx | cmode::SOFT_CFM, 1.0, 0.0),
        (Some(3), Some(4), approx | cmode::MOTION1 | cmode::MOTION2 | cmode::SLIP1 | cmode::SLIP2, 0.3, 0.0),
        (Some(1), None, approx | cmode::SOFT_ERP | cmode::MOTION_N, 2.0, 0.0),
    ];
    let mut island = IslandRows::default();
    for &(b1, b2, mode, mu, mu2) in &lanes_in {
        let mut n = [uniform(&mut r), uniform(&mut r), uniform(&mut r)];
        let len = dot3(&n, &n).sqrt();
        n.iter_mut().for_each(|x| *x /= len);
        let surface = Surface {
            mode,
            mu,
            mu2,
            soft_erp: 0.3,
            soft_cfm: 1e-4,
            motion1: 0.1,
            motion2: -0.2,
            motion_n: 0.05,
            slip1: 1e-3,
            slip2: 2e-3,
            ..Surface::default()
        };
        let point = ContactPoint {
            pos: [uniform(&mut r), uniform(&mut r), uniform(&mut r)],
            normal: n,
            depth: 0.01 + 0.01 * uniform(&mut r),
            g1: std::ptr::null_mut(),
            g2: std::ptr::null_mut(),
            side1: 0,
            side2: 0,
        };
        let j = create_joint(w, None, JointKind::Contact(ContactJoint::new(surface, point, [0.0; 3])));
        attach(j, b1.map(|i: usize| bodies[i]), b2.map(|i: usize| bodies[i]));
        // Island indices after REVERSE normalisation (body 1 set
        // whenever any body is).
        let index = |b: Option<crate::dynamics::body::BodyRef>| b.map(|b| bodies.iter().position(|&x| x == b).unwrap());
        let head = &j.get().head;
        island.joints.push(JointSlot { joint: j, row0: 0, m: 3, nub: 1, b1: index(head.body[0]), b2: index(head.body[1]) });
    }
    let world = w.get();
    let input = IslandInput { world, bodies: &bodies, inv_i: &inv_i, h: 0.01 };
    let hinv = 1.0 / input.h;
    let mut four = Block::default();
    fill_contact_block::<false>(&input, &island, [0, 1, 2, 3], &mut four, &tmp, hinv, &mut [PlainLane::default(); 4]);
    // The AVX2 form gathers the bodies' data differently: the same
    // bits.
    #[cfg(target_arch = "x86_64")]
    if has_avx2_fma() {
        #[target_feature(enable = "avx2,fma")]
        unsafe fn fill_avx2(input: &IslandInput, island: &IslandRows, bk: &mut Block, tmp: &[[f64; 6]], hinv: f64) {
            fill_contact_block::<true>(input, island, [0, 1, 2, 3], bk, tmp, hinv, &mut [PlainLane::default(); 4]);
        }
        let mut avx = Block::default();
        // SAFETY: the processor has AVX2 and FMA (checked just above).
        unsafe { fill_avx2(&input, &island, &mut avx, &tmp, hinv) };
        assert_eq!(block_bits(&avx), block_bits(&four));
    }
    let mut one = Block::default();
    let dummy = nb as u32;
    let mut lambda = vec![0.0; 12];
    for (lane, slot) in island.joints.iter().enumerate() {
        let ix = |b: Option<usize>| b.map_or(dummy, |i| i as u32);
        let lane_body = |b: Option<usize>| {
            b.filter(|&i| bodies[i].get().inv_mass > 0.0).map_or(dummy + lane as u32, |i| i as u32)
        };
        let side = |b: u32| (b != dummy).then(|| (bodies[b as usize].get().inv_mass, &inv_i[b as usize]));
        let f = LaneFill {
            lane,
            bodies: [ix(slot.b1), ix(slot.b2)],
            lane_bodies: [lane_body(slot.b1), lane_body(slot.b2)],
            hinv,
            w: world.qs.w,
            prev: [0.0; 6],
            slot0: lane,
        };
        let sides = [side(f.bodies[0]), side(f.bodies[1])];
        let joint = slot.joint.get();
        let JointKind::Contact(cj) = &joint.kind else { unreachable!() };
        fill_contact_lane(&f, &sides, cj, &joint.head, 3, world, &mut one, &tmp, &mut lambda);
    }
    assert_eq!(block_bits(&four), block_bits(&one));
    // The case is not degenerate: every lane has rows.
    let nonzero = |v: &DVec4| v.to_array().iter().all(|&x| x != 0.0);
    assert!(four.j1a.iter().flatten().all(nonzero) && four.rhs.iter().all(nonzero));
    destroy_world(w);
}

/// An overflow row swept as a `Single` gives the bits of the same row
/// swept as lane 0 of a batch whose other lanes are padding (as the
/// overflow rows were stored before), the batch holding j·Ad and M⁻¹·Jᵀ
/// as the fill computes them: λ and every body's velocity, over
/// repeated sweeps, with both bounds, friction bounds scaled by
/// another slot's λ, exact zeros, a kinematic body (zero inverse mass
/// and inertia) and the static dummy on either side.
#[test]
fn single_sweep_matches_padded_batch_bits() {
    let mut rng = 0x0DDB_1A5E_5BAD_5EEDu64;
    let nb = 6; // bodies 0..5 (5 kinematic), lane dummies 6..9
    let dummy_slot = 4u32; // λ: the batch's 4 slots, the dummy slot, another row's λ
    let mut inv_mass: Vec<InvMass> = (0..nb)
        .map(|_| {
            let mut rec: InvMass = std::array::from_fn(|_| uniform(&mut rng));
            rec[3] = uniform(&mut rng).abs() + 0.1;
            rec
        })
        .collect();
    inv_mass[5] = [0.0; 12];
    inv_mass.resize(nb + 4, [0.0; 12]);
    for case in 0..3000u32 {
        let r = &mut rng;
        let (b1, b2) = if case % 5 == 0 { (nb as u32, 2) } else { (case % 3, 3 + case % 3) };
        let b2 = if case % 7 == 0 { nb as u32 } else { b2 };
        let (lo, hi, fcoef, fslot) = if case % 2 == 1 {
            (0.0, 0.0, uniform(r).abs(), 5)
        } else if case % 4 == 0 {
            (-0.0, uniform(r).abs() * 2.0, 0.0, dummy_slot)
        } else {
            (-uniform(r).abs(), if case % 8 == 2 { 0.0 } else { uniform(r).abs() }, 0.0, dummy_slot)
        };
        let single = Single {
            j1: std::array::from_fn(|_| uniform(r)),
            j2: std::array::from_fn(|_| uniform(r)),
            ad: uniform(r).abs() + 0.01,
            rhs: 5.0 * uniform(r),
            cfm: uniform(r).abs() * 0.1,
            lo,
            hi,
            fcoef,
            b1,
            b2,
            fslot,
            slot: 0,
        };
        // The fill's M⁻¹·Jᵀ: exact zeros for the dummy.
        let m_of = |b: u32, j: &[f64; 6]| {
            if b == nb as u32 {
                return [0.0; 6];
            }
            let rec = &inv_mass[b as usize];
            let mut m = [0.0; 6];
            for c in 0..3 {
                m[c] = rec[3] * j[c];
            }
            m[3..].copy_from_slice(&mul0_331(rec, &j[3..]));
            m
        };
        let mut bt = Batch { b1: [nb as u32; 4], b2: [nb as u32; 4], fslot: [dummy_slot; 4], ..Batch::default() };
        for c in 0..6 {
            lanes(&mut bt.j1[c])[0] = single.j1[c] * single.ad;
            lanes(&mut bt.j2[c])[0] = single.j2[c] * single.ad;
        }
        bt.m1[0] = m_of(b1, &single.j1);
        bt.m2[0] = m_of(b2, &single.j2);
        lanes(&mut bt.rhs)[0] = single.rhs;
        lanes(&mut bt.cfm)[0] = single.cfm;
        lanes(&mut bt.lo)[0] = lo;
        lanes(&mut bt.hi)[0] = hi;
        lanes(&mut bt.fcoef)[0] = fcoef;
        (bt.b1[0], bt.b2[0], bt.fslot[0]) = (b1, b2, fslot);
        let mut lambda = vec![0.0; 6];
        lambda[0] = if case % 3 == 0 { 0.0 } else { uniform(r) };
        lambda[5] = 3.0 * uniform(r);
        let mut fc: Vec<[f64; 6]> = (0..nb + 4).map(|_| [0.0; 6]).collect();
        for f in fc.iter_mut().take(nb) {
            *f = std::array::from_fn(|_| uniform(r));
        }
        let (mut lambda2, mut fc2) = (lambda.clone(), fc.clone());
        for _ in 0..3 {
            sweep_batch(&bt, &mut lambda, 0, &mut fc);
            sweep_single(&single, &inv_mass, &mut lambda2, &mut fc2);
        }
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&lambda), bits(&lambda2), "λ, case {case}");
        assert_eq!(bits(fc.as_flattened()), bits(fc2.as_flattened()), "velocities, case {case}");
    }
}

/// `Layout::code` maps batch numbers one to one onto stored batches
/// (in order, `batch_number` inverting it) then singles (group 0's
/// overflow, then group 1's), with or without either overflow range.
/// The four-wide plane space gives `plane_space`'s bits lane by lane,
/// on both sides of its branch (|n_z| against 1/√2) and on the axes.
#[test]
fn plane_space4_matches_plane_space_bits() {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let mut normals = vec![
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
        [1.0, 0.0, 0.0],
        [0.0, -1.0, 0.0],
        [h, 0.0, h],
        [0.0, h, -h],
        [-0.6, 0.0, 0.8],
        [0.8, 0.0, -0.6],
    ];
    let mut r = 0x2545_F491_4F6C_DD1D;
    while normals.len() < 400 {
        let v = [uniform(&mut r), uniform(&mut r), uniform(&mut r)];
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        if l > 1e-3 {
            normals.push(v.map(|x| x / l));
        }
    }
    for four in normals.chunks_exact(4) {
        let n = [0, 1, 2].map(|c| DVec4::from_array([0, 1, 2, 3].map(|l| four[l][c])));
        let (p4, q4) = plane_space4(&n);
        for (l, nl) in four.iter().enumerate() {
            let (p, q) = plane_space(nl);
            for c in 0..3 {
                assert_eq!(p4[c].to_array()[l].to_bits(), p[c].to_bits(), "p[{c}] of {nl:?}");
                assert_eq!(q4[c].to_array()[l].to_bits(), q[c].to_bits(), "q[{c}] of {nl:?}");
            }
        }
    }
}

#[test]
fn layout_codes_are_a_bijection_in_batch_order() {
    for (g0, n0, g1, n1) in [(3, 4, 2, 5), (0, 0, 5, 3), (4, 2, 3, 0), (6, 0, 0, 0), (0, 7, 0, 0)] {
        let total = g0 + n0 + g1 + n1;
        let l = Layout { ovf0: g0, n0, ovf1: if n1 > 0 { g0 + n0 + g1 } else { total }, nbatch: g0 + g1 };
        let codes: Vec<usize> = (0..total).map(|bi| l.code(bi)).collect();
        let mut sorted = codes.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..total).collect::<Vec<_>>());
        let batches: Vec<usize> = (0..total).filter(|&bi| codes[bi] < l.nbatch).collect();
        let ovf: Vec<usize> = (0..total).filter(|&bi| codes[bi] >= l.nbatch).collect();
        assert_eq!(ovf, (g0..g0 + n0).chain(g0 + n0 + g1..total).collect::<Vec<_>>());
        for (c, &bi) in batches.iter().enumerate() {
            assert_eq!((codes[bi], l.batch_number(c)), (c, bi));
        }
        for (k, &bi) in ovf.iter().enumerate() {
            assert_eq!(codes[bi], l.nbatch + k);
        }
    }
}

/// `shuffle_runs` permutes whole runs of `RUN` consecutive items: the
/// result is a permutation, every run is still consecutive ascending,
/// the partial tail run stays last, and the runs do move.
#[test]
fn run_shuffle_moves_whole_runs() {
    let n = 10 * RUN + 17;
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut rng = SHUFFLE_SEED;
    for _ in 0..3 {
        shuffle_runs(&mut order, &mut rng);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>());
        for run in order.chunks(RUN) {
            assert_eq!(run[0] as usize % RUN, 0);
            assert!(run.windows(2).all(|w| w[1] == w[0] + 1));
        }
        assert_eq!(order[10 * RUN], 10 * RUN as u32);
    }
    assert_ne!(order[..10 * RUN], (0..10 * RUN as u32).collect::<Vec<_>>()[..]);
}

/// M⁻¹·Jᵀ (unscaled) of row `k`, lane `lane`, body `side` (0 or 1), as
/// the rows were filled: the inverse mass times the linear Jacobian
/// (`−d` for body 2), then the stored angular part.
#[cfg(test)]
fn lane_m(bk: &Block, k: usize, lane: usize, side: usize) -> [f64; 6] {
    let l = lane & 3;
    let (im, ma) = if side == 0 { (bk.im1, &bk.m1a[k]) } else { (bk.im2, &bk.m2a[k]) };
    let im = im.to_array()[l];
    let d = bk.d[k].map(|v| if side == 0 { v.to_array()[l] } else { -v.to_array()[l] });
    [im * d[0], im * d[1], im * d[2], ma[0].to_array()[l], ma[1].to_array()[l], ma[2].to_array()[l]]
}

