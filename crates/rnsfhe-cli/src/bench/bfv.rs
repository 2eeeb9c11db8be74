//! `rnsfhe bench bfv`: BFV operations at the peers' parameters (BEHZ and HPS side by side), Bajard et al. (SAC 2016)
//! Table 5 (decryption and multiplication by method, RNS vs multi-precision), Table 1 depths and the
//! m~ experiment of Fig. 1 (`--paper`).

use std::sync::Arc;

use rnsfhe::bfv::{BfvCiphertext, BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::rlwe::SecretKey;
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use super::bfv_mp::MultiPrecision;
use crate::report::{moduli_shape, Plot, Report, Scale};
use crate::table::Table;
use crate::timing::{human, Budget};

/// Best peers measured on another machine than this run's: a label naming the machine and the run,
/// then (n, mul+relin, decrypt+decode, rotate) in ms, one thread.
type PeerRun = (
    &'static str,
    [(usize, &'static str, &'static str, &'static str); 3],
);

/// The best peer per operation from two earlier runs of the peer scripts (../shared/peers), each on
/// its own machine: never this run's measurements, so the column header names the machine.
const PEER_RUNS: [PeerRun; 2] = [
    (
        "AMD EPYC, AVX2, 2 vCPU (peers/results-2026-11-23-avx2)",
        [
            (8192, "14.1 (OpenFHE)", "1.28 (OpenFHE)", "2.79 (OpenFHE)"),
            (16384, "80.7 (OpenFHE)", "5.18 (Lattigo)", "25.9 (SEAL)"),
            (32768, "480 (OpenFHE)", "16.5 (Lattigo)", "181 (OpenFHE)"),
        ],
    ),
    (
        "AMD EPYC with AVX-512 (another machine; bench/results/compare/)",
        [
            (8192, "8.1 (OpenFHE)", "0.55 (OpenFHE)", "1.77 (OpenFHE)"),
            (16384, "58.4 (OpenFHE)", "2.39 (OpenFHE)", "20.5 (SEAL)"),
            (32768, "338 (OpenFHE)", "12.0 (OpenFHE)", "138 (SEAL)"),
        ],
    ),
];

struct Fixture {
    ctx: Arc<BfvContext>,
    sk: SecretKey,
    a: BfvCiphertext,
    b: BfvCiphertext,
}

fn fixture(params: BfvParameters, rng: &mut Csprng) -> Result<Fixture> {
    let ctx = BfvContext::new(params)?;
    let (sk, pk) = ctx.keygen(rng)?;
    let n = ctx.params().degree();
    let t = ctx.params().plain_modulus();
    let values: Vec<i64> = (0..n as i64).map(|i| i % (t as i64).min(1 << 20)).collect();
    let pt = ctx.encode_coefficients(&values)?;
    let a = ctx.encrypt(&pt, &pk, rng)?;
    let b = ctx.encrypt(&pt, &pk, rng)?;
    Ok(Fixture { ctx, sk, a, b })
}

/// Operations at the peers' sizes (t = 65537, 128-bit default moduli), BEHZ and HPS.
fn peers_table(budget: &Budget, rng: &mut Csprng, sizes: &[usize], rep: &mut Report) -> Result<()> {
    rep.text("### BFV at the peers' parameters (t = 65537, 128-bit moduli, one thread)\n");
    let mut table = Table::new(&[
        "n",
        "t",
        "q bits (+ P bits)",
        "log q (+P)",
        "method",
        "encrypt",
        "decrypt+decode",
        "mul+relin",
        "rotate",
    ]);
    let mut peer_table = Table::new(&[
        "n",
        "best peer mul+relin / decrypt / rotate (ms)",
        "measured on (another run, another machine or load)",
    ]);
    for &n in sizes {
        for (machine, rows) in &PEER_RUNS {
            if let Some(p) = rows.iter().find(|p| p.0 == n) {
                peer_table.row(vec![
                    n.to_string(),
                    format!("{} / {} / {}", p.1, p.2, p.3),
                    (*machine).to_string(),
                ]);
            }
        }
    }
    for &n in sizes {
        for mul in [Multiplication::Hps, Multiplication::Behz] {
            let params = BfvParameters::builder()
                .degree(n)
                .plain_modulus(65537)
                .multiplication(mul)
                .build()?;
            let logs = format!("{:.0} (+{})", params.log_q(), params.special_moduli().len());
            let shape = format!(
                "{} (+ {})",
                moduli_shape(params.moduli()),
                moduli_shape(params.special_moduli())
            );
            let f = fixture(params, rng)?;
            let ctx = &f.ctx;
            let (_, pk) = ctx.keygen(rng)?;
            let rlk = ctx.relin_key(&f.sk, rng)?;
            let gk = ctx.galois_keys(&f.sk, &[1], false, rng)?;
            let pt = ctx.encode(&[1, 2, 3])?;
            let enc = budget.seconds_per_call(|| {
                let _ = std::hint::black_box(ctx.encrypt(&pt, &pk, &mut *rng));
            });
            let dec = budget.seconds_per_call(|| {
                let p = ctx.decrypt(&f.a, &f.sk);
                let _ = std::hint::black_box(p.and_then(|p| ctx.decode(&p)));
            });
            let mul_t = budget.seconds_per_call(|| {
                let _ = std::hint::black_box(ctx.multiply(&f.a, &f.b, &rlk));
            });
            let rot = budget.seconds_per_call(|| {
                let _ = std::hint::black_box(ctx.rotate_rows(&f.a, 1, &gk));
            });
            table.row(vec![
                n.to_string(),
                "65537".into(),
                shape,
                logs,
                format!("{mul:?}"),
                human(enc),
                human(dec),
                human(mul_t),
                human(rot),
            ]);
        }
    }
    rep.table(&table);
    rep.text(
        "Peer libraries were not measured in this run: their best figures below come from earlier runs \
         of ../shared/peers on the machine named, and compare with the table above only when that \
         machine is this one.\n",
    );
    rep.table(&peer_table);
    Ok(())
}

/// Bajard et al. (SAC 2016) Table 5 / Figs. 2–3: decryption by method and multiplication BEHZ vs HPS vs MP, t = 2^10,
/// nu = 30 (k = 3..53) and nu = 60 (k = 1..25).
fn table5(budget: &Budget, rng: &mut Csprng, max_log_n: u32, rep: &mut Report) -> Result<()> {
    rep.text("\n### Bajard et al. (SAC 2016) Table 5: decryption and multiplication, RNS vs multi-precision (t = 2^10)\n");
    let ks30 = [3usize, 6, 13, 26, 53];
    let ks60 = [1usize, 3, 6, 12, 25];
    let sizes = (max_log_n.saturating_sub(10) as usize).min(ks30.len());
    let caption = |nu: u32| {
        let ks = if nu == 30 { &ks30 } else { &ks60 };
        format!(
            "Bajard et al. (SAC 2016) Table 5 parameters: t = 2^10, k moduli of {nu} bits growing with n (k = {} for \
             n = 2^11..2^{max_log_n}), one thread.",
            ks[..sizes]
                .iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let mut plots = Vec::new();
    for nu in [30u32, 60] {
        plots.push((
            Plot::time(
                &format!("bfv_decrypt_nu{nu}"),
                &format!("BFV decryption by method, {nu}-bit moduli"),
                "n",
                Scale::Log2Power,
                &caption(nu),
            ),
            Plot::time(
                &format!("bfv_multiply_nu{nu}"),
                &format!("BFV multiplication (no relin.) by method, {nu}-bit moduli"),
                "n",
                Scale::Log2Power,
                &caption(nu),
            ),
        ));
    }
    let dec_labels = [
        "DecMP (big integers)",
        "Alg. 1 (gamma correction)",
        "Lemma 3 (power-of-two gamma)",
        "floating point",
        "HPS",
    ];
    let mul_labels = ["MultMP (big integers)", "BEHZ", "HPS"];
    let mut table = Table::new(&[
        "n",
        "t",
        "nu x k",
        "DecMP",
        "Alg. 1",
        "Lemma 3",
        "flp",
        "HPS dec",
        "dec speed-up (MP / Alg. 1)",
        "MultMP",
        "BEHZ mult",
        "HPS mult",
        "mult speed-up (MP / BEHZ)",
    ]);
    for (i, log_n) in (11..=max_log_n).enumerate() {
        let n = 1usize << log_n;
        for (j, (nu, k)) in [(30u32, ks30[i]), (60, ks60[i])].into_iter().enumerate() {
            let mut row = vec![n.to_string(), "2^10".into(), format!("{nu} x {k}")];
            let mut dec = Vec::new();
            let mut mult = Vec::new();
            let mut dec_alg1 = 0.0;
            let mut dec_mp = 0.0;
            for mul in [Multiplication::Behz, Multiplication::Hps] {
                let params = BfvParameters::paper000(n, k, nu, 1024)
                    .multiplication(mul)
                    .decryption(Decryption::Hps)
                    .build()?;
                let f = fixture(params, rng)?;
                let ctx = &f.ctx;
                if mul == Multiplication::Behz {
                    let mp = MultiPrecision::new(ctx)?;
                    dec_mp = budget.seconds_per_call(|| {
                        let _ = std::hint::black_box(mp.decrypt(&f.a, &f.sk));
                    });
                    row.push(human(dec_mp));
                    dec.push(dec_mp);
                    for m in [
                        Decryption::Gamma,
                        Decryption::PowerOfTwoGamma,
                        Decryption::FloatingPoint,
                        Decryption::Hps,
                    ] {
                        let s = budget.seconds_per_call(|| {
                            let _ = std::hint::black_box(ctx.decrypt_with(&f.a, &f.sk, m));
                        });
                        if m == Decryption::Gamma {
                            dec_alg1 = s;
                        }
                        dec.push(s);
                        row.push(human(s));
                    }
                    mult.push(budget.seconds_per_call(|| {
                        let _ = std::hint::black_box(mp.multiply_no_relin(&f.a, &f.b));
                    }));
                }
                mult.push(budget.seconds_per_call(|| {
                    let _ = std::hint::black_box(ctx.multiply_no_relin(&f.a, &f.b));
                }));
            }
            row.push(format!("{:.1}x", dec_mp / dec_alg1));
            row.extend(mult.iter().map(|&s| human(s)));
            row.push(format!("{:.1}x", mult[0] / mult[1]));
            table.row(row);
            let (dp, mp) = &mut plots[j];
            for (label, &s) in dec_labels.iter().zip(&dec) {
                dp.series_mut(label).push(n as f64, s);
            }
            for (label, &s) in mul_labels.iter().zip(&mult) {
                mp.series_mut(label).push(n as f64, s);
            }
        }
    }
    rep.table(&table);
    for (dp, mp) in plots {
        rep.plot(dp);
        rep.plot(mp);
    }
    rep.text(
        "\nMultiplication without relinearisation (S0–S4 / HPS steps 1–4 / NTT tensor in an exact \
         extension plus big-integer division and rounding). DecMP: CRT composition and round(t x / q) \
         with big integers. Paper (i7-4810MQ, NFLlib + GMP): decryption speed-ups 6.1..4.4 (nu = 30) and \
         20.4..5.6 (nu = 62), multiplication 4.3..1.7 and 3.6..1.9, n = 2^11..2^15.",
    );
    Ok(())
}

/// Runs the suite: peers' sizes, Table 5 (to 2^13, or 2^15 with `paper`), Table 1 and Fig. 1.
pub fn run(budget: &Budget, paper: bool, rep: &mut Report) -> Result<()> {
    let mut rng = Csprng::from_seed([42; 32]);
    let sizes: &[usize] = if paper {
        &[8192, 16384, 32768]
    } else {
        &[8192, 16384]
    };
    peers_table(budget, &mut rng, sizes, rep)?;
    table5(budget, &mut rng, if paper { 15 } else { 13 }, rep)?;
    super::bfv_depth::run(&mut rng, paper, rep)?;
    super::bfv_hpr::run(budget, &mut rng, paper, rep)?;
    super::bfv_keys::run(&mut rng, rep)
}
