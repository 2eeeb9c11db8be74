//! The `rnsfhe` command: `demo` (the main job), `bench` (the papers' comparisons as tables), `params`
//! (secure parameters for a depth or a number of levels).

mod bench;
mod demo;
mod demo_bfv;
mod demo_ckks;
mod params;
mod report;
mod table;
mod timing;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(
    name = "rnsfhe",
    version,
    about = "Full-RNS homomorphic encryption: demo and benchmarks"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A short showcase: ring products checked against an exact reference, NTT and base-extension timings.
    Demo,
    /// Suggests secure parameters and explains the choice.
    Params {
        #[command(subcommand)]
        scheme: Scheme,
    },
    /// Benchmark tables in the style of the papers: markdown on stdout, and a report with PNG plots.
    Bench {
        /// Which suite to run.
        #[arg(value_enum, default_value_t = Suite::All)]
        suite: Suite,
        /// Shorter measurements (noisier numbers), for smoke runs.
        #[arg(long)]
        quick: bool,
        /// Also the slow paper reproductions (BFV: n up to 2^15 in Tables 1 and 5).
        #[arg(long)]
        paper: bool,
        /// Where to write report.md (every table of the run, the machine) and its PNG plots.
        #[arg(long, value_name = "DIR", default_value = "target/bench-report")]
        out: PathBuf,
        /// bootstrap, showcase: the bootstrapping preset (default n16; toy12 / toy13 with --quick).
        #[arg(long, value_enum)]
        preset: Option<bench::ckks_bootstrap::Preset>,
        /// bootstrap, showcase: the slots (a power of two; default N/2, the data's for showcase).
        #[arg(long)]
        slots: Option<usize>,
        /// bootstrap, showcase: threads per operation.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// bootstrap, matmul: runs timed (the median is reported).
        #[arg(long, default_value_t = 3)]
        reps: usize,
        /// showcase: training iterations.
        #[arg(long, default_value_t = 40)]
        iterations: usize,
        /// bootstrap, showcase: META-BTS, a second bootstrap of the residual scaled by 2^K (0: one
        /// bootstrap; default: the preset's, e.g. n16-h192-meta).
        #[arg(long, value_name = "K")]
        meta_bts: Option<u32>,
        /// compare: decide |x| >= 2^-ALPHA (the sign composite's alpha).
        #[arg(long, default_value_t = 20)]
        alpha: u32,
        /// compare: the block of slots the maximum and argmax run over (a power of two).
        #[arg(long, default_value_t = 16)]
        block: usize,
    },
}

#[derive(Subcommand)]
enum Scheme {
    /// BFV: the smallest ring reaching a multiplicative depth for a plaintext modulus.
    Bfv {
        /// Wanted multiplicative depth.
        #[arg(long)]
        depth: u32,
        /// Plaintext modulus t.
        #[arg(long, default_value_t = 65537)]
        t: u64,
        /// Security level: 128, 192 or 256.
        #[arg(long, default_value_t = 128)]
        security: u32,
    },
    /// CKKS: the smallest ring for a number of levels and a precision in bits.
    Ckks {
        /// Number of rescalings L.
        #[arg(long)]
        levels: usize,
        /// Wanted bits of precision.
        #[arg(long, default_value_t = 20)]
        precision: u32,
        /// Security level: 128, 192 or 256.
        #[arg(long, default_value_t = 128)]
        security: u32,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Suite {
    /// NTT per backend, FastBconv vs FHBE (Vollmer et al. (ARITH 2023) Table I and Fig. 1).
    Arith,
    /// Products modulo Phi_m by three reductions (Bajard et al. (SAC 2017) Fig. 1).
    Cyclotomic,
    /// BFV: operations at the peers' sizes, Bajard et al. (SAC 2016) Tables 1 and 5 and Fig. 1.
    Bfv,
    /// BGV (Bajard et al. (SAC 2017)) against BFV: mul+relin, modulus switching, n = 2^13 and 2^14, one thread.
    Bgv,
    /// CKKS: operations at the peers' sizes, Cheon et al. (SAC 2018) Table 1 and the precision per level.
    Ckks,
    /// HPR-FV vs BEHZ vs HPS only (Bajard et al. (HPR-FV, ePrint 2019/500) Fig. 2, Tables 1-3; also part of `bfv`).
    Hpr,
    /// IND-CPA-D CKKS decryption: flooded vs raw at N = 2^15, precision against lambda.
    Flooding,
    /// Hoisted rotations, double-hoisted sums and a hoisted BSGS linear transform (CKKS, N = 2^15).
    Hoisting,
    /// A 256 x 256 plaintext matrix on 128 encrypted vectors of 256 (CKKS, N = 2^16, 2^15 slots, one
    /// thread), both batch layouts; Lattigo's side: `bench/matmul_vs_lattigo.sh`.
    Matmul,
    /// CKKS bootstrapping: key generation, key bytes, time, precision histogram, peak RSS;
    /// exits non-zero when the preset's precision is below its documented figure.
    Bootstrap,
    /// Cheon et al. (SAC 2018)'s logistic regression trained past its levels by bootstrapping.
    Showcase,
    /// CKKS comparisons with bootstrapping: sign at alpha (its worst slot against +-1), the slot
    /// maximum and argmax over blocks (the share of blocks decided right), time and bootstraps.
    Compare,
    /// The encrypted neural network on scikit-learn's digits (runs examples/python/digits_network.py
    /// with $PYTHON, default python3; --quick: the INSECURE toy preset).
    Network,
    /// Multiparty keys: share generation and aggregation per protocol step, bytes per share (BFV
    /// and CKKS, N = 2^14, Q 7 x 55 bits, P 55 bits, one thread; Lattigo's anchor).
    Multiparty,
    /// One thread against two on one fan-out across limbs (NTTs, additions) at growing sizes: the
    /// measurement behind the threshold below which operations stay on one thread.
    Threads,
    /// Every suite (bootstrap, showcase and matmul apart: run them on their own).
    All,
}

/// Runs the suites into a collecting report, then writes it (also after a failed suite: what ran is kept).
fn bench(
    suite: Suite,
    quick: bool,
    paper: bool,
    out: &std::path::Path,
    boot: &bench::ckks_bootstrap::Options,
) -> report::ReportResult<()> {
    let budget = timing::Budget::new(quick);
    let mut rep = report::Report::collecting();
    let rep = &mut rep;
    // Only bootstrap and showcase take --threads; every other suite runs one thread.
    let threads = match suite {
        Suite::Bootstrap | Suite::Showcase | Suite::Compare => boot.threads,
        _ => 1,
    };
    rep.text(&report::machine_line(threads));
    // A measurement below its documented figure (bootstrap's precision): the report is still
    // written, then the command fails.
    let mut shortfall = None;
    let result = match suite {
        Suite::Arith => bench::arith::run(&budget, rep).map_err(rnsfhe::Error::from),
        Suite::Cyclotomic => bench::cyclotomic::run(&budget, rep).map_err(rnsfhe::Error::from),
        Suite::Bfv => bench::bfv::run(&budget, paper, rep),
        Suite::Ckks => bench::ckks::run(&budget, paper, rep),
        Suite::Bgv => bench::bgv::run(&budget, rep),
        Suite::Hoisting => bench::ckks_hoisting::run(&budget, rep),
        Suite::Threads => bench::threads::run(&budget, rep).map_err(rnsfhe::Error::from),
        Suite::Matmul => bench::ckks_matmul::run(boot.reps, quick, rep),
        Suite::Flooding => bench::ckks_flooding::run(&budget, rep),
        Suite::Bootstrap => bench::ckks_bootstrap::run(boot, rep).map(|s| shortfall = s),
        Suite::Showcase => bench::ckks_bootstrap::showcase(boot, rep),
        Suite::Compare => bench::ckks_compare::run(boot, rep),
        Suite::Network => bench::network::run(quick, rep),
        Suite::Multiparty => bench::multiparty::run(&budget, rep),
        Suite::Hpr => {
            let mut rng = rnsfhe_math::sample::Csprng::from_seed([42; 32]);
            bench::bfv_hpr::run(&budget, &mut rng, paper, rep)
        }
        Suite::All => bench::arith::run(&budget, rep)
            .and_then(|()| bench::cyclotomic::run(&budget, rep))
            .map_err(rnsfhe::Error::from)
            .and_then(|()| bench::bfv::run(&budget, paper, rep))
            .and_then(|()| bench::bgv::run(&budget, rep))
            .and_then(|()| bench::ckks::run(&budget, paper, rep))
            .and_then(|()| bench::ckks_hoisting::run(&budget, rep))
            .and_then(|()| bench::ckks_flooding::run(&budget, rep))
            .and_then(|()| bench::multiparty::run(&budget, rep)),
    };
    let command = std::iter::once("rnsfhe".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let written = rep.write(out, &command);
    if let Ok(path) = &written {
        eprintln!("report: {}", path.display());
    }
    result?;
    written.map_err(|e| format!("could not write the report to {}: {e}", out.display()))?;
    shortfall.map_or(Ok(()), |s| Err(s.into()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: report::ReportResult<()> = match cli.command {
        Command::Demo => demo::run().map_err(Into::into),
        Command::Params { scheme } => match scheme {
            Scheme::Bfv { depth, t, security } => {
                params::bfv(depth, t, security).map_err(Into::into)
            }
            Scheme::Ckks {
                levels,
                precision,
                security,
            } => params::ckks(levels, precision, security).map_err(Into::into),
        },
        Command::Bench {
            suite,
            quick,
            paper,
            out,
            preset,
            slots,
            threads,
            reps,
            iterations,
            meta_bts,
            alpha,
            block,
        } => {
            let boot = bench::ckks_bootstrap::Options {
                preset,
                slots,
                threads,
                reps,
                quick,
                iterations,
                meta_bts,
                alpha,
                block,
            };
            bench(suite, quick, paper, &out, &boot)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
