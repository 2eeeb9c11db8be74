//! Bajard et al. (HPR-FV, ePrint 2019/500) (HPR-FV) against BEHZ and HPS: Fig. 2 (decryption, multiplication with and without
//! relinearisation, one thread), Tables 1-2 (NTTs counted in the code beside the paper's formulas)
//! and Table 3 (measured squaring depths).

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::hpr::{depth, HprContext, HprParameters, Relinearization};
use rnsfhe::params::Security;
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use crate::report::Report;
use crate::table::Table;
use crate::timing::{human, Budget};

/// Table 3: (log2 n, K_RNS, bits, k, d, paper depths HPR / HPS / BEHZ).
pub const TABLE3: [(u32, usize, u32, usize, usize, [u32; 3]); 4] = [
    (13, 5, 55, 1, 5, [15, 16, 15]),
    (14, 9, 61, 3, 3, [32, 32, 31]),
    (15, 18, 61, 3, 6, [64, 64, 64]),
    (16, 36, 61, 3, 12, [125, 125, 124]),
];

struct Hpr {
    ctx: std::sync::Arc<HprContext>,
    sk: rnsfhe::hpr::HprSecretKey,
    pk: rnsfhe::hpr::HprPublicKey,
    rlk: rnsfhe::hpr::HprRelinKey,
}

fn hpr(log_n: u32, bits: u32, k: usize, d: usize, rng: &mut Csprng) -> Result<Hpr> {
    let p = HprParameters::new(
        1 << log_n,
        2,
        k,
        d,
        bits,
        8.0,
        Security::InsecureResearchOnly,
    )?;
    let ctx = HprContext::new(&p)?;
    let sk = ctx.secret_key(rng)?;
    let pk = ctx.public_key(&sk, rng)?;
    let rlk = ctx.relin_key(&sk, Relinearization::PerResidue, rng)?;
    Ok(Hpr { ctx, sk, pk, rlk })
}

fn bfv(
    log_n: u32,
    kk: usize,
    bits: u32,
    mul: Multiplication,
) -> Result<std::sync::Arc<BfvContext>> {
    let dec = match mul {
        Multiplication::Hps => Decryption::Hps,
        Multiplication::Behz => Decryption::Gamma,
    };
    BfvContext::new(
        BfvParameters::paper000(1 << log_n, kk, bits, 2)
            .multiplication(mul)
            .decryption(dec)
            .build()?,
    )
}

fn random_bits(n: usize, rng: &mut Csprng) -> Vec<u64> {
    (0..n).map(|_| rng.next_u64() & 1).collect()
}

/// Fig. 2 and Tables 1-2 at Table 3's parameters, n = 2^13..2^`max_log_n`.
fn timings(budget: &Budget, rng: &mut Csprng, max_log_n: u32, rep: &mut Report) -> Result<()> {
    rep.text(
        "\n### Bajard et al. (HPR-FV, ePrint 2019/500) Fig. 2: HPR vs BEHZ vs HPS (Table 3 parameters, t = 2, sigma = 8, one thread)\n",
    );
    let mut table = Table::new(&[
        "n",
        "method",
        "moduli",
        "decrypt",
        "mul (no relin.)",
        "mul + relin.",
        "dec. speed-up of HPR",
        "mul+relin speed-up of HPR",
    ]);
    let mut counts = Table::new(&[
        "n",
        "k x d (K_RNS)",
        "HPR dec. NTTs: counted / paper 2k",
        "HPR mul+relin NTTs: counted / paper (2k+1)(d(7+k)+2)",
        "BEHZ, HPS mul NTTs: paper K^2+16K+7",
    ]);
    for &(log_n, kk, bits, k, d, _) in TABLE3.iter().filter(|r| r.0 <= max_log_n) {
        let n = 1usize << log_n;
        let h = hpr(log_n, bits, k, d, rng)?;
        let m = random_bits(n, rng);
        let a = h.ctx.encrypt(&h.pk, &m, rng)?;
        let b = h.ctx.encrypt(&h.pk, &m, rng)?;
        depth::reset_ntt_count();
        h.ctx.decrypt(&h.sk, &a)?;
        let (f, i) = depth::ntt_count();
        let dec_ntts = f + i;
        depth::reset_ntt_count();
        h.ctx.mul(&a, &b, &h.rlk)?;
        let (f, i) = depth::ntt_count();
        let mul_ntts = f + i;
        counts.row(vec![
            format!("2^{log_n}"),
            format!("{k} x {d} ({kk})"),
            format!("{dec_ntts} / {}", 2 * k),
            format!("{mul_ntts} / {}", (2 * k + 1) * (d * (7 + k) + 2)),
            format!("{}", kk * kk + 16 * kk + 7),
        ]);
        let hd = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(h.ctx.decrypt(&h.sk, &a));
        });
        let hm = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(h.ctx.mul_no_relin(&a, &b));
        });
        let hr = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(h.ctx.mul(&a, &b, &h.rlk));
        });
        let mut rows = vec![("HPR", format!("{bits} x {k} x {d} digits"), hd, hm, hr)];
        for mul in [Multiplication::Behz, Multiplication::Hps] {
            let ctx = bfv(log_n, kk, bits, mul)?;
            let (sk, pk) = ctx.keygen(rng)?;
            let rlk = ctx.relin_key(&sk, rng)?;
            let pt = ctx.plaintext_from_coefficients(&m)?;
            let ca = ctx.encrypt(&pt, &pk, rng)?;
            let cb = ctx.encrypt(&pt, &pk, rng)?;
            let method = ctx.params().decryption();
            let dd = budget.seconds_per_call(|| {
                let _ = std::hint::black_box(ctx.decrypt_with(&ca, &sk, method));
            });
            let dm = budget.seconds_per_call(|| {
                let _ = std::hint::black_box(ctx.multiply_no_relin(&ca, &cb));
            });
            let dr = budget.seconds_per_call(|| {
                let _ = std::hint::black_box(ctx.multiply(&ca, &cb, &rlk));
            });
            let name = if mul == Multiplication::Behz {
                "BEHZ"
            } else {
                "HPS"
            };
            rows.push((name, format!("{bits} x {kk}"), dd, dm, dr));
        }
        for (name, moduli, dd, dm, dr) in &rows {
            table.row(vec![
                format!("2^{log_n}"),
                (*name).to_string(),
                moduli.clone(),
                human(*dd),
                human(*dm),
                human(*dr),
                format!("{:.1}x", dd / hd),
                format!("{:.2}x", dr / hr),
            ]);
        }
    }
    rep.table(&table);
    rep.text(
        "Bajard et al. (HPR-FV, ePrint 2019/500) at n = 2^16 (i7-6700K, NFLlib): HPR decryption 8.6x faster than BEHZ and 8.0x than \
         HPS; multiplication with relinearisation up to 1.6x and 2.0x. BEHZ and HPS here relinearise \
         by RNS digits without special modulus (Bajard et al. (SAC 2016)'s layout), as the paper's comparison does.\n",
    );
    rep.table(&counts);
    Ok(())
}

/// Table 3: squaring depths (HPR here; BEHZ and HPS through the BFV depth measurement).
fn depths(rng: &mut Csprng, max_log_n: u32, rep: &mut Report) -> Result<()> {
    rep.text("\n### Bajard et al. (HPR-FV, ePrint 2019/500) Table 3: measured squaring depth, t = 2, sigma = 8 (100-bit sets)\n");
    let mut table = Table::new(&["n", "log q", "HPR (paper)", "HPS (paper)", "BEHZ (paper)"]);
    for &(log_n, kk, bits, k, d, paper) in TABLE3.iter().filter(|r| r.0 <= max_log_n) {
        let n = 1usize << log_n;
        let max = paper[0] + 4;
        let h = hpr(log_n, bits, k, d, rng)?;
        let m = random_bits(n, rng);
        let hd = h
            .ctx
            .measure_squaring_depth(&h.sk, &h.pk, &h.rlk, &m, max, rng)?;
        let mut got = vec![hd];
        for mul in [Multiplication::Hps, Multiplication::Behz] {
            let ctx = bfv(log_n, kk, bits, mul)?;
            let (sk, pk) = ctx.keygen(rng)?;
            let rlk = ctx.relin_key(&sk, rng)?;
            let pt = ctx.plaintext_from_coefficients(&m)?;
            let method = ctx.params().decryption();
            let levels = ctx.measure_squaring_depth(&sk, &pk, &rlk, &pt, method, max, rng)?;
            got.push(levels.iter().take_while(|l| l.correct).count() as u32);
        }
        table.row(vec![
            format!("2^{log_n}"),
            format!("{:.0}", h.ctx.params().log_q()),
            format!("{} ({})", got[0], paper[0]),
            format!("{} ({})", got[1], paper[1]),
            format!("{} ({})", got[2], paper[2]),
        ]);
    }
    rep.table(&table);
    Ok(())
}

/// Fig. 2, Tables 1-2 and Table 3 to n = 2^14, or 2^16 with `paper`.
pub fn run(budget: &Budget, rng: &mut Csprng, paper: bool, rep: &mut Report) -> Result<()> {
    let max = if paper { 16 } else { 14 };
    timings(budget, rng, max, rep)?;
    depths(rng, max, rep)
}
