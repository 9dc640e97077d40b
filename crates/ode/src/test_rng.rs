//! The xorshift generator the unit tests draw their random cases from:
//! deterministic, so a failing case repeats, and without a dependency.

pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.bits() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [-1, 1).
    pub fn signed(&mut self) -> f64 {
        self.unit() * 2.0 - 1.0
    }

    /// Uniform in [-a, a).
    pub fn sym(&mut self, a: f64) -> f64 {
        self.signed() * a
    }

    /// An index below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.signed() + 1.0) * 0.5 * n as f64) as usize % n
    }
}
