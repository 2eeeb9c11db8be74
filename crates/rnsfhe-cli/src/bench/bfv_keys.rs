//! Key truncation (Bajard et al. (SAC 2016) section 4.6): the relinearisation key without its i k zero entries, its
//! size in bytes and in memory against the full key, and the noise it costs.

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::rlwe::{KeySwitching, RelinKey};
use rnsfhe::serialize::KeyBytes;
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use crate::report::Report;
use crate::table::Table;

/// Bytes the key occupies in memory (residues of k0 and k1).
fn memory(rlk: &RelinKey) -> usize {
    rlk.key()
        .parts()
        .iter()
        .map(|(a, b)| 8 * (a.residues().len() + b.residues().len()))
        .sum()
}

/// n = 2^13, k = 13 moduli of 30 bits, t = 2 (Bajard et al. (SAC 2016) Table 1's row), truncation i = 0, 1, 2, 4, 8.
pub fn run(rng: &mut Csprng, rep: &mut Report) -> Result<()> {
    rep.text("\n### Bajard et al. (SAC 2016) section 4.6: relinearisation key truncation, n = 2^13, k = 13 x 30 bits, t = 2\n");
    let mut table = Table::new(&[
        "i (zero columns per row)",
        "key bytes (serialised)",
        "saved",
        "key in memory",
        "saved",
        "noise budget after one mul + relin",
    ]);
    let mut full = None;
    for i in [0usize, 1, 2, 4, 8] {
        let params = BfvParameters::paper000(1 << 13, 13, 30, 2)
            .key_switching(KeySwitching {
                truncation: i,
                ..KeySwitching::default()
            })
            .build()?;
        let ctx = BfvContext::new(params)?;
        let (sk, pk) = ctx.keygen(rng)?;
        let rlk = ctx.relin_key(&sk, rng)?;
        let (bytes, mem) = (ctx.relin_key_to_bytes(&rlk).len(), memory(&rlk));
        let (b0, m0) = *full.get_or_insert((bytes, mem));
        let a = ctx.encrypt(&ctx.encode_coefficients(&[1, 0, 1])?, &pk, rng)?;
        let budget = ctx.noise_budget(&ctx.multiply(&a, &a, &rlk)?, &sk)?;
        let pct = |x: usize, of: usize| format!("{:.0}%", 100.0 * (of - x) as f64 / of as f64);
        table.row(vec![
            i.to_string(),
            format!("{:.2} MB", bytes as f64 / 1e6),
            pct(bytes, b0),
            format!("{:.2} MB", mem as f64 / 1e6),
            pct(mem, m0),
            format!("{budget} bits"),
        ]);
    }
    rep.table(&table);
    rep.text(
        "Row j of the truncated key is zero on the i limbs after j (Bajard et al. (SAC 2016) section 4.6): it is kept \
         and serialised without them (k0 and k1 in memory, k0 in bytes, k1 being a seed), i k n words \
         less each. The paper bounds the extra noise by delta k 2^(nu (i + 1)) B_err.",
    );
    Ok(())
}
