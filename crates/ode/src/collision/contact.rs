//! `ContactSink`: where a collider writes its contacts.
//!
//! ODE hands colliders a `dContactGeom*` with a byte stride (`skip`) and a
//! maximum count (`flags & 0xffff`); hosts pass arrays of `dContact` whose
//! first member is the `dContactGeom`, hence the stride. The sink wraps that
//! safely: colliders only `push`, `get_mut` and read `len`/`max`; `slot`
//! addresses a record of such an array for the code around the colliders.

use crate::abi::contact::dContactGeom;
use std::marker::PhantomData;

/// The `CONTACTS_UNIMPORTANT` bit of the collide flags: any contacts will
/// do, the collider may stop at the first one.
pub const CONTACTS_UNIMPORTANT: i32 = 0x8000_0000u32 as i32;
/// Mask of the maximum contact count in the collide flags.
pub const NUMC_MASK: i32 = 0xffff;

/// Record `i` of a contact array of stride `skip`.
///
/// # Safety
/// `i` within the array.
#[inline]
pub unsafe fn slot(contact: *mut dContactGeom, skip: usize, i: usize) -> *mut dContactGeom {
    (contact as *mut u8).add(i * skip) as *mut dContactGeom
}

/// A contact as colliders produce it (geoms are filled in by the dispatcher).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    pub pos: [f64; 3],
    pub normal: [f64; 3],
    pub depth: f64,
    pub side1: i32,
    pub side2: i32,
}

impl Contact {
    pub fn new(pos: [f64; 3], normal: [f64; 3], depth: f64) -> Contact {
        Contact { pos, normal, depth, side1: -1, side2: -1 }
    }
}

pub struct ContactSink<'a> {
    base: *mut u8,
    stride: usize,
    max: usize,
    len: usize,
    unimportant: bool,
    _buf: PhantomData<&'a mut dContactGeom>,
}

impl<'a> ContactSink<'a> {
    /// A sink over a Rust slice (stride = one `dContactGeom`).
    pub fn from_slice(buf: &'a mut [dContactGeom], flags: i32) -> ContactSink<'a> {
        let max = ((flags & NUMC_MASK) as usize).min(buf.len());
        ContactSink {
            base: buf.as_mut_ptr() as *mut u8,
            stride: std::mem::size_of::<dContactGeom>(),
            max,
            len: 0,
            unimportant: flags & CONTACTS_UNIMPORTANT != 0,
            _buf: PhantomData,
        }
    }

    /// A sink over a C array of records `skip` bytes apart, each starting
    /// with a `dContactGeom`.
    ///
    /// # Safety
    /// `base` must point to `flags & 0xffff` writable records of `skip`
    /// bytes (`skip >= size_of::<dContactGeom>()`, suitably aligned).
    pub unsafe fn from_raw(base: *mut dContactGeom, flags: i32, skip: usize) -> ContactSink<'a> {
        ContactSink {
            base: base as *mut u8,
            stride: skip,
            max: (flags & NUMC_MASK) as usize,
            len: 0,
            unimportant: flags & CONTACTS_UNIMPORTANT != 0,
            _buf: PhantomData,
        }
    }

    /// Maximum number of contacts the caller accepts.
    pub fn max(&self) -> usize {
        self.max
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_full(&self) -> bool {
        self.len >= self.max
    }

    /// True when the caller set `CONTACTS_UNIMPORTANT`.
    pub fn unimportant(&self) -> bool {
        self.unimportant
    }

    /// Appends a contact; returns false (dropping it) when full.
    pub fn push(&mut self, c: Contact) -> bool {
        if self.is_full() {
            return false;
        }
        let g = self.slot(self.len);
        g.pos = [c.pos[0], c.pos[1], c.pos[2], 0.0];
        g.normal = [c.normal[0], c.normal[1], c.normal[2], 0.0];
        g.depth = c.depth;
        g.side1 = c.side1;
        g.side2 = c.side2;
        g.g1 = std::ptr::null_mut();
        g.g2 = std::ptr::null_mut();
        self.len += 1;
        true
    }

    /// A contact already written (index < len).
    pub fn get_mut(&mut self, i: usize) -> &mut dContactGeom {
        assert!(i < self.len, "contact index {i} out of range");
        self.slot(i)
    }

    /// Forgets contacts from index `n` on (used by contact merging).
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }

    fn slot(&mut self, i: usize) -> &mut dContactGeom {
        debug_assert!(i < self.max);
        // SAFETY: i < max, and the constructor's contract covers max records.
        unsafe { &mut *(self.base.add(i * self.stride) as *mut dContactGeom) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zero() -> dContactGeom {
        unsafe { std::mem::zeroed() }
    }

    #[test]
    fn sink_respects_max_and_flags() {
        let mut buf = [zero(); 4];
        let mut s = ContactSink::from_slice(&mut buf, 2 | CONTACTS_UNIMPORTANT);
        assert!(s.unimportant());
        assert!(s.push(Contact::new([1.0, 2.0, 3.0], [0.0, 0.0, 1.0], 0.5)));
        assert!(s.push(Contact::new([0.0; 3], [1.0, 0.0, 0.0], 0.1)));
        assert!(!s.push(Contact::new([0.0; 3], [1.0, 0.0, 0.0], 0.1)), "max is 2");
        assert_eq!(s.len(), 2);
        assert_eq!(buf[0].pos[2], 3.0);
        assert_eq!(buf[1].side1, -1);
    }
}
