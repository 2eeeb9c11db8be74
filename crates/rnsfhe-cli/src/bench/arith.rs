//! `rnsfhe bench arith`: the NTT per size and backend, and FastBconv vs FHBE as in Vollmer et al. (ARITH 2023) (Table I,
//! Fig. 1).

use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::ntt::{available_backends, NttTable};
use rnsfhe_math::rns::{BaseConverter, FastBaseConverter, FhbeConverter, RnsBasis};
use rnsfhe_math::sample::Csprng;
use rnsfhe_math::Result;

use crate::report::{Plot, Report, Scale};
use crate::table::Table;
use crate::timing::{human, Budget};

/// Forward and inverse NTT with a 60-bit and a 49-bit prime, every backend this CPU has.
fn ntt_table(budget: &Budget, sizes: &[usize], rep: &mut Report) -> Result<()> {
    let mut table = Table::new(&["n", "prime", "backend", "forward", "inverse"]);
    let mut plot = Plot::time(
        "ntt",
        "NTT per backend (forward, one thread)",
        "n",
        Scale::Log2Power,
        "One NTT-friendly prime of 60 or 49 bits; times include a copy of the input.",
    );
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
                plot.series_mut(&format!("{}, {bits}-bit q", backend.name()))
                    .push(n as f64, fwd);
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
    rep.table(&table);
    rep.plot(plot);
    Ok(())
}

/// One Vollmer et al. (ARITH 2023) configuration: k moduli of w bits, the values of c to try, and the paper's figures.
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
        cs: &[2, 3, 6, 9, 18, 27],
        paper: "vs FBE k=53: -53% time, -71% storage",
    },
    Config {
        k: 56,
        w: 29,
        cs: &[2, 4, 7, 8, 14, 28],
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

/// FastBconv vs FHBE per coefficient and precomputed bytes (Vollmer et al. (ARITH 2023) Table I and Fig. 1): the target
/// base has as many moduli as the source, of the same width.
fn base_extension_table(budget: &Budget, configs: &[Config], rep: &mut Report) -> Result<()> {
    let n = 1 << 12;
    let mut rng = Csprng::from_seed([2; 32]);
    let caption = "Vollmer et al. (ARITH 2023) Table I and Fig. 1 style: k source moduli of w bits to k target moduli of w \
                   bits, batch of 4096 coefficients, one thread; c = 1 is FBE (one block of k moduli), \
                   c > 1 is FHBE with k = r x c.";
    let mut time_plot = Plot::time(
        "base_extension_time",
        "Base extension: FBE (c = 1) vs FHBE, time per coefficient",
        "c (moduli per block)",
        Scale::Log2Plain,
        caption,
    );
    let mut storage_plot = Plot {
        name: "base_extension_storage".into(),
        title: "Base extension: precomputed storage".into(),
        y_label: "precomputed bytes".into(),
        y_scale: Scale::Bytes,
        ..time_plot.clone()
    };
    let mut table = Table::new(&[
        "k x w",
        "batch",
        "algorithm",
        "time / coeff",
        "vs FBE",
        "precomputed",
        "vs FBE",
        "Vollmer et al. (ARITH 2023) (i7-9850H, GMP)",
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
        let label = format!("k x w = {} x {} bits", cfg.k, cfg.w);
        time_plot.series_mut(&label).push(1.0, t_fbe);
        storage_plot.series_mut(&label).push(1.0, b_fbe as f64);
        table.row(vec![
            shape.clone(),
            n.to_string(),
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
            time_plot.series_mut(&label).push(c as f64, t);
            storage_plot.series_mut(&label).push(c as f64, b as f64);
            table.row(vec![
                shape.clone(),
                n.to_string(),
                format!("FHBE c={c}"),
                human(t),
                format!("{:.2}", t / t_fbe),
                format!("{b} B"),
                format!("{:.2}", b as f64 / b_fbe as f64),
                String::new(),
            ]);
        }
    }
    rep.table(&table);
    rep.plot(time_plot);
    rep.plot(storage_plot);
    Ok(())
}

/// The full tables.
pub fn run(budget: &Budget, rep: &mut Report) -> Result<()> {
    rep.text("## NTT, one thread (times include a copy of the input)\n");
    ntt_table(budget, &[1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16], rep)?;
    rep.text("## Base extension: FastBconv (Bajard et al. (SAC 2016) eq. (2)) vs FHBE (Vollmer et al. (ARITH 2023) Alg. 1), batch of 4096, one thread\n");
    base_extension_table(budget, &PAPER_003, rep)
}

/// The short version for the demo (stdout only).
pub fn run_summary(budget: &Budget) -> Result<()> {
    let mut rep = Report::stdout_only();
    ntt_table(budget, &[1 << 14], &mut rep)?;
    base_extension_table(budget, &PAPER_003[1..2], &mut rep)
}
