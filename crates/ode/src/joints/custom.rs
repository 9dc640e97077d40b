//! Custom joints (our extension; ODE has no such API): a joint whose rows
//! come from host code, through the same info1/info2 protocol the built-in
//! joints follow, plus one-sided limit rows with their engagement state.
//!
//! The host side is a `CustomModel` (the C adapter in `ffi::ode_ext` and the
//! Rust trait adapter in `api` both implement it). Each step the model
//! reports its row counts (`info1`) and fills the rows (`info2`); the
//! joint checks what the model reports so a wrong count cannot reach the
//! solvers.
//!
//! Limit rows: a coordinate q with admissible range [lo, hi] gets a
//! unilateral row only while it is out of range. `Info1Cx::limit` decides
//! (and records the side and depth), `Info2Cx::limit_row` completes a row
//! whose Jacobian the model wrote as dq/dt. Two optional aids against
//! chatter: a tolerance (the correction aims `tolerance` beyond the
//! boundary, so a resting contact stays strictly out of range and engaged)
//! and a hold (once engaged, the row stays for at least `hold_steps`
//! steps even if q comes back inside).

use super::{Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::body::BodyRef;
use std::ffi::c_int;

/// `dJointGetType` of a custom joint: outside ODE's `dJointType` values
/// (0..=17).
pub const TYPE_CUSTOM: c_int = 1000;

/// Most rows a custom joint may have: the solvers keep six warm-start
/// multipliers per joint, and two bodies have six relative freedoms.
pub const MAX_ROWS: usize = 6;

/// What the host provides.
pub trait CustomModel: Send {
    /// Row counts now (`m` ≤ the joint's max rows, `nub` ≤ `m`). Limit
    /// rows are decided here through `cx.limit`.
    fn info1(&mut self, cx: &mut Info1Cx<'_>) -> Info1;
    /// Fills the `m` rows (pre-set as ODE does: zero Jacobian, world CFM,
    /// unbounded, no friction index). Unbounded rows come first.
    fn info2(&mut self, cx: &mut Info2Cx<'_>, rows: &mut [Row]);
    /// For front ends that need their own model back (e.g. the C user
    /// data).
    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        None
    }
}

/// Settings of one limit row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    /// Admissible range of the coordinate (either may be infinite).
    pub lo: f64,
    pub hi: f64,
    /// Error reduction of the row (fraction corrected per step).
    pub erp: f64,
    /// Constraint force mixing of the row.
    pub cfm: f64,
    /// Deadband: the row corrects to `tolerance` beyond the boundary, not
    /// to it. 0 disables.
    pub tolerance: f64,
    /// Once engaged, the row stays at least this many steps. 0 or 1
    /// disables; 2 is the usual anti-chatter setting.
    pub hold_steps: u32,
}

impl Limit {
    /// Why these settings are unusable, if they are.
    pub fn check(&self) -> Result<(), String> {
        if self.lo.is_nan() || self.hi.is_nan() || self.lo > self.hi {
            return Err(format!("range [{}, {}] is not a range (need lo <= hi)", self.lo, self.hi));
        }
        if !(self.erp.is_finite() && (0.0..=1.0).contains(&self.erp)) {
            return Err(format!("erp = {} (must be in [0, 1])", self.erp));
        }
        if !(self.cfm.is_finite() && self.cfm >= 0.0) {
            return Err(format!("cfm = {} (must be finite and >= 0)", self.cfm));
        }
        if !(self.tolerance.is_finite() && self.tolerance >= 0.0) {
            return Err(format!("tolerance = {} (must be finite and >= 0)", self.tolerance));
        }
        Ok(())
    }
}

/// Which boundary an engaged limit row acts at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Side {
    #[default]
    Free,
    Lower,
    Upper,
}

/// Engagement state of one limit slot, kept in the joint across steps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LimitSlot {
    pub side: Side,
    /// Steps the row stays engaged even with the coordinate in range.
    pub hold_left: u32,
    /// Engage/disengage changes since creation (diagnostics, tests).
    pub transitions: u64,
    /// Values of the last `limit` call, used by `limit_row`.
    value: f64,
    settings: Option<Limit>,
    /// `limit` was called this step (reset by each info1).
    tested: bool,
}

impl LimitSlot {
    pub fn engaged(&self) -> bool {
        self.side != Side::Free
    }
}

/// What `info1` sees.
pub struct Info1Cx<'a> {
    pub bodies: Bodies<'a>,
    /// Handles of `bodies` (same order).
    pub body_refs: [Option<BodyRef>; 2],
    /// Attached as (0, body): the body is `bodies.b1`.
    pub reversed: bool,
    limits: &'a mut [LimitSlot],
}

impl Info1Cx<'_> {
    /// Updates limit slot `slot` for coordinate value `value` and returns
    /// whether its row is needed this step (then count it in `m`, not in
    /// `nub`, and complete it in `info2` with `limit_row`).
    pub fn limit(&mut self, slot: usize, value: f64, lim: &Limit) -> Result<bool, String> {
        let n = self.limits.len();
        let s = self.limits.get_mut(slot).ok_or_else(|| format!("slot {slot} out of range (the joint has {n})"))?;
        lim.check()?;
        if !value.is_finite() {
            return Err(format!("value = {value} (must be finite)"));
        }
        let violated = if value < lim.lo {
            Side::Lower
        } else if value > lim.hi {
            Side::Upper
        } else {
            Side::Free
        };
        let was = s.side;
        if violated != Side::Free {
            s.side = violated;
            s.hold_left = lim.hold_steps.saturating_sub(1);
        } else if s.side != Side::Free && s.hold_left > 0 {
            // Held: keep acting at the side it engaged on.
            s.hold_left -= 1;
        } else {
            s.side = Side::Free;
            s.hold_left = 0;
        }
        if s.engaged() != (was != Side::Free) {
            s.transitions += 1;
        }
        s.value = value;
        s.settings = Some(*lim);
        s.tested = true;
        Ok(s.engaged())
    }

    /// The current state of a limit slot.
    pub fn slot(&self, slot: usize) -> Option<&LimitSlot> {
        self.limits.get(slot)
    }
}

/// What `info2` sees.
pub struct Info2Cx<'a> {
    pub bodies: Bodies<'a>,
    /// Handles of `bodies` (same order).
    pub body_refs: [Option<BodyRef>; 2],
    pub reversed: bool,
    /// 1 / step size.
    pub fps: f64,
    /// World ERP.
    pub erp: f64,
    /// World CFM.
    pub cfm: f64,
    limits: &'a [LimitSlot],
}

impl Info2Cx<'_> {
    /// Completes `row` as the limit row of `slot`: the caller wrote its
    /// Jacobian as dq/dt; this sets the right-hand side, CFM and the one
    /// sided bounds (λ ≥ 0 at the lower boundary, ≤ 0 at the upper).
    /// Fails if the slot is not engaged this step.
    pub fn limit_row(&self, slot: usize, row: &mut Row) -> Result<(), String> {
        let s = self
            .limits
            .get(slot)
            .ok_or_else(|| format!("slot {slot} out of range (the joint has {})", self.limits.len()))?;
        let lim = match (s.tested, s.settings) {
            (true, Some(l)) if s.engaged() => l,
            _ => return Err(format!("limit slot {slot} is not engaged this step (info1 did not report it)")),
        };
        let k = self.fps * lim.erp;
        match s.side {
            Side::Lower => {
                row.c = k * (lim.lo - lim.tolerance - s.value);
                row.lo = 0.0;
                row.hi = f64::INFINITY;
            }
            Side::Upper => {
                row.c = k * (lim.hi + lim.tolerance - s.value);
                row.lo = f64::NEG_INFINITY;
                row.hi = 0.0;
            }
            Side::Free => unreachable!(),
        }
        row.cfm = lim.cfm;
        row.findex = -1;
        Ok(())
    }

    pub fn slot(&self, slot: usize) -> Option<&LimitSlot> {
        self.limits.get(slot)
    }
}

/// The custom joint's part of a joint object.
pub struct Custom {
    model: Box<dyn CustomModel>,
    max_rows: usize,
    limits: Vec<LimitSlot>,
    /// Rows announced by the last info1 (checked against info2's use).
    last: Info1,
}

impl std::fmt::Debug for Custom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Custom").field("max_rows", &self.max_rows).field("limits", &self.limits).finish()
    }
}

impl Custom {
    /// `max_rows` in 1..=MAX_ROWS (0 means MAX_ROWS). There is one limit
    /// slot per possible row.
    pub fn new(model: Box<dyn CustomModel>, max_rows: usize) -> Result<Custom, String> {
        let max_rows = if max_rows == 0 { MAX_ROWS } else { max_rows };
        if max_rows > MAX_ROWS {
            return Err(format!("max_rows = {max_rows} (at most {MAX_ROWS})"));
        }
        Ok(Custom { model, max_rows, limits: vec![LimitSlot::default(); max_rows], last: Info1::default() })
    }

    pub fn limit_slots(&self) -> &[LimitSlot] {
        &self.limits
    }

    pub fn model_mut(&mut self) -> &mut dyn CustomModel {
        self.model.as_mut()
    }
}

fn reversed(head: &JointHead) -> bool {
    head.flags & super::flags::REVERSE != 0
}

impl JointModel for Custom {
    const TYPE: c_int = TYPE_CUSTOM;

    fn info1(&mut self, head: &JointHead, bodies: Bodies<'_>) -> Info1 {
        for s in &mut self.limits {
            s.tested = false;
        }
        let mut cx = Info1Cx { bodies, body_refs: head.body, reversed: reversed(head), limits: &mut self.limits };
        let info = self.model.info1(&mut cx);
        // Slots not tested this step are released (their rows are gone).
        for s in &mut self.limits {
            if !s.tested && s.engaged() {
                s.side = Side::Free;
                s.hold_left = 0;
                s.transitions += 1;
            }
        }
        let info = if info.m > self.max_rows || info.nub > info.m {
            // The host's model answered impossible counts: bad input, as a
            // bad argument would be (not an internal failure).
            crate::error::report(
                crate::error::Channel::Debug,
                crate::error::D_ERR_UASSERT,
                &format!(
                    "custom joint: info1 reported m = {}, nub = {} (need nub <= m <= max rows {}): joint skipped this step",
                    info.m, info.nub, self.max_rows
                ),
            );
            Info1::default()
        } else {
            info
        };
        self.last = info;
        info
    }

    fn info2(&mut self, head: &JointHead, bodies: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        debug_assert_eq!(rows.len(), self.last.m);
        let mut cx = Info2Cx {
            bodies,
            body_refs: head.body,
            reversed: reversed(head),
            fps: ctx.fps,
            erp: ctx.erp,
            cfm: ctx.world.cfm,
            limits: &self.limits,
        };
        self.model.info2(&mut cx, rows);
        // A friction index names one of this joint's rows (or is -1). Any
        // other value would index another joint's rows or none, which the
        // solvers cannot take: reported, and the row kept as an ordinary
        // bounded row (its lo and hi as written).
        let m = rows.len();
        for (i, r) in rows.iter_mut().enumerate() {
            if r.findex != -1 && !(0..m as i32).contains(&r.findex) {
                crate::error::report(
                    crate::error::Channel::Debug,
                    crate::error::D_ERR_UASSERT,
                    &format!(
                        "custom joint: info2 gave row {i} findex = {} (must be -1 or a row of the joint, 0..{m}): taken as -1",
                        r.findex
                    ),
                );
                r.findex = -1;
            }
        }
        // The first nub rows are unbounded by contract. The exact Step
        // trusts nub and would ignore bounds there while the QuickStep
        // applied them, so the steppers would disagree: reported, and the
        // rows taken as declared (unbounded, no friction index).
        let nub = self.last.nub.min(m);
        for (i, r) in rows[..nub].iter_mut().enumerate() {
            if r.lo != f64::NEG_INFINITY || r.hi != f64::INFINITY || r.findex != -1 {
                crate::error::report(
                    crate::error::Channel::Debug,
                    crate::error::D_ERR_UASSERT,
                    &format!(
                        "custom joint: info2 gave row {i} lo = {:?}, hi = {:?}, findex = {}, but info1 counted it \
                         among the nub = {nub} unbounded rows: taken as unbounded",
                        r.lo, r.hi, r.findex
                    ),
                );
                r.lo = f64::NEG_INFINITY;
                r.hi = f64::INFINITY;
                r.findex = -1;
            }
        }
    }

    fn max_rows(&self) -> usize {
        self.max_rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lim(tol: f64, hold: u32) -> Limit {
        Limit { lo: -1.0, hi: 1.0, erp: 0.5, cfm: 0.0, tolerance: tol, hold_steps: hold }
    }

    fn cx(slots: &mut [LimitSlot]) -> Info1Cx<'_> {
        Info1Cx { bodies: Bodies { b1: None, b2: None }, body_refs: [None, None], reversed: false, limits: slots }
    }

    #[test]
    fn limit_engages_only_out_of_range_and_holds() {
        let mut slots = vec![LimitSlot::default(); 2];
        let l = lim(0.0, 2);
        assert!(!cx(&mut slots).limit(0, 0.5, &l).unwrap());
        assert!(cx(&mut slots).limit(0, 1.2, &l).unwrap());
        assert_eq!(slots[0].side, Side::Upper);
        // Back in range: held one more step (two steps engaged in all).
        assert!(cx(&mut slots).limit(0, 0.9, &l).unwrap());
        assert!(!cx(&mut slots).limit(0, 0.9, &l).unwrap());
        assert_eq!(slots[0].transitions, 2);
        // Without hold it lets go at once.
        let l0 = lim(0.0, 0);
        assert!(cx(&mut slots).limit(1, -1.5, &l0).unwrap());
        assert!(!cx(&mut slots).limit(1, -0.5, &l0).unwrap());
        assert!(cx(&mut slots).limit(2, 0.0, &l0).is_err());
        let bad = Limit { lo: 2.0, ..l0 };
        assert!(cx(&mut slots).limit(0, 0.0, &bad).is_err());
    }

    #[test]
    fn limit_row_targets_the_tolerance_band() {
        let mut slots = vec![LimitSlot::default(); 1];
        let l = lim(0.1, 0);
        assert!(cx(&mut slots).limit(0, 1.3, &l).unwrap());
        let c2 = Info2Cx {
            bodies: Bodies { b1: None, b2: None },
            body_refs: [None, None],
            reversed: false,
            fps: 100.0,
            erp: 0.2,
            cfm: 1e-10,
            limits: &slots,
        };
        let mut r = Row::initial(1e-10);
        c2.limit_row(0, &mut r).unwrap();
        // Upper side: push back (λ ≤ 0) towards hi + tol = 1.1.
        assert_eq!((r.lo, r.hi), (f64::NEG_INFINITY, 0.0));
        assert!((r.c - 100.0 * 0.5 * (1.1 - 1.3)).abs() < 1e-12);
        let mut slots = vec![LimitSlot::default(); 1];
        assert!(cx(&mut slots).limit(0, -1.3, &l).unwrap());
        let c2 = Info2Cx {
            bodies: Bodies { b1: None, b2: None },
            body_refs: [None, None],
            reversed: false,
            fps: 100.0,
            erp: 0.2,
            cfm: 0.0,
            limits: &slots,
        };
        c2.limit_row(0, &mut r).unwrap();
        assert_eq!((r.lo, r.hi), (0.0, f64::INFINITY));
        assert!((r.c - 100.0 * 0.5 * (-1.1 + 1.3)).abs() < 1e-12);
    }
}
