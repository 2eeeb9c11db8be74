//! Logistic-regression test data: `n` samples, a bias and 3 features in [-1, 1], labels from a
//! noisy linear rule, as rows z_i = y_i x_i (Cheon et al. (SAC 2018)'s layout); and the training written again
//! from Cheon et al. (SAC 2018)'s formulas, independently of `circuits::logistic` (the oracle of the encrypted
//! runs).
#![allow(dead_code, clippy::needless_range_loop)] // each test file uses what it needs; indices as in the formulas

pub fn data(n: usize) -> Vec<Vec<f64>> {
    (0..n)
        .map(|i| {
            let x = [
                1.0,
                ((i * 7) % 11) as f64 / 5.5 - 1.0,
                ((i * 3) % 7) as f64 / 3.5 - 1.0,
                ((i * 5) % 13) as f64 / 6.5 - 1.0,
            ];
            let y = if x[1] + 0.5 * x[2] - 0.2 > ((i % 3) as f64 - 1.0) * 0.3 {
                1.0
            } else {
                -1.0
            };
            x.iter().map(|v| v * y).collect()
        })
        .collect()
}

/// c0 + c1 x + c3 x^3, the least-squares cubic to 1 / (1 + e^-x) on [-8, 8] (Cheon et al. (SAC 2018)'s reference
/// [28]: Kim, Song, Kim, Lee, Jiang, JMIR Med. Inform. 2018), by Gaussian elimination on the
/// normal equations of the basis (1, x, x^3) over the grid of step 1/500 (8001 points): written apart from the library's
/// fit (which fixes c0 = 1/2 and solves for the odd part).
pub fn sigmoid_cubic_reference() -> [f64; 3] {
    let mut a = [[0.0f64; 4]; 3]; // the normal equations with the right-hand side as column 3
    for k in 0..=8000 {
        let x = -8.0 + k as f64 / 500.0;
        let phi = [1.0, x, x * x * x];
        let s = 1.0 / (1.0 + (-x).exp());
        for i in 0..3 {
            for j in 0..3 {
                a[i][j] += phi[i] * phi[j];
            }
            a[i][3] += phi[i] * s;
        }
    }
    for col in 0..3 {
        let pivot = (col..3)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        for row in 0..3 {
            if row != col {
                let m = a[row][col] / a[col][col];
                for k in col..4 {
                    a[row][k] -= m * a[col][k];
                }
            }
        }
    }
    [a[0][3] / a[0][0], a[1][3] / a[1][1], a[2][3] / a[2][2]]
}

/// Cheon et al. (SAC 2018)'s training (section 5.3) written again from its formulas, the oracle of the encrypted
/// runs: J(beta) = sum_i log(1 + exp(-beta^T z_i)), sigma by [`sigmoid_cubic_reference`], Nesterov's
/// accelerated gradient as in [28] with alpha_s = 10 / s, lambda_0 = 0, lambda_s = (1 + sqrt(1 + 4
/// lambda_{s-1}^2)) / 2, gamma_s = (1 - lambda_s) / lambda_{s+1}, for s = 1..=iterations:
/// beta_{s+1} = v_s + (alpha_s / n) sum_i sigma(-v_s^T z_i) z_i, v_{s+1} = (1 - gamma_s)
/// beta_{s+1} + gamma_s beta_s, from zero. Returns beta after the last step.
pub fn train_reference(z: &[Vec<f64>], iterations: usize) -> Vec<f64> {
    let [c0, c1, c3] = sigmoid_cubic_reference();
    let (n, f) = (z.len() as f64, z[0].len());
    let mut lambda = vec![0.0f64];
    for s in 1..=iterations + 1 {
        lambda.push((1.0 + (1.0 + 4.0 * lambda[s - 1] * lambda[s - 1]).sqrt()) / 2.0);
    }
    let mut beta = vec![0.0; f];
    let mut v = vec![0.0; f];
    for s in 1..=iterations {
        let alpha = 10.0 / s as f64;
        let gamma = (1.0 - lambda[s]) / lambda[s + 1];
        let mut next = v.clone();
        for zi in z {
            let t: f64 = (0..f).map(|j| v[j] * zi[j]).sum();
            let sigma_minus_t = c0 - c1 * t - c3 * t.powi(3);
            for j in 0..f {
                next[j] += alpha / n * sigma_minus_t * zi[j];
            }
        }
        v = (0..f)
            .map(|j| (1.0 - gamma) * next[j] + gamma * beta[j])
            .collect();
        beta = next;
    }
    beta
}
