//! Measured squaring depth and time per slot of FV (HPS) and BGV over Phi_m (Bajard et al. (SAC 2017) section 4.3,
//! Table 3 and Figs. 2-3 in spirit; not the paper's moduli widths).
//!
//! `cargo run --release --example any_m_depth -- --paper [N_MAX]`: Bajard et al. (SAC 2017)'s Table 3 (theoretical
//! depths of FV and BGV with and without Montgomery, measured ones for n <= N_MAX) and Figs. 2-3
//! (time per slot of one multiplication per reduction), see `support/any_m_paper.rs`;
//! `-- --paper N_MAX M...`: only the rows of the given m, without the figures; `-- --figs M...`:
//! Figs. 2-3 alone for the given m.
//!
//! `cargo run --release --example any_m_depth -- M K BITS T` with K ciphertext moduli of BITS bits
//! (one special modulus of 60 bits), plaintext modulus T (default 2), insecure research parameters.
//! FV: squarings until the checked decryption refuses or errs; BGV: square then switch the modulus,
//! beside the theoretical depth of section 4.3 (`bgv::depth`, delta_R = n ||F_m||_inf by Lemma 4).
#![allow(clippy::unwrap_used, clippy::expect_used)] // example: abort loudly

use std::time::Instant;

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::bgv::depth::DepthInputs;
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::params::Security;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::sample::Csprng;

#[path = "support/any_m_paper.rs"]
mod paper;

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--figs") {
        let ms: Vec<usize> = std::env::args()
            .skip(2)
            .map(|a| a.parse().expect("numeric m"))
            .collect();
        paper::figs_interleaved(&ms);
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("--paper") {
        let limit = std::env::args()
            .nth(2)
            .map_or(1024, |a| a.parse().expect("numeric n limit"));
        // Optional m after the limit: only those rows, without the figures.
        let only: Vec<usize> = std::env::args()
            .skip(3)
            .map(|a| a.parse().expect("numeric m"))
            .collect();
        paper::table3_and_figs(limit, &only);
        return;
    }
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numeric arguments"))
        .collect();
    let m = args.first().copied().unwrap_or(255);
    let k = args.get(1).copied().unwrap_or(6);
    let bits = args.get(2).copied().unwrap_or(50) as u32;
    let t = args.get(3).copied().unwrap_or(2) as u64;
    let widths = vec![bits; k];
    let mut rng = Csprng::from_seed([9; 32]);

    let fv = BfvParameters::builder()
        .cyclotomic_index(m)
        .plain_modulus(t)
        .moduli_bits(&widths)
        .special_moduli_bits(&[60])
        .multiplication(Multiplication::Hps)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BfvContext::new(fv).unwrap();
    let n = ctx.params().degree();
    let tm = Modulus::new(t).unwrap();
    let a: Vec<u64> = (0..n).map(|_| rng.uniform_mod(&tm)).collect();
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let pt = ctx.plaintext_from_coefficients(&a).unwrap();
    let c = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let reps = 5;
    let start = Instant::now();
    for _ in 0..reps {
        std::hint::black_box(ctx.multiply(&c, &c, &rlk).unwrap());
    }
    let fv_ms = start.elapsed().as_secs_f64() * 1e3 / reps as f64;
    let mut x = c.clone();
    let mut fv_depth = 0;
    while fv_depth < 64 {
        x = ctx.multiply(&x, &x, &rlk).unwrap();
        if ctx.decrypt_checked(&x, &sk, Decryption::Hps).is_err() {
            break;
        }
        fv_depth += 1;
    }

    let bgv = BgvParameters::builder()
        .cyclotomic_index(m)
        .plain_modulus(t)
        .moduli_bits(&widths)
        .special_moduli_bits(&[60])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let bgv_theory = DepthInputs::of(&bgv).unwrap().depth();
    let bctx = BgvContext::new(bgv).unwrap();
    let (bsk, bpk) = bctx.keygen(&mut rng).unwrap();
    let brlk = bctx.relin_key(&bsk, &mut rng).unwrap();
    let bpt = bctx.plaintext_from_coefficients(&a).unwrap();
    let bc = bctx.encrypt(&bpt, &bpk, &mut rng).unwrap();
    let start = Instant::now();
    for _ in 0..reps {
        std::hint::black_box(bctx.multiply(&bc, &bc, &brlk).unwrap());
    }
    let bgv_ms = start.elapsed().as_secs_f64() * 1e3 / reps as f64;
    let mut y = bc.clone();
    let mut bgv_depth = 0;
    while y.level() > 0 {
        y = bctx
            .mod_switch(&bctx.multiply(&y, &y, &brlk).unwrap())
            .unwrap();
        if bctx.decrypt(&y, &bsk).is_err() {
            break;
        }
        bgv_depth += 1;
    }
    let slots = ctx.slots().max(1);
    println!(
        "m = {m}, n = {n}, t = {t}, {k} x {bits}-bit moduli: slots {slots}; FV (HPS) depth {fv_depth}, \
         {fv_ms:.2} ms/mul, {:.2} us/slot; BGV depth {bgv_depth} (section 4.3 theory with Lemma 4's delta_R: {bgv_theory}), {bgv_ms:.2} ms/mul, {:.2} us/slot",
        fv_ms * 1e3 / slots as f64,
        bgv_ms * 1e3 / slots as f64
    );
}
