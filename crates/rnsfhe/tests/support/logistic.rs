//! Logistic-regression test data: `n` samples, a bias and 3 features in [-1, 1], labels from a
//! noisy linear rule, as rows z_i = y_i x_i (paper 004's layout).

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
