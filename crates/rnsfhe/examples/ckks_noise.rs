//! Fresh-encryption error of CKKS, public-key vs secret-key (diagnostic).
use rnsfhe::ckks::{CkksContext, CkksParameters};
fn main() -> rnsfhe::Result<()> {
    let ctx = CkksContext::new(
        CkksParameters::builder()
            .degree(1 << 15)
            .levels(10)
            .build()?,
    )?;
    let mut rng = rnsfhe_math::sample::Csprng::from_os_entropy()?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;
    let n = ctx.slots();
    let v1: Vec<f64> = (0..n).map(|i| ((i % 97) as f64 - 48.0) / 50.0).collect();
    let v2: Vec<f64> = (0..n).map(|i| ((i % 89) as f64 - 44.0) / 45.0).collect();
    let p1 = ctx.encode_real(&v1)?;
    let p2 = ctx.encode_real(&v2)?;
    let err = |c: &rnsfhe::ckks::CkksCiphertext, w: &[f64]| -> rnsfhe::Result<f64> {
        let d = ctx.decrypt_values(c, &sk)?;
        Ok(d.iter()
            .zip(w)
            .map(|(a, b)| (a.re - b).abs())
            .fold(0.0, f64::max))
    };
    let c1 = ctx.encrypt(&p1, &pk, &mut rng)?;
    let c2 = ctx.encrypt(&p2, &pk, &mut rng)?;
    let s1 = ctx.encrypt_symmetric(&p1, &sk, &mut rng)?;
    println!(
        "fresh pk {:.2e}, fresh sk {:.2e}",
        err(&c1, &v1)?,
        err(&s1, &v1)?
    );
    let prod: Vec<f64> = v1.iter().zip(&v2).map(|(a, b)| a * b).collect();
    let m = ctx.multiply_rescale(&c1, &c2, &rlk)?;
    println!("pk mult&rs {:.2e}", err(&m, &prod)?);
    let pt = ctx.decode(&ctx.encode_real(&v1)?)?;
    println!(
        "encode/decode {:.2e}",
        pt.iter()
            .zip(&v1)
            .map(|(a, b)| (a.re - b).abs())
            .fold(0.0, f64::max)
    );
    Ok(())
}
