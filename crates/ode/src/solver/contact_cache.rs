//! The contacts' λ of a world's previous fast step (QuickStep or Step),
//! kept between steps to warm start the next one. Hosts recreate contact
//! joints every step, so a contact is recognised by its two geoms and its
//! position. Both fast solvers read it and fill it; it never touches
//! `dRand` and does not depend on the thread count.

/// Two contacts of the same geom pair at consecutive steps are taken to be
/// the same contact when their positions are closer than this.
pub const CONTACT_MATCH_DISTANCE: f64 = 1e-2;

/// One contact's λ (normal row, then the friction rows) at the end of a
/// step, keyed by its geoms and position.
#[derive(Clone, Copy, Debug)]
pub struct CachedContact {
    g1: usize,
    g2: usize,
    pos: [f64; 3],
    lambda: [f64; 3],
}

impl CachedContact {
    /// The contact between geoms `g1` and `g2` at `pos` and its λ (normal
    /// row, then the friction rows; 0 for rows it does not have).
    pub fn new(g1: usize, g2: usize, pos: [f64; 3], lambda: [f64; 3]) -> CachedContact {
        CachedContact { g1, g2, pos, lambda }
    }
}

/// The contacts' λ of a world's previous fast QuickStep, found by geom
/// pair through a hash table: `heads` (a power of two, at least twice the
/// entries) holds 1 + the last entry of each pair's chain, `next` links
/// the entries of one pair. A pair's contacts all come from one island,
/// stored in the island's order, so a chain's content and order do not
/// depend on which thread stepped which island; a lookup therefore finds
/// the same entry at any thread count.
#[derive(Default)]
pub struct ContactCache {
    entries: Vec<CachedContact>,
    next: Vec<u32>,
    heads: Vec<u32>,
}

/// Bucket of a geom pair (Fibonacci hashing of the two addresses).
#[inline]
fn pair_bucket(g1: usize, g2: usize, mask: usize) -> usize {
    let h = (g1 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (g2 as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> 32) as usize & mask
}

impl ContactCache {
    /// The head of the chain holding pair (g1, g2)'s entries (0: none).
    /// A pair's contacts come one after another, so callers reuse it.
    pub(crate) fn chain(&self, g1: usize, g2: usize) -> u32 {
        if self.entries.is_empty() {
            return 0;
        }
        self.heads[pair_bucket(g1, g2, self.heads.len() - 1)]
    }

    /// The previous λ of the contact between `g1` and `g2` nearest to
    /// `pos`, within `CONTACT_MATCH_DISTANCE` (the first of equally near
    /// ones in chain order), along the chain starting at `head` (from
    /// `chain`).
    pub(crate) fn lookup_in(&self, head: u32, g1: usize, g2: usize, pos: &[f64; 3]) -> Option<[f64; 3]> {
        let mut best = None;
        let mut best_d2 = CONTACT_MATCH_DISTANCE * CONTACT_MATCH_DISTANCE;
        let mut k = head;
        while k != 0 {
            let e = &self.entries[k as usize - 1];
            if (e.g1, e.g2) == (g1, g2) {
                let d2 = (0..3).map(|c| (e.pos[c] - pos[c]) * (e.pos[c] - pos[c])).sum::<f64>();
                if d2 < best_d2 {
                    best_d2 = d2;
                    best = Some(e.lambda);
                }
            }
            k = self.next[k as usize - 1];
        }
        best
    }

    /// The previous λ of the contact between `g1` and `g2` nearest to
    /// `pos` (see `lookup_in`).
    pub fn lookup(&self, g1: usize, g2: usize, pos: &[f64; 3]) -> Option<[f64; 3]> {
        self.lookup_in(self.chain(g1, g2), g1, g2, pos)
    }

    /// Replaces the cache by the contacts the islands of this step stored
    /// in their solvers' lists (which are emptied), in island order.
    pub fn replace_from<'a>(&mut self, lists: impl IntoIterator<Item = &'a mut Vec<CachedContact>>) {
        self.entries.clear();
        for fresh in lists {
            if self.entries.is_empty() {
                // The first island buffer's contacts are taken whole (its
                // buffer gets the old, emptied one): no copy of ~2000
                // entries a step when one thread steps every island.
                std::mem::swap(&mut self.entries, fresh);
            } else {
                self.entries.append(fresh);
            }
        }
        let size = (2 * self.entries.len()).next_power_of_two().max(16);
        self.heads.clear();
        self.heads.resize(size, 0);
        self.next.clear();
        for (k, e) in self.entries.iter().enumerate() {
            let b = pair_bucket(e.g1, e.g2, size - 1);
            self.next.push(self.heads[b]);
            self.heads[b] = k as u32 + 1;
        }
    }
}

