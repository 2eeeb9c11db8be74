//! Serialisation: a client/server round trip through bytes.
//!
//! The client owns the secret key. It sends the server the parameter set, its public evaluation keys
//! and encrypted inputs, all as bytes (`rnsfhe::serialize`: `to_bytes` / `from_bytes` on parameters,
//! `ciphertext_to_bytes` / `ciphertext_from_bytes` on the contexts, the `KeyBytes` trait for keys).
//! The server rebuilds the context from the parameter bytes, computes on the ciphertexts and sends the
//! result back; only the client can decrypt it. Every loader checks what it reads (format, object
//! kind, that it belongs to this parameter set, sizes, residue ranges) and returns an error otherwise.
//!
//! Run it: `cargo run --release -p rnsfhe --example serialization`.

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::serialize::KeyBytes;
use rnsfhe_math::sample::Csprng;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// What the client uploads, all plain bytes (a file, a socket, an HTTP body...).
struct Upload {
    params: Vec<u8>,
    public_key: Vec<u8>,
    relin_key: Vec<u8>,
    galois_keys: Vec<u8>,
    a: Vec<u8>,
    b: Vec<u8>,
}

/// The server: knows no secret, sees only bytes. Computes a * b + bias, rotated left by one slot, where
/// the bias is its own vector, encrypted under the client's public key.
fn server(upload: &Upload, bias: &[u64]) -> Res<Vec<u8>> {
    let ctx = BfvContext::new(BfvParameters::from_bytes(&upload.params)?)?;
    let pk = ctx.public_key_from_bytes(&upload.public_key)?;
    let rlk = ctx.relin_key_from_bytes(&upload.relin_key)?;
    let gk = ctx.galois_keys_from_bytes(&upload.galois_keys)?;
    let a = ctx.ciphertext_from_bytes(&upload.a)?;
    let b = ctx.ciphertext_from_bytes(&upload.b)?;

    let mut rng = Csprng::from_os_entropy()?;
    let enc_bias = ctx.encrypt(&ctx.encode(bias)?, &pk, &mut rng)?;
    let r = ctx.add(&ctx.multiply(&a, &b, &rlk)?, &enc_bias)?;
    let r = ctx.rotate_rows(&r, 1, &gk)?;
    Ok(ctx.ciphertext_to_bytes(&r)?)
}

/// The client: makes the keys, uploads, decrypts the server's answer and checks it.
pub fn run() -> Res<()> {
    let params = BfvParameters::builder()
        .degree(4096)
        .plain_modulus(40961) // a prime = 1 mod 2n: batching
        .build()?;
    let t = params.plain_modulus();
    let ctx = BfvContext::new(params.clone())?;
    let mut rng = Csprng::from_os_entropy()?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng)?;

    let n = ctx.params().degree();
    let a: Vec<u64> = (0..n as u64).map(|i| i % 200).collect();
    let b: Vec<u64> = (0..n as u64).map(|i| (i * 7 + 1) % 200).collect();
    let bias: Vec<u64> = (0..n as u64).map(|i| i % 3).collect();
    // Symmetric (secret-key) encryption stores a seed instead of half the ciphertext: half the upload.
    let upload = Upload {
        params: params.to_bytes(),
        public_key: ctx.public_key_to_bytes(&pk),
        relin_key: ctx.relin_key_to_bytes(&rlk),
        galois_keys: ctx.galois_keys_to_bytes(&gk),
        a: ctx.ciphertext_to_bytes(&ctx.encrypt_symmetric(&ctx.encode(&a)?, &sk, &mut rng)?)?,
        b: ctx.ciphertext_to_bytes(&ctx.encrypt_symmetric(&ctx.encode(&b)?, &sk, &mut rng)?)?,
    };
    println!(
        "upload: parameters {} B, public key {} kB, relinearisation key {} kB, Galois keys {} kB, \
         two ciphertexts {} kB each",
        upload.params.len(),
        upload.public_key.len() / 1000,
        upload.relin_key.len() / 1000,
        upload.galois_keys.len() / 1000,
        upload.a.len() / 1000
    );

    let answer = server(&upload, &bias)?;
    println!(
        "answer: {} kB (a full two-part ciphertext)",
        answer.len() / 1000
    );
    let result = ctx.ciphertext_from_bytes(&answer)?;
    let got = ctx.decode(&ctx.decrypt(&result, &sk)?)?;
    let half = n / 2;
    let want: Vec<u64> = (0..n)
        .map(|i| {
            let j = i / half * half + (i % half + 1) % half;
            (a[j] * b[j] + bias[j]) % t
        })
        .collect();
    if got != want {
        return Err("serialization: the server's answer decrypts to the wrong values".into());
    }

    // Loading refuses damaged bytes and bytes written for another parameter set.
    let mut damaged = answer.clone();
    damaged[4] ^= 0xff; // the format version
    let other = BfvContext::new(BfvParameters::builder().degree(8192).build()?)?;
    match (
        ctx.ciphertext_from_bytes(&damaged),
        other.ciphertext_from_bytes(&answer),
    ) {
        (Err(e1), Err(e2)) => println!("refused: {e1}; {e2}"),
        _ => return Err("serialization: damaged or foreign bytes were accepted".into()),
    }
    println!("a * b + bias, rotated: first slots {:?}", &got[..4]);
    Ok(())
}

fn main() -> Res<()> {
    run()
}
