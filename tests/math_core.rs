//! Property tests of the safe math core against direct checks (residuals,
//! reconstruction, closed forms). The bit-level agreement with ODE is
//! covered by the differential tests in `math_diff.rs`.
use ode::math::mass::{Axis, Mass, MassProblem};
use ode::math::matrix::{self as m, pad};

/// Deterministic xorshift64 generator, uniform in [-1, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    fn vec(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| self.next()).collect()
    }
}

/// Dense symmetric positive definite n×n matrix (row stride `s`): M*M' + n*I.
fn spd(rng: &mut Rng, n: usize, s: usize) -> Vec<f64> {
    let mm = rng.vec(n * n);
    let mut a = vec![0.0; n * s.max(1)];
    for i in 0..n {
        for j in 0..n {
            let mut v = if i == j { n as f64 } else { 0.0 };
            for k in 0..n {
                v += mm[i * n + k] * mm[j * n + k];
            }
            a[i * s + j] = v;
        }
    }
    a
}

fn mat_vec(a: &[f64], x: &[f64], n: usize, s: usize) -> Vec<f64> {
    (0..n).map(|i| (0..n).map(|j| a[i * s + j] * x[j]).sum()).collect()
}

fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

#[test]
fn pad_rule() {
    assert_eq!([0, 1, 2, 3, 4, 5, 8, 9].map(pad), [0, 1, 4, 4, 4, 8, 8, 12]);
}

#[test]
fn cholesky_solves_and_inverts() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for n in 1..=15 {
        let s = pad(n);
        let a = spd(&mut rng, n, s);
        assert!(m::is_positive_definite(&a, n));
        let mut l = a.clone();
        assert!(m::factor_cholesky(&mut l, n));
        let b = rng.vec(n);
        let mut x = b.clone();
        m::solve_cholesky(&l, &mut x, n);
        assert!(max_abs_diff(&mat_vec(&a, &x, n, s), &b) < 1e-12 * n as f64, "n={n}");

        let mut inv = vec![7.0; s * n];
        assert!(m::invert_pd(&a, &mut inv, n));
        for i in 0..n {
            for j in 0..n {
                let v: f64 = (0..n).map(|k| a[i * s + k] * inv[k * s + j]).sum();
                let e = if i == j { 1.0 } else { 0.0 };
                assert!((v - e).abs() < 1e-12, "n={n} ({i},{j}) {v}");
            }
            for j in n..s {
                assert_eq!(inv[i * s + j], 0.0, "padding is cleared");
            }
        }

        let mut bad = a.clone();
        bad[(n - 1) * s + n - 1] = -1.0;
        assert!(!m::is_positive_definite(&bad, n));
        let mut untouched = vec![3.0; s * n];
        assert!(!m::invert_pd(&bad, &mut untouched, n));
        assert!(untouched.iter().all(|&v| v == 3.0));
    }
}

#[test]
fn ldlt_reconstructs_and_solves() {
    let mut rng = Rng(0xfeed_beef_1357_9bdf);
    for n in 1..=23 {
        for s in [pad(n), n + 5] {
            let a = spd(&mut rng, n, s);
            let mut l = a.clone();
            let mut d = vec![0.0; n];
            m::factor_ldlt(&mut l, &mut d, n, s);
            // A = L * diag(1/d) * L'
            for i in 0..n {
                for j in 0..=i {
                    let lik = |k: usize| if k == i { 1.0 } else { l[i * s + k] };
                    let ljk = |k: usize| if k == j { 1.0 } else { l[j * s + k] };
                    let v: f64 = (0..=j).map(|k| lik(k) / d[k] * ljk(k)).sum();
                    assert!((v - a[i * s + j]).abs() < 1e-11 * n as f64, "n={n} s={s} ({i},{j})");
                }
            }
            let b = rng.vec(n);
            let mut x = b.clone();
            m::solve_ldlt(&l, &d, &mut x, n, s);
            assert!(max_abs_diff(&mat_vec(&a, &x, n, s), &b) < 1e-11 * n as f64, "n={n} s={s}");

            // L x = b and L' x = b separately (unit lower triangle).
            let unit_l = |i: usize, j: usize| {
                if i == j {
                    1.0
                } else if j < i {
                    l[i * s + j]
                } else {
                    0.0
                }
            };
            let mut y = b.clone();
            m::solve_l1(&l, &mut y, n, s);
            for i in 0..n {
                let v: f64 = (0..n).map(|j| unit_l(i, j) * y[j]).sum();
                assert!((v - b[i]).abs() < 1e-12 * n as f64);
            }
            let mut z = b.clone();
            m::solve_l1t(&l, &mut z, n, s);
            for i in 0..n {
                let v: f64 = (0..n).map(|j| unit_l(j, i) * z[j]).sum();
                assert!((v - b[i]).abs() < 1e-12 * n as f64);
            }
        }
    }
}

#[test]
fn ldlt_add_tl_matches_updated_matrix() {
    let mut rng = Rng(0x0bad_cafe_dead_f00d);
    for n in 2..=12 {
        let s = pad(n);
        let a = spd(&mut rng, n, s);
        let mut l = a.clone();
        let mut d = vec![0.0; n];
        m::factor_ldlt(&mut l, &mut d, n, s);
        let v: Vec<f64> = rng.vec(n).iter().map(|x| x * 0.1).collect();
        m::ldlt_add_tl(&mut l, &mut d, &v, n, s);
        // Updated matrix: A + v e0' + e0 v' with v0 added once at (0,0).
        let mut up = a.clone();
        up[0] += v[0];
        for i in 1..n {
            up[i * s] += v[i];
            up[i] += v[i];
        }
        // The left column of L and d[0] are not written (as in ODE); the
        // k = 0 term of the product follows from the updated matrix itself:
        // L2(i,0) D2(0) L2(j,0) = up(i,0) up(j,0) / up(0,0).
        for i in 1..n {
            for j in 1..=i {
                let lik = |k: usize| if k == i { 1.0 } else { l[i * s + k] };
                let ljk = |k: usize| if k == j { 1.0 } else { l[j * s + k] };
                let val: f64 = up[i * s] * up[j * s] / up[0] + (1..=j).map(|k| lik(k) / d[k] * ljk(k)).sum::<f64>();
                assert!((val - up[i * s + j]).abs() < 1e-10, "n={n} ({i},{j}) {val} vs {}", up[i * s + j]);
            }
        }
    }
}

#[test]
fn ldlt_remove_matches_refactoring() {
    let mut rng = Rng(0x5eed_5eed_5eed_5eed);
    for n1 in [3usize, 6, 9] {
        let s = pad(n1);
        let big = spd(&mut rng, n1, s);
        for n2 in 1..=n1 {
            // A permuted principal submatrix of `big`.
            let p: Vec<usize> = (0..n2).map(|i| (i * 2 + 1) % n1).collect::<Vec<_>>();
            let mut seen = vec![false; n1];
            let p: Vec<usize> = p
                .into_iter()
                .map(|mut x| {
                    while seen[x] {
                        x = (x + 1) % n1;
                    }
                    seen[x] = true;
                    x
                })
                .collect();
            for r in 0..n2 {
                let mut l = vec![0.0; s * n2];
                for i in 0..n2 {
                    for j in 0..n2 {
                        l[i * s + j] = big[p[i] * s + p[j]];
                    }
                }
                let mut d = vec![0.0; n2];
                m::factor_ldlt(&mut l, &mut d, n2, s);
                m::ldlt_remove_permuted(|i, j| big[i * s + j], &p, &mut l, &mut d, n2, r, s);
                if r + 1 == n2 {
                    continue; // the caller just drops the last row
                }
                // Reference: factor the submatrix without row/column r.
                let q: Vec<usize> = p.iter().enumerate().filter(|&(i, _)| i != r).map(|(_, &x)| x).collect();
                let k = n2 - 1;
                let mut l2 = vec![0.0; s * k.max(1)];
                for i in 0..k {
                    for j in 0..k {
                        l2[i * s + j] = big[q[i] * s + q[j]];
                    }
                }
                let mut d2 = vec![0.0; k];
                m::factor_ldlt(&mut l2, &mut d2, k, s);
                for i in 0..k {
                    assert!((d[i] - d2[i]).abs() < 1e-10 * d2[i].abs(), "n1={n1} n2={n2} r={r} d[{i}]");
                    for j in 0..i {
                        assert!((l[i * s + j] - l2[i * s + j]).abs() < 1e-10, "n1={n1} n2={n2} r={r} L[{i}][{j}]");
                    }
                }
            }
        }
    }
}

#[test]
fn remove_row_col_shifts_blocks() {
    for n in 1..=6 {
        for r in 0..n {
            let s = n + 2;
            let mut a: Vec<f64> = (0..n * s).map(|x| x as f64).collect();
            let orig = a.clone();
            m::remove_row_col(&mut a, n, s, r);
            if r + 1 == n {
                assert_eq!(a, orig);
                continue;
            }
            let keep: Vec<usize> = (0..n).filter(|&i| i != r).collect();
            for (i2, &i) in keep.iter().enumerate() {
                for (j2, &j) in keep.iter().enumerate() {
                    assert_eq!(a[i2 * s + j2], orig[i * s + j], "n={n} r={r} ({i2},{j2})");
                }
            }
        }
    }
}

#[test]
fn products_and_dot_match_definitions() {
    let mut rng = Rng(42);
    for (p, q, r) in [(1, 1, 1), (2, 3, 4), (5, 7, 3), (4, 4, 4), (3, 9, 6)] {
        let (ps, qs, rs) = (pad(p), pad(q), pad(r));
        let b = rng.vec(p.max(q) * ps.max(qs).max(rs) + 16);
        let c = rng.vec(q.max(r) * ps.max(qs).max(rs) + 16);
        let mut a = vec![0.0; p * rs];
        m::multiply0(&mut a, &b, &c, p, q, r);
        for i in 0..p {
            for j in 0..r {
                let mut v = 0.0;
                for k in 0..q {
                    v += b[i * qs + k] * c[k * rs + j];
                }
                assert_eq!(a[i * rs + j], v);
            }
        }
        m::multiply1(&mut a, &b, &c, p, q, r);
        for i in 0..p {
            for j in 0..r {
                let mut v = 0.0;
                for k in 0..q {
                    v += b[k * ps + i] * c[k * rs + j];
                }
                assert_eq!(a[i * rs + j], v);
            }
        }
        m::multiply2(&mut a, &b, &c, p, q, r);
        for i in 0..p {
            for j in 0..r {
                let mut v = 0.0;
                for k in 0..q {
                    v += b[i * qs + k] * c[j * qs + k];
                }
                assert_eq!(a[i * rs + j], v);
            }
        }
    }
    for n in 0..20 {
        let x = rng.vec(n);
        let y = rng.vec(n);
        let naive: f64 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
        assert!((m::dot(&x, &y) - naive).abs() < 1e-14 * (n as f64 + 1.0));
    }
}

// ---- mass ----

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

fn inertia(mm: &Mass, i: usize, j: usize) -> f64 {
    mm.I[i * 4 + j]
}

#[test]
fn box_sphere_cylinder_closed_forms() {
    let mut b = Mass::default();
    b.set_box(2.0, 1.0, 2.0, 3.0);
    let mass = 2.0 * 6.0;
    assert!(close(b.mass, mass));
    assert!(close(inertia(&b, 0, 0), mass / 12.0 * (4.0 + 9.0)));
    assert!(close(inertia(&b, 1, 1), mass / 12.0 * (1.0 + 9.0)));
    assert!(close(inertia(&b, 2, 2), mass / 12.0 * (1.0 + 4.0)));
    assert_eq!(inertia(&b, 0, 1), 0.0);

    let mut s = Mass::default();
    s.set_sphere(3.0, 0.5);
    let ms = 3.0 * 4.0 / 3.0 * std::f64::consts::PI * 0.125;
    assert!(close(s.mass, ms));
    assert!(close(inertia(&s, 1, 1), 0.4 * ms * 0.25));

    let mut c = Mass::default();
    c.set_cylinder_total(5.0, Axis::Y, 0.5, 2.0);
    assert!(close(inertia(&c, 1, 1), 0.5 * 5.0 * 0.25));
    assert!(close(inertia(&c, 0, 0), 5.0 * (0.25 * 0.25 + 4.0 / 12.0)));
    assert!(close(inertia(&c, 2, 2), inertia(&c, 0, 0)));

    let mut cap = Mass::default();
    cap.set_capsule(1.5, Axis::Z, 0.3, 1.2);
    let pi = std::f64::consts::PI;
    assert!(close(cap.mass, 1.5 * (pi * 0.09 * 1.2 + 4.0 / 3.0 * pi * 0.027)));
    cap.set_capsule_total(4.0, Axis::X, 0.3, 1.2);
    assert!(close(cap.mass, 4.0));
    assert!(inertia(&cap, 0, 0) < inertia(&cap, 1, 1), "thin along its axis");
}

#[test]
fn parallel_axis_rotation_and_sum() {
    let mut b = Mass::default();
    b.set_box(1.0, 1.0, 2.0, 3.0);
    let i0 = b.I;
    let t = [0.3, -1.2, 2.5];
    b.translate(t);
    let t2 = t.iter().map(|x| x * x).sum::<f64>();
    for i in 0..3 {
        assert!(close(b.c[i], t[i]));
        for j in 0..3 {
            let e = i0[i * 4 + j] + b.mass * (if i == j { t2 } else { 0.0 } - t[i] * t[j]);
            assert!(close(inertia(&b, i, j), e), "({i},{j})");
        }
    }
    // Translating back restores the original inertia about the centre.
    b.translate([-t[0], -t[1], -t[2]]);
    for k in 0..12 {
        assert!((b.I[k] - i0[k]).abs() < 1e-12);
    }

    // A rotation by 90 degrees about z swaps the x and y moments.
    let mut r = [0.0; 12];
    r[1] = -1.0;
    r[4] = 1.0;
    r[10] = 1.0;
    let mut rb = Mass::default();
    rb.set_box(1.0, 1.0, 2.0, 3.0);
    let (ixx, iyy) = (inertia(&rb, 0, 0), inertia(&rb, 1, 1));
    rb.translate([1.0, 0.0, 0.0]);
    rb.rotate(&r);
    assert!(close(rb.c[1], 1.0) && rb.c[0].abs() < 1e-15);
    rb.translate([0.0, -1.0, 0.0]);
    assert!(close(inertia(&rb, 0, 0), iyy) && close(inertia(&rb, 1, 1), ixx));

    // Adding two point-like masses: combined centre and summed inertia.
    let mut a = Mass::default();
    a.set_sphere_total(1.0, 0.1);
    a.translate([1.0, 0.0, 0.0]);
    let mut c = Mass::default();
    c.set_sphere_total(3.0, 0.1);
    c.translate([-1.0, 2.0, 0.0]);
    let ia = a.I;
    a.add(&c);
    assert!(close(a.mass, 4.0));
    assert!(close(a.c[0], (1.0 - 3.0) / 4.0) && close(a.c[1], 6.0 / 4.0));
    for k in 0..12 {
        assert!(close(a.I[k], ia[k] + c.I[k]));
    }
}

#[test]
fn consistency_rules() {
    let mut mm = Mass::default();
    assert_eq!(mm.validate(), Err(MassProblem::NotPositive));
    mm.set_parameters(1.0, [0.0; 3], 1.0, -1.0, 1.0, 0.0, 0.0, 0.0);
    assert_eq!(mm.validate(), Err(MassProblem::InertiaNotPositiveDefinite));
    mm.set_parameters(1.0, [10.0, 0.0, 0.0], 1.0, 1.0, 1.0, 0.0, 0.0, 0.0);
    assert_eq!(mm.validate(), Err(MassProblem::CentreInconsistent));
    mm.set_box(1.0, 1.0, 1.0, 1.0);
    mm.translate([5.0, 5.0, 5.0]);
    assert_eq!(mm.validate(), Ok(()));
    assert_eq!(Axis::from_code(0), None);
    assert_eq!(Axis::from_code(4), None);
    assert_eq!(Axis::from_code(2), Some(Axis::Y));
}
