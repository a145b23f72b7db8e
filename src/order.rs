//! One stable sort for the whole crate. `sort_by_key` is generic over the items, the key and
//! the closure, so each caller built its own copy of the standard library's sort: eight of
//! them, 25 KB of the wasm. Here the sort runs once, on indices through a `dyn` comparison,
//! and the items are then moved into that order.

use std::cmp::Ordering;

/// Sorts `items` by `key`, equal keys in their order (as `slice::sort_by_key`).
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` by `compare`, equal items in their order (as `slice::sort_by`).
pub fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    let order = order(items.len(), &|a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|at| slots[at].take()));
}

// Never inlined: a copy in each caller would be the copies this module removes.
#[inline(never)]
fn order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_library_does_ties_in_order() {
        let items: Vec<(u8, usize)> = [3, 1, 3, 0, 1, 2, 3, 0, 2, 1]
            .into_iter()
            .enumerate()
            .map(|(at, key)| (key, at))
            .collect();
        let mut ours = items.clone();
        sort_by_key(&mut ours, |&(key, _)| std::cmp::Reverse(key));
        let mut std = items.clone();
        std.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        assert_eq!(ours, std);
        let mut empty: Vec<String> = Vec::new();
        sort_by(&mut empty, |a, b| a.cmp(b));
        assert!(empty.is_empty());
    }
}
