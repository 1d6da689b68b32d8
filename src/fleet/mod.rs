//! Fleet views: what one node publishes to a scheduler (labels, metrics,
//! package-manager hints) and what many nodes' cards say together (`fleet`).

pub mod lab;
pub mod node;
pub mod output;
pub mod read;
pub mod render;
pub mod time;

/// Map over the nodes on every core, keeping the order.
pub(crate) fn par_map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> U + Sync) -> Vec<U> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 8);
    let chunk = items.len().div_ceil(threads).max(1);
    let f = &f;
    std::thread::scope(|s| {
        let hs: Vec<_> = items
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(f).collect::<Vec<U>>()))
            .collect();
        hs.into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}
