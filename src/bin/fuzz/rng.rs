//! The inputs' only source of chance: a seeded PRNG, so that a seed names its inputs and a
//! finding can be reproduced with `--seed` and `--target`.

use std::cell::Cell;

/// splitmix64: tiny, deterministic, every seed (0 included) gives a full-period stream.
pub(crate) struct Rng(pub(crate) Cell<u64>);

impl Rng {
    pub(crate) fn next(&self) -> u64 {
        self.0.set(self.0.get().wrapping_add(0x9E37_79B9_7F4A_7C15));
        let mut z = self.0.get();
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub(crate) fn chance(&self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    pub(crate) fn pick<'a, T>(&self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

pub(crate) fn rng_pick_str<'a>(rng: &Rng, items: &'a [String]) -> &'a str {
    items[rng.below(items.len())].as_str()
}
