//! `rnsfhe bench arith`: the NTT per size and backend, and FastBconv vs FHBE as in paper 003 (Table I,
//! Fig. 1).

use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::ntt::{available_backends, NttTable};
use rnsfhe_math::rns::{BaseConverter, FastBaseConverter, FhbeConverter, RnsBasis};
use rnsfhe_math::sample::Csprng;
use rnsfhe_math::Result;

use crate::table::Table;
use crate::timing::{human, Budget};

/// Forward and inverse NTT with a 60-bit and a 49-bit prime, every backend this CPU has.
fn ntt_table(budget: &Budget, sizes: &[usize]) -> Result<()> {
    let mut table = Table::new(&["n", "prime", "backend", "forward", "inverse"]);
    let mut rng = Csprng::from_seed([1; 32]);
    for &n in sizes {
        for bits in [60u32, 49] {
            let q = Modulus::new(ntt_primes(bits, 2 * n as u64, 1, &[])?[0])?;
            let a = rng.uniform_poly(&[q], n);
            for backend in available_backends(&q) {
                let t = NttTable::with_backend(q, n, backend)?;
                let mut b = a.clone();
                let fwd = budget.seconds_per_call(|| {
                    b.copy_from_slice(&a);
                    let _ = std::hint::black_box(t.forward(&mut b));
                });
                let inv = budget.seconds_per_call(|| {
                    b.copy_from_slice(&a);
                    let _ = std::hint::black_box(t.inverse(&mut b));
                });
                table.row(vec![
                    format!("2^{}", n.trailing_zeros()),
                    format!("{bits}-bit"),
                    backend.name().to_string(),
                    human(fwd),
                    human(inv),
                ]);
            }
        }
    }
    table.print();
    Ok(())
}

/// One paper 003 configuration: k moduli of w bits, the values of c to try, and the paper's figures.
struct Config {
    k: usize,
    w: u32,
    cs: &'static [usize],
    paper: &'static str,
}

const PAPER_003: [Config; 6] = [
    Config {
        k: 12,
        w: 62,
        cs: &[2, 3, 4, 6],
        paper: "FBE 2.74 µs; c=6 1.96 µs (-28%); storage c=3 -46%",
    },
    Config {
        k: 26,
        w: 30,
        cs: &[2, 13],
        paper: "FBE 10.21 µs; c=13 4.26 µs (-58%); storage c=2 -43%",
    },
    Config {
        k: 25,
        w: 62,
        cs: &[5],
        paper: "FBE 9.53 µs; c=5 6.61 µs (-30%); storage -61%",
    },
    Config {
        k: 53,
        w: 30,
        cs: &[],
        paper: "FBE baseline of Fig. 1",
    },
    Config {
        k: 54,
        w: 30,
        cs: &[9],
        paper: "vs FBE k=53: -53% time, -71% storage",
    },
    Config {
        k: 56,
        w: 29,
        cs: &[7],
        paper: "vs FBE k=53: best c for k=56",
    },
];

/// Time per coefficient of a conversion on a batch of n coefficients.
fn per_coefficient(budget: &Budget, conv: &dyn BaseConverter, input: &[u64], n: usize) -> f64 {
    let mut out = vec![0u64; conv.target().len() * n];
    budget.seconds_per_call(|| {
        let _ = std::hint::black_box(conv.convert(input, &mut out));
    }) / n as f64
}

/// FastBconv vs FHBE per coefficient and precomputed bytes (paper 003 Table I and Fig. 1): the target
/// base has as many moduli as the source, of the same width.
fn base_extension_table(budget: &Budget, configs: &[Config]) -> Result<()> {
    let n = 1 << 12;
    let mut rng = Csprng::from_seed([2; 32]);
    let mut table = Table::new(&[
        "k x w",
        "algorithm",
        "time / coeff",
        "vs FBE",
        "precomputed",
        "vs FBE",
        "paper 003 (i7-9850H, GMP)",
    ]);
    for cfg in configs {
        let primes = ntt_primes(cfg.w, 2, 2 * cfg.k, &[])?;
        let src = RnsBasis::new(&primes[..cfg.k])?;
        let dst = RnsBasis::new(&primes[cfg.k..])?;
        let input = rng.uniform_poly(src.moduli(), n);
        let fbe = FastBaseConverter::new(&src, &dst);
        let t_fbe = per_coefficient(budget, &fbe, &input, n);
        let b_fbe = fbe.precomputed_bytes();
        let shape = format!("{} x {}", cfg.k, cfg.w);
        table.row(vec![
            shape.clone(),
            "FBE".into(),
            human(t_fbe),
            "1.00".into(),
            format!("{b_fbe} B"),
            "1.00".into(),
            cfg.paper.into(),
        ]);
        for &c in cfg.cs {
            let fhbe = FhbeConverter::new(&src, &dst, c)?;
            let t = per_coefficient(budget, &fhbe, &input, n);
            let b = fhbe.precomputed_bytes();
            table.row(vec![
                shape.clone(),
                format!("FHBE c={c}"),
                human(t),
                format!("{:.2}", t / t_fbe),
                format!("{b} B"),
                format!("{:.2}", b as f64 / b_fbe as f64),
                String::new(),
            ]);
        }
    }
    table.print();
    Ok(())
}

/// The full tables.
pub fn run(budget: &Budget) -> Result<()> {
    println!("## NTT, one thread (times include a copy of the input)\n");
    ntt_table(budget, &[1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16])?;
    println!("## Base extension: FastBconv (paper 000 eq. (2)) vs FHBE (paper 003 Alg. 1), batch of 4096, one thread\n");
    base_extension_table(budget, &PAPER_003)
}

/// The short version for the demo.
pub fn run_summary(budget: &Budget) -> Result<()> {
    ntt_table(budget, &[1 << 14])?;
    base_extension_table(budget, &PAPER_003[1..2])
}
