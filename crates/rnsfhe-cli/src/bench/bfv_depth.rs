//! Bajard et al. (SAC 2016) Table 1 (worst-case depth from (20) and measured depth) and Fig. 1 (noise growth with no
//! SmMRq, m~ = 2^8 and m~ = 2^16).

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption};
use rnsfhe::Result;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::sample::Csprng;

use crate::report::{Plot, Report, Scale, Series};
use crate::table::Table;

/// Bajard et al. (SAC 2016) Table 1 rows: (log2 n, k, L_RNS for t = 2, L_RNS for t = 2^10).
pub const TABLE1: [(u32, usize, u32, u32); 5] = [
    (11, 3, 2, 1),
    (12, 6, 5, 4),
    (13, 13, 13, 9),
    (14, 26, 25, 19),
    (15, 53, 50, 38),
];

fn paper_params(n: usize, k: usize, t: u64, m_tilde: Option<u64>) -> Result<BfvParameters> {
    BfvParameters::paper000(n, k, 30, t)
        .m_tilde(m_tilde)
        .build()
}

fn random_plain(ctx: &BfvContext, rng: &mut Csprng) -> Result<rnsfhe::bfv::BfvPlaintext> {
    let t = Modulus::new(ctx.params().plain_modulus())?;
    let c: Vec<u64> = (0..ctx.params().degree())
        .map(|_| rng.uniform_mod(&t))
        .collect();
    ctx.plaintext_from_coefficients(&c)
}

/// The depth a squaring chain reaches (BEHZ, Alg. 1 decryption), up to `max`.
fn measured_depth(ctx: &BfvContext, max: u32, rng: &mut Csprng) -> Result<u32> {
    let (sk, pk) = ctx.keygen(rng)?;
    let rlk = ctx.relin_key(&sk, rng)?;
    let pt = random_plain(ctx, rng)?;
    let levels = ctx.measure_squaring_depth(&sk, &pk, &rlk, &pt, Decryption::Gamma, max, rng)?;
    Ok(levels.iter().take_while(|l| l.correct).count() as u32)
}

/// Table 1 and Fig. 1; the measured columns up to n = 2^13 (2^15 with `paper`).
pub fn run(rng: &mut Csprng, paper: bool, rep: &mut Report) -> Result<()> {
    rep.text("\n### Bajard et al. (SAC 2016) Table 1: depth, 30-bit moduli, sigma = 8, B_key = 1, m~ = 2^16\n");
    let mut table = Table::new(&[
        "n",
        "k x bits",
        "t",
        "L_RNS paper",
        "L_RNS by (20), ours",
        "rho",
        "gamma",
        "|B|, log2 m_sk",
        "measured (squarings)",
    ]);
    let max_log_n = if paper { 15 } else { 13 };
    for &(log_n, k, l2, l1024) in TABLE1.iter().filter(|r| r.0 <= max_log_n) {
        let n = 1usize << log_n;
        for (t, paper_l) in [(2u64, l2), (1024, l1024)] {
            let ctx = BfvContext::new(paper_params(n, k, t, Some(1 << 16))?)?;
            let inputs = ctx.depth_inputs();
            let sizes = match ctx.mul_tool() {
                rnsfhe::bfv::MulTool::Behz(b) => {
                    let s = b.sizes();
                    format!("{}, {}", s.b, s.log_m_sk)
                }
                rnsfhe::bfv::MulTool::Hps(_) => "—".into(),
            };
            let measured = measured_depth(&ctx, inputs.depth() + 3, rng)?;
            table.row(vec![
                format!("2^{log_n}"),
                format!("{k} x 30"),
                t.to_string(),
                paper_l.to_string(),
                inputs.depth().to_string(),
                format!("{:.2e}", inputs.rho),
                ctx.gammas().map_or("—".into(), |g| g.0.to_string()),
                sizes,
                measured.to_string(),
            ]);
        }
    }
    rep.table(&table);
    fig1(rng, rep)
}

/// Fig. 1: n = 2^13, k = 13, t = 2: log2 ||v|| per depth for m~ in {none, 2^8, 2^16}, with the (20)
/// bound for m~ = 2^16 and the decryption limit.
fn fig1(rng: &mut Csprng, rep: &mut Report) -> Result<()> {
    rep.text("\n### Bajard et al. (SAC 2016) Fig. 1: noise growth, n = 2^13, log q = 390, t = 2 (log2 ||v||)\n");
    let n = 1 << 13;
    let mut columns = Vec::new();
    let mut bound = None;
    for mt in [None, Some(1u64 << 8), Some(1 << 16)] {
        let ctx = BfvContext::new(paper_params(n, 13, 2, mt)?)?;
        let (sk, pk) = ctx.keygen(rng)?;
        let rlk = ctx.relin_key(&sk, rng)?;
        let pt = random_plain(&ctx, rng)?;
        let lv = ctx.measure_squaring_depth(&sk, &pk, &rlk, &pt, Decryption::Gamma, 15, rng)?;
        if mt == Some(1 << 16) {
            bound = Some(ctx.depth_inputs());
        }
        columns.push(lv);
    }
    let mut plot = Plot {
        y_label: "log2 ||v||".into(),
        y_scale: Scale::Linear,
        ..Plot::time(
            "bfv_noise_per_depth",
            "BFV noise per depth of a squaring chain (Bajard et al. (SAC 2016) Fig. 1)",
            "multiplicative depth",
            Scale::Linear,
            "n = 2^13, q = 13 x 30 bits (log q = 390), t = 2, BEHZ multiplication, Alg. 1 decryption; \
             measured points up to the last depth that decrypts correctly; bound (20) for m~ = 2^16.",
        )
    };
    for (c, label) in columns
        .iter()
        .zip(["no SmMRq", "SmMRq, m~ = 2^8", "SmMRq, m~ = 2^16"])
    {
        let mut s = Series::new(label);
        for l in c.iter().take_while(|l| l.correct) {
            s.push(f64::from(l.depth), l.noise_log2);
        }
        plot.add(s);
    }
    if let Some(b) = bound {
        let mut sb = Series::reference("bound (20), m~ = 2^16");
        let mut sl = Series::reference("decryption limit");
        for d in 1..=15 {
            sb.push(f64::from(d), b.log2_noise(d));
            sl.push(f64::from(d), b.log2_limit());
        }
        plot.add(sb);
        plot.add(sl);
    }
    let mut table = Table::new(&[
        "depth",
        "no SmMRq",
        "m~ = 2^8",
        "m~ = 2^16",
        "bound (20)",
        "limit",
    ]);
    let cell = |c: &Vec<rnsfhe::bfv::depth::Level>, d: u32| {
        c.iter()
            .find(|l| l.depth == d)
            .map_or("—".to_string(), |l| {
                format!(
                    "{:.1}{}",
                    l.noise_log2,
                    if l.correct { "" } else { " (wrong)" }
                )
            })
    };
    for d in 1..=15 {
        let b = bound.map_or("—".into(), |b| format!("{:.1}", b.log2_noise(d)));
        let lim = bound.map_or("—".into(), |b| format!("{:.1}", b.log2_limit()));
        table.row(vec![
            d.to_string(),
            cell(&columns[0], d),
            cell(&columns[1], d),
            cell(&columns[2], d),
            b,
            lim,
        ]);
    }
    rep.table(&table);
    rep.plot(plot);
    // Reduction of log2 ||v|| (the quantity the paper plots), averaged over the common correct depths.
    let mean_ratio = |a: &Vec<rnsfhe::bfv::depth::Level>, b: &Vec<rnsfhe::bfv::depth::Level>| {
        let common: Vec<f64> = a
            .iter()
            .zip(b)
            .filter(|(x, y)| x.correct && y.correct)
            .map(|(x, y)| 1.0 - y.noise_log2 / x.noise_log2)
            .collect();
        100.0 * common.iter().sum::<f64>() / common.len().max(1) as f64
    };
    let last = |a: &Vec<rnsfhe::bfv::depth::Level>| a.iter().take_while(|l| l.correct).count();
    rep.text(&format!(
        "\nAverage reduction of log2 ||v|| against no SmMRq: m~ = 2^8 {:.0}%, m~ = 2^16 {:.0}% (paper: 25% \
         and 32%). Depth reached: {} / {} / {} (chains stop at 15).",
        mean_ratio(&columns[0], &columns[1]),
        mean_ratio(&columns[0], &columns[2]),
        last(&columns[0]),
        last(&columns[1]),
        last(&columns[2]),
    ));
    Ok(())
}
