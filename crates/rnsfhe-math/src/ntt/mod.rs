//! Number-theoretic transforms over one modulus.
