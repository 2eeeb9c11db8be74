"""Cheon et al. (SAC 2018)'s logistic regression (Cheon, Han, Kim, Kim, Song, "A Full RNS Variant of Approximate
Homomorphic Encryption", SAC 2018, section 5.3) written again in numpy from its formulas, as the
oracle of the encrypted training: nothing here comes from rnsfhe.

- The loss J(beta) = sum_i log(1 + exp(-beta^T z_i)) with z_i = y_i (1, x_i), y_i in {-1, 1}; its
  gradient is -sum_i sigma(-beta^T z_i) z_i.
- sigma is replaced by its least-squares polynomial of degree 3 on [-8, 8] (the paper's reference
  [28], Kim, Song, Kim, Lee, Jiang, JMIR Med. Inform. 2018), fitted here by np.linalg.lstsq on a grid.
- Nesterov's accelerated gradient descent as in [28]: learning rate alpha_s = 10 / s and, with
  lambda_0 = 0, lambda_s = (1 + sqrt(1 + 4 lambda_{s-1}^2)) / 2, gamma_s = (1 - lambda_s) / lambda_{s+1},
  for s = 1, 2, ...:
      beta_{s+1} = v_s + (alpha_s / n) sum_i sigma(-v_s^T z_i) z_i    (a gradient step on J / n)
      v_{s+1}    = (1 - gamma_s) beta_{s+1} + gamma_s beta_s
  from beta_1 = v_1 = 0; the weights after k iterations are beta_{k+1}."""

import numpy as np


def sigmoid_cubic():
    """(c0, c1, c3) of the least-squares c0 + c1 x + c3 x^3 to 1 / (1 + e^-x) on [-8, 8]."""
    x = np.linspace(-8.0, 8.0, 8001)
    basis = np.stack([np.ones_like(x), x, x ** 3], axis=1)
    coeffs, *_ = np.linalg.lstsq(basis, 1.0 / (1.0 + np.exp(-x)), rcond=None)
    return tuple(coeffs)


def z_rows(x, y):
    """z_i = y_i (1, x_i) with the labels 0 / 1 mapped to -1 / 1."""
    x = np.asarray(x, dtype=np.float64)
    sign = np.where(np.asarray(y) == 1, 1.0, -1.0)
    return sign[:, None] * np.concatenate([np.ones((len(x), 1)), x], axis=1)


def train_reference(x, y, iterations):
    """The weights (bias first) after `iterations` of the training above."""
    z = z_rows(x, y)
    n, f = z.shape
    c0, c1, c3 = sigmoid_cubic()
    lam = [0.0]
    for _ in range(iterations + 1):
        lam.append((1.0 + np.sqrt(1.0 + 4.0 * lam[-1] ** 2)) / 2.0)
    beta = v = np.zeros(f)
    for s in range(1, iterations + 1):
        alpha = 10.0 / s
        gamma = (1.0 - lam[s]) / lam[s + 1]
        t = z @ v
        sigma_minus_t = c0 - c1 * t - c3 * t ** 3  # sigma(-t) by the cubic
        new = v + alpha / n * (sigma_minus_t @ z)
        v = (1.0 - gamma) * new + gamma * beta
        beta = new
    return beta
