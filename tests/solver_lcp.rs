//! The Dantzig BLCP solver (`solver::lcp::solve_lcp`) on small random
//! problems, checked against brute force (every assignment of each index
//! to lower bound / upper bound / free, solved exactly, the valid one kept;
//! for a positive definite A the solution is unique) and against the
//! complementarity conditions, including friction rows (findex).
use ode::math::matrix::pad;
use ode::solver::lcp::{solve_lcp, LcpScratch, LcpStatus};

/// Deterministic xorshift64 generator, uniform in [0, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn sym(&mut self) -> f64 {
        2.0 * self.next() - 1.0
    }
    fn below(&mut self, n: usize) -> usize {
        ((self.next() * n as f64) as usize).min(n - 1)
    }
}

/// A random symmetric positive definite n×n matrix (dense, n×n).
fn spd(rng: &mut Rng, n: usize) -> Vec<f64> {
    let g: Vec<f64> = (0..n * n).map(|_| rng.sym()).collect();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0;
            for k in 0..n {
                s += g[i * n + k] * g[j * n + k];
            }
            a[i * n + j] = s + if i == j { 0.1 } else { 0.0 };
        }
    }
    a
}

/// Padded copy with the upper triangle poisoned (the solver must read only
/// the lower triangle).
fn padded(a: &[f64], n: usize) -> Vec<f64> {
    let s = pad(n);
    let mut p = vec![f64::NAN; n * s];
    for i in 0..n {
        for j in 0..=i {
            p[i * s + j] = a[i * n + j];
        }
    }
    p
}

fn residual(a: &[f64], n: usize, x: &[f64], b: &[f64]) -> Vec<f64> {
    (0..n).map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum::<f64>() - b[i]).collect()
}

/// Checks lo ≤ x ≤ hi and the complementarity of w = A·x − b.
fn check_conditions(a: &[f64], n: usize, x: &[f64], b: &[f64], lo: &[f64], hi: &[f64], tol: f64) -> Result<(), String> {
    let w = residual(a, n, x, b);
    let scale = 1.0 + x.iter().chain(b.iter()).fold(0.0f64, |m, v| m.max(v.abs()));
    let t = tol * scale;
    for i in 0..n {
        if x[i] < lo[i] - t || x[i] > hi[i] + t {
            return Err(format!("x[{i}] = {} outside [{}, {}]", x[i], lo[i], hi[i]));
        }
        let at_lo = lo[i].is_finite() && (x[i] - lo[i]).abs() <= t;
        let at_hi = hi[i].is_finite() && (x[i] - hi[i]).abs() <= t;
        let ok = w[i].abs() <= t || (at_lo && w[i] >= -t) || (at_hi && w[i] <= t);
        if !ok {
            return Err(format!("index {i}: x = {} in [{}, {}] but w = {}", x[i], lo[i], hi[i], w[i]));
        }
    }
    Ok(())
}

/// Solves the dense system A(F,F)·x(F) = b(F) − A(F,B)·x(B) by Gaussian
/// elimination with partial pivoting.
fn solve_dense(a: &[f64], n: usize, free: &[usize], x: &mut [f64], b: &[f64]) -> bool {
    let k = free.len();
    let mut m = vec![0.0; k * (k + 1)];
    for (r, &i) in free.iter().enumerate() {
        let mut rhs = b[i];
        for j in 0..n {
            if !free.contains(&j) {
                rhs -= a[i * n + j] * x[j];
            }
        }
        for (c, &j) in free.iter().enumerate() {
            m[r * (k + 1) + c] = a[i * n + j];
        }
        m[r * (k + 1) + k] = rhs;
    }
    for c in 0..k {
        let p = (c..k).max_by(|&u, &v| m[u * (k + 1) + c].abs().total_cmp(&m[v * (k + 1) + c].abs())).unwrap();
        if m[p * (k + 1) + c].abs() < 1e-14 {
            return false;
        }
        for e in 0..=k {
            m.swap(c * (k + 1) + e, p * (k + 1) + e);
        }
        for r in 0..k {
            if r != c {
                let f = m[r * (k + 1) + c] / m[c * (k + 1) + c];
                for e in c..=k {
                    m[r * (k + 1) + e] -= f * m[c * (k + 1) + e];
                }
            }
        }
    }
    for (r, &i) in free.iter().enumerate() {
        x[i] = m[r * (k + 1) + k] / m[r * (k + 1) + r];
    }
    true
}

/// The valid solution found by trying every active set.
fn brute_force(a: &[f64], n: usize, b: &[f64], lo: &[f64], hi: &[f64]) -> Option<Vec<f64>> {
    let total = 3usize.pow(n as u32);
    for code in 0..total {
        let mut c = code;
        let mut x = vec![0.0; n];
        let mut free = Vec::new();
        let mut possible = true;
        for i in 0..n {
            match c % 3 {
                0 => free.push(i),
                1 if lo[i].is_finite() => x[i] = lo[i],
                2 if hi[i].is_finite() => x[i] = hi[i],
                _ => possible = false,
            }
            c /= 3;
        }
        if !possible || !solve_dense(a, n, &free, &mut x, b) {
            continue;
        }
        if check_conditions(a, n, &x, b, lo, hi, 1e-10).is_ok() {
            return Some(x);
        }
    }
    None
}

fn random_bound(rng: &mut Rng, upper: bool) -> f64 {
    let v = match rng.below(4) {
        0 => f64::INFINITY,
        1 => 0.0,
        _ => 0.05 + rng.next(),
    };
    if upper {
        v
    } else {
        -v
    }
}

#[test]
fn random_boxed_problems_match_brute_force() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut sc = LcpScratch::default();
    let mut checked = 0;
    for trial in 0..600 {
        let n = 1 + rng.below(6);
        let a = spd(&mut rng, n);
        let b: Vec<f64> = (0..n).map(|_| 2.0 * rng.sym()).collect();
        let nub = rng.below(n + 1).min(n);
        let mut lo = vec![0.0; n];
        let mut hi = vec![0.0; n];
        for i in 0..n {
            if i < nub {
                lo[i] = f64::NEG_INFINITY;
                hi[i] = f64::INFINITY;
            } else {
                lo[i] = random_bound(&mut rng, false);
                hi[i] = random_bound(&mut rng, true);
            }
        }
        let expected = brute_force(&a, n, &b, &lo, &hi).expect("a positive definite BLCP has a solution");

        let mut ap = padded(&a, n);
        let mut x = vec![0.0; n];
        let mut bb = b.clone();
        let mut w = vec![0.0; n];
        let (mut l2, mut h2) = (lo.clone(), hi.clone());
        let status = solve_lcp(n, &mut ap, &mut x, &mut bb, Some(&mut w), nub, &mut l2, &mut h2, None, &mut sc);
        assert_eq!(status, LcpStatus::Solved, "trial {trial}");
        check_conditions(&a, n, &x, &b, &lo, &hi, 1e-9)
            .unwrap_or_else(|e| panic!("trial {trial} (n {n}, nub {nub}): {e}"));
        for i in 0..n {
            assert!(
                (x[i] - expected[i]).abs() <= 1e-8 * (1.0 + expected[i].abs()),
                "trial {trial}: x[{i}] = {} but brute force gives {}",
                x[i],
                expected[i]
            );
        }
        // w is reported in the caller's order.
        let wr = residual(&a, n, &x, &b);
        for i in 0..n {
            assert!((w[i] - wr[i]).abs() <= 1e-9 * (1.0 + wr[i].abs()), "trial {trial}: w[{i}] {} vs {}", w[i], wr[i]);
        }
        checked += 1;
    }
    assert_eq!(checked, 600);
}

/// Unbounded rows that are not among the first `nub` are found and solved
/// with the rest; the solution does not depend on the declared `nub`.
#[test]
fn unbounded_rows_anywhere_give_the_same_solution() {
    let mut rng = Rng(42);
    let mut sc = LcpScratch::default();
    for _ in 0..100 {
        let n = 2 + rng.below(6);
        let a = spd(&mut rng, n);
        let b: Vec<f64> = (0..n).map(|_| rng.sym()).collect();
        let mut lo: Vec<f64> = (0..n).map(|_| random_bound(&mut rng, false)).collect();
        let mut hi: Vec<f64> = (0..n).map(|_| random_bound(&mut rng, true)).collect();
        for i in 0..n {
            if rng.below(2) == 0 {
                lo[i] = f64::NEG_INFINITY;
                hi[i] = f64::INFINITY;
            }
        }
        let lead = (0..n).take_while(|&i| lo[i] == f64::NEG_INFINITY && hi[i] == f64::INFINITY).count();
        let mut results = Vec::new();
        for nub in [0, lead, 0] {
            let mut ap = padded(&a, n);
            let mut x = vec![0.0; n];
            let (mut bb, mut l2, mut h2) = (b.clone(), lo.clone(), hi.clone());
            solve_lcp(n, &mut ap, &mut x, &mut bb, None, nub, &mut l2, &mut h2, None, &mut sc);
            check_conditions(&a, n, &x, &b, &lo, &hi, 1e-9).unwrap();
            results.push(x);
        }
        assert_eq!(results[0], results[2], "solves must be deterministic");
        for i in 0..n {
            assert!((results[0][i] - results[1][i]).abs() <= 1e-9 * (1.0 + results[0][i].abs()), "nub changes x[{i}]");
        }
    }
}

/// Friction rows: bounds ±mu·|x(normal)|; checked against the conditions
/// with those bounds, and zero friction when the normal force is zero.
#[test]
fn friction_rows_scale_with_their_normal_force() {
    let mut rng = Rng(7);
    let mut sc = LcpScratch::default();
    let mut with_friction = 0;
    for trial in 0..400 {
        // Contacts of 3 rows: normal (lo 0, hi inf), two friction rows.
        let contacts = 1 + rng.below(2);
        let extra = rng.below(3); // leading unbounded rows
        let n = extra + 3 * contacts;
        let a = spd(&mut rng, n);
        let b: Vec<f64> = (0..n).map(|_| 2.0 * rng.sym()).collect();
        let mut lo = vec![f64::NEG_INFINITY; n];
        let mut hi = vec![f64::INFINITY; n];
        let mut findex = vec![-1i32; n];
        let mut mu = vec![0.0; n];
        for c in 0..contacts {
            let r = extra + 3 * c;
            lo[r] = 0.0;
            for f in 1..3 {
                let m = 0.1 + rng.next();
                mu[r + f] = m;
                lo[r + f] = -m;
                hi[r + f] = m;
                findex[r + f] = r as i32;
            }
        }
        let mut ap = padded(&a, n);
        let mut x = vec![0.0; n];
        let (mut bb, mut l2, mut h2, mut fi) = (b.clone(), lo.clone(), hi.clone(), findex.clone());
        let status = solve_lcp(n, &mut ap, &mut x, &mut bb, None, extra, &mut l2, &mut h2, Some(&mut fi), &mut sc);
        assert_eq!(status, LcpStatus::Solved, "trial {trial}");
        // The solver reports the friction bounds it used: symmetric, mu
        // times a normal force that is never negative; the solution must be
        // complementary with respect to them.
        let (elo, ehi) = (l2.clone(), h2.clone());
        for i in 0..n {
            if findex[i] >= 0 {
                assert_eq!(elo[i], -ehi[i], "trial {trial}: friction bounds not symmetric");
                if ehi[i] > 0.0 {
                    with_friction += 1;
                }
            } else {
                assert_eq!((elo[i], ehi[i]), (lo[i], hi[i]), "trial {trial}: bounds of row {i} changed");
            }
        }
        for c in 0..contacts {
            let r = extra + 3 * c;
            assert!(x[r] >= -1e-12, "trial {trial}: negative normal force");
            // Both friction rows of a contact were bounded by the same normal force.
            let (n1, n2) = (ehi[r + 1] / mu[r + 1], ehi[r + 2] / mu[r + 2]);
            assert!((n1 - n2).abs() <= 1e-12 * (1.0 + n1.abs()), "trial {trial}: {n1} vs {n2}");
        }
        check_conditions(&a, n, &x, &b, &elo, &ehi, 1e-9).unwrap_or_else(|e| panic!("trial {trial}: {e}"));
    }
    assert!(with_friction > 200, "too few problems with active friction: {with_friction}");
}

/// The all-unbounded shortcut solves A·x = b exactly.
#[test]
fn all_unbounded_is_a_linear_solve() {
    let mut rng = Rng(3);
    let mut sc = LcpScratch::default();
    for n in 1..9 {
        let a = spd(&mut rng, n);
        let b: Vec<f64> = (0..n).map(|_| rng.sym()).collect();
        let mut ap = padded(&a, n);
        let mut x = vec![0.0; n];
        let (mut bb, mut lo, mut hi) = (b.clone(), vec![f64::NEG_INFINITY; n], vec![f64::INFINITY; n]);
        solve_lcp(n, &mut ap, &mut x, &mut bb, None, n, &mut lo, &mut hi, None, &mut sc);
        let r = residual(&a, n, &x, &b);
        assert!(r.iter().all(|v| v.abs() < 1e-10), "{r:?}");
    }
}

/// A singular matrix (zero pivot) must not hand non-finite forces to the
/// bodies: the solve reports it and returns zero forces (ODE aborts there).
#[test]
fn singular_problem_gives_finite_zero_solution() {
    let mut sc = LcpScratch::default();
    for (nub, lo0) in [(2, f64::NEG_INFINITY), (0, 0.0)] {
        let n = 2;
        // A = [[0, 0], [0, 1]]: the first pivot is zero.
        let a = vec![0.0, 0.0, 0.0, 1.0];
        let mut ap = padded(&a, n);
        let mut x = vec![0.0; n];
        let mut w = vec![0.0; n];
        let (mut bb, mut lo, mut hi) = (vec![1.0, 1.0], vec![lo0; n], vec![f64::INFINITY; n]);
        let status = solve_lcp(n, &mut ap, &mut x, &mut bb, Some(&mut w), nub, &mut lo, &mut hi, None, &mut sc);
        assert!(x.iter().chain(&w).all(|v| v.is_finite()), "nub {nub}: x {x:?} w {w:?}");
        if nub == n {
            // The unbounded path factors the zero pivot: without the guard
            // x would be inf/NaN.
            assert_eq!(status, LcpStatus::Singular);
        }
        if status == LcpStatus::Singular {
            assert_eq!(x, vec![0.0; n]);
        }
    }
}
