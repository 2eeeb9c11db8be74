//! `rnsfhe bench bgv`: BGV (Bajard et al. (SAC 2017), full RNS) against rnsfhe's BFV (HPS and BEHZ) at the default
//! 128-bit moduli, one thread: multiplication with relinearisation, and BGV's modulus switch.

use rnsfhe::bfv::{BfvContext, BfvParameters, Multiplication};
use rnsfhe::bgv::depth::DepthInputs;
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::{Error, Result};
use rnsfhe_math::sample::Csprng;

use crate::report::{moduli_shape, Report};
use crate::table::Table;
use crate::timing::{human, Budget};

/// BFV mul+relin at degree n by `mul` (t = 65537, default moduli): seconds per call.
fn bfv_mul(budget: &Budget, n: usize, mul: Multiplication, rng: &mut Csprng) -> Result<f64> {
    let ctx = BfvContext::new(
        BfvParameters::builder()
            .degree(n)
            .plain_modulus(65537)
            .multiplication(mul)
            .build()?,
    )?;
    let (sk, pk) = ctx.keygen(rng)?;
    let rlk = ctx.relin_key(&sk, rng)?;
    let v: Vec<u64> = (0..n as u64).map(|i| i % 65537).collect();
    let a = ctx.encrypt(&ctx.encode(&v)?, &pk, rng)?;
    let b = ctx.encrypt(&ctx.encode(&v)?, &pk, rng)?;
    Ok(budget.seconds_per_call(|| {
        let _ = std::hint::black_box(ctx.multiply(&a, &b, &rlk));
    }))
}

/// The table: per n, BGV's operations beside BFV's mul+relin.
pub fn run(budget: &Budget, rep: &mut Report) -> Result<()> {
    let threads = rnsfhe::num_threads();
    rnsfhe::set_num_threads(1)?;
    let result = table(budget, rep).and_then(|()| depth_table(rep));
    rnsfhe::set_num_threads(threads)?;
    result
}

/// Bajard et al. (SAC 2017) section 4.3: BGV's theoretical depth (no Montgomery, delta_R = n) beside the measured one.
fn depth_table(rep: &mut Report) -> Result<()> {
    rep.text("\n### BGV depth, Bajard et al. (SAC 2017) section 4.3 (t = 65537, default moduli, sigma = 3.2, B_key = 1)\n");
    let mut t = Table::new(&[
        "n",
        "q (+ P)",
        "levels",
        "theoretical depth",
        "measured depth",
    ]);
    let mut rng = Csprng::from_seed([6; 32]);
    for n in [1usize << 13, 1 << 14] {
        let params = BgvParameters::builder()
            .degree(n)
            .plain_modulus(65537)
            .build()?;
        let theory = DepthInputs::of(&params)?.depth();
        let shape = format!(
            "{} (+ {})",
            moduli_shape(params.moduli()),
            moduli_shape(params.special_moduli())
        );
        let levels = params.moduli().len();
        let ctx = BgvContext::new(params)?;
        t.row(vec![
            n.to_string(),
            shape,
            levels.to_string(),
            theory.to_string(),
            ctx.measured_depth(&mut rng)?.to_string(),
        ]);
    }
    rep.table(&t);
    rep.text(
        "Measured: squares of random slots, each relinearised and switched down one level, counted \
         while they decrypt right (a last square at level 0 without switching). The theory is a worst \
         case in infinity norms (delta_R = n), so it is at most the measurement.",
    );
    Ok(())
}

fn table(budget: &Budget, rep: &mut Report) -> Result<()> {
    rep.text("### BGV (Bajard et al. (SAC 2017)) against BFV: t = 65537, default 128-bit moduli, one thread\n");
    let mut t = Table::new(&[
        "n",
        "BGV q (+ P)",
        "BGV encrypt",
        "BGV decrypt+decode",
        "BGV mul+relin",
        "BGV mod switch",
        "BGV rotate",
        "BFV HPS mul+relin",
        "BFV BEHZ mul+relin",
        "BGV / BFV HPS (default moduli)",
    ]);
    let mut rng = Csprng::from_seed([5; 32]);
    // The default 128-bit moduli, then the shape OpenFHE's BGVRNS picks at its largest depth
    // (FIXEDMANUAL: 2 x 45 bits at n = 2^13, 6 x 45 at 2^14; bench/bgv_openfhe.py).
    let rows: [(usize, Option<usize>); 4] = [
        (1 << 13, None),
        (1 << 13, Some(2)),
        (1 << 14, None),
        (1 << 14, Some(6)),
    ];
    for (n, openfhe) in rows {
        let mut builder = BgvParameters::builder().degree(n).plain_modulus(65537);
        if let Some(k) = openfhe {
            builder = builder.moduli_bits(&vec![45; k]).special_moduli_bits(&[45]);
        }
        let params = builder.build()?;
        let shape = format!(
            "{} (+ {})",
            moduli_shape(params.moduli()),
            moduli_shape(params.special_moduli())
        );
        let ctx = BgvContext::new(params)?;
        let (sk, pk) = ctx.keygen(&mut rng)?;
        let rlk = ctx.relin_key(&sk, &mut rng)?;
        let gk = ctx.galois_keys(&sk, &[1], false, &mut rng)?;
        let v: Vec<u64> = (0..n as u64).map(|i| (i * 7 + 3) % 65537).collect();
        let pt = ctx.encode(&v)?;
        let a = ctx.encrypt(&pt, &pk, &mut rng)?;
        let b = ctx.encrypt(&pt, &pk, &mut rng)?;
        // Checked once: the product decrypts to the slot-wise square.
        let prod = ctx.multiply(&a, &b, &rlk)?;
        let got = ctx.decode(&ctx.decrypt(&ctx.mod_switch(&prod)?, &sk)?)?;
        if got.iter().zip(&v).any(|(g, x)| *g != x * x % 65537) {
            return Err(Error::Internal(
                "BGV bench: the product decrypts wrongly".into(),
            ));
        }
        let enc = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(ctx.encrypt(&pt, &pk, &mut rng));
        });
        let dec = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(ctx.decrypt(&a, &sk).and_then(|p| ctx.decode(&p)));
        });
        let mul = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(ctx.multiply(&a, &b, &rlk));
        });
        let ms = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(ctx.mod_switch(&prod));
        });
        let rot = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(ctx.rotate_rows(&a, 1, &gk));
        });
        let (hps, behz) = if openfhe.is_none() {
            (
                bfv_mul(budget, n, Multiplication::Hps, &mut rng)?,
                bfv_mul(budget, n, Multiplication::Behz, &mut rng)?,
            )
        } else {
            (f64::NAN, f64::NAN)
        };
        let cell = |x: f64| {
            if x.is_nan() {
                "-".to_string()
            } else {
                human(x)
            }
        };
        t.row(vec![
            n.to_string(),
            shape,
            human(enc),
            human(dec),
            human(mul),
            human(ms),
            human(rot),
            cell(hps),
            cell(behz),
            if hps.is_nan() {
                "-".into()
            } else {
                format!("{:.2}", mul / hps)
            },
        ]);
    }
    rep.table(&t);
    rep.text(
        "BGV's product is the tensor modulo Q (no base extension, no scaling) and relinearisation by \
         the shared RNS-digit key switching of t^-1 c_2 (one digit per prime, one special prime); BFV's \
         adds the extension to an auxiliary base and the scaling by t/Q. BGV's modulus switch \
         (Lemma 3 of Bajard et al. (SAC 2017)) follows a product in a circuit and is timed apart.",
    );
    Ok(())
}
