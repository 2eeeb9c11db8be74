//! The share measurements of the multiparty tables (`multiparty`, `multiparty_refresh`): an
//! aggregate of shares, the time to add a share into an aggregation, and Lattigo's in-place
//! self-add, and a share's bytes.

use rnsfhe::multiparty::{Aggregator, Round, Share};
use rnsfhe::rlwe::KeyContext;
use rnsfhe::Result;

use crate::timing::Budget;

/// The sum of `shares` for `round` (the aggregate when they cover its parties).
pub(super) fn sum(kc: &dyn KeyContext, round: &Round, shares: &[&Share]) -> Result<Share> {
    let who: Vec<u32> = shares.iter().flat_map(|s| s.parties().to_vec()).collect();
    let mut agg = Aggregator::new(kc, round.clone(), &who)?;
    for s in shares {
        agg.add(s)?;
    }
    agg.finish()
}

/// Seconds to add `second` into an aggregation of `round` holding `first` (in place; the
/// aggregator and its first share are set up untimed).
pub(super) fn add_time(
    budget: &Budget,
    kc: &dyn KeyContext,
    round: &Round,
    first: &Share,
    second: &Share,
) -> f64 {
    let members: Vec<u32> = round.group().map_or_else(
        || [first.parties(), second.parties()].concat(),
        |g| g.members().to_vec(),
    );
    budget.seconds_per_prepared_call(
        || {
            let mut agg = Aggregator::new(kc, round.clone(), &members).ok();
            if let Some(a) = agg.as_mut() {
                sink(a.add(first));
            }
            agg
        },
        |agg| {
            if let Some(a) = agg.as_mut() {
                sink(a.add(second));
            }
        },
    )
}

/// Seconds to add a copy of `share` to itself in place (Lattigo's `AggregateShares(s, s, &s)`).
pub(super) fn double_time(budget: &Budget, share: &Share) -> f64 {
    let mut polys = share.polys().to_vec();
    budget.seconds_per_call(|| {
        for p in &mut polys {
            p.double_assign();
        }
        sink(&polys);
    })
}

/// Keeps a result from being optimised away, and drops it.
pub(super) fn sink<T>(x: T) {
    let _ = std::hint::black_box(x);
}

pub(super) fn bytes(s: &Share) -> usize {
    s.to_bytes().len()
}
