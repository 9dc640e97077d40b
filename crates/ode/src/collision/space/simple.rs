//! The simple space: every pair of members is tested (ODE's n² space).
//! Also the member-vs-geom pass shared with the hash space, which does
//! not use its hash table for it either.

use super::{clean, collide_aabbs, locked, sp, Near};
use crate::collision::geom::{self, g, GeomRef};

pub fn collide(s: GeomRef, cb: &mut Near) {
    locked(s, || {
        clean(s);
        let mut a = sp(s).first;
        while let Some(g1) = a {
            if g(g1).takes_part() {
                let mut b = g(g1).next;
                while let Some(g2) = b {
                    if g(g2).takes_part() {
                        collide_aabbs(g1, g2, cb);
                    }
                    b = g(g2).next;
                }
            }
            a = g(g1).next;
        }
    })
}

/// Members against `h`, in list order, each reported as (member, h).
pub fn collide2(s: GeomRef, h: GeomRef, cb: &mut Near) {
    locked(s, || {
        clean(s);
        geom::recompute_aabb(h);
        let mut a = sp(s).first;
        while let Some(m) = a {
            if g(m).takes_part() {
                collide_aabbs(m, h, cb);
                if !h.is_live() {
                    return;
                }
            }
            a = g(m).next;
        }
    })
}
