//! FNV-1a, 64 bits: the project's one small, stable hash. It fingerprints a checkpoint's
//! split of the search (`checkpoint.rs`) and stamps generated code with hashes of the
//! puzzle file and of the generator's sources (`generator/src/stamp.rs`).
//!
//! The build scripts reach this file through the stamp, which includes it with `#[path]`
//! so that they need no dependency: keep it free of dependencies and of `crate::` paths.

/// An FNV-1a hash being computed over bytes fed in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv1a64(u64);

impl Fnv1a64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// The hash of no bytes.
    pub const fn new() -> Fnv1a64 {
        Fnv1a64(Self::OFFSET_BASIS)
    }

    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    /// Feeds `value` as its eight little-endian bytes, so the hash is the same on every
    /// machine.
    pub fn write_u64(&mut self, value: u64) {
        self.write(&value.to_le_bytes());
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// As a `Hasher`, for hash maps keyed by short runs of bytes (the model's index of images
/// by their cells), where it is faster than the standard library's SipHash.
impl std::hash::Hasher for Fnv1a64 {
    fn write(&mut self, bytes: &[u8]) {
        Fnv1a64::write(self, bytes);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a64 {
    fn default() -> Self {
        Fnv1a64::new()
    }
}

/// The FNV-1a hash of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash = Fnv1a64::new();
    hash.write(bytes);
    hash.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published test vectors of FNV-1a 64, so that a stamp or checkpoint written
    /// before any change to this file still reads as the same hash.
    #[test]
    fn published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn feeding_in_pieces_is_feeding_at_once() {
        let mut pieces = Fnv1a64::new();
        pieces.write(b"foo");
        pieces.write(b"bar");
        assert_eq!(pieces.finish(), fnv1a64(b"foobar"));
        let mut word = Fnv1a64::default();
        word.write_u64(0x0102_0304_0506_0708);
        assert_eq!(word.finish(), fnv1a64(&[8, 7, 6, 5, 4, 3, 2, 1]));
    }
}
