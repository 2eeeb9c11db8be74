//! `rnsfhe bench arith`: NTT per size and backend.

use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::ntt::NttTable;
use rnsfhe_math::sample::Csprng;
use rnsfhe_math::Result;

use crate::table::Table;
use crate::timing::{human, Budget};

/// Forward and inverse NTT for n = 2^12..2^16 with a 60-bit and a 49-bit prime.
fn ntt_table(budget: &Budget, sizes: &[usize]) -> Result<()> {
    let mut table = Table::new(&["n", "prime", "forward", "inverse"]);
    let mut rng = Csprng::from_seed([1; 32]);
    for &n in sizes {
        for bits in [60u32, 49] {
            let q = Modulus::new(ntt_primes(bits, 2 * n as u64, 1, &[])?[0])?;
            let t = NttTable::new(q, n)?;
            let a = rng.uniform_poly(&[q], n);
            let mut b = a.clone();
            let fwd = budget.seconds_per_call(|| {
                b.copy_from_slice(&a);
                let _ = std::hint::black_box(t.forward(&mut b));
            });
            let inv = budget.seconds_per_call(|| {
                b.copy_from_slice(&a);
                let _ = std::hint::black_box(t.inverse(&mut b));
            });
            table.row(vec![format!("2^{}", n.trailing_zeros()), format!("{bits}-bit"), human(fwd), human(inv)]);
        }
    }
    table.print();
    Ok(())
}

/// The full tables.
pub fn run(budget: &Budget) -> Result<()> {
    println!("## NTT, one thread (times include a copy of the input)\n");
    ntt_table(budget, &[1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16])
}

/// The short version for the demo.
pub fn run_summary(budget: &Budget) -> Result<()> {
    ntt_table(budget, &[1 << 14])
}
