//! The CPU side of the smoke GEMM: fp16 conversion, the input matrices, the
//! f32 reference and the comparison. Nothing here touches a GPU.
//!
//! The inputs are multiples of 1/8 in [-1, 1], exact in fp16; every product is
//! a multiple of 1/64 and every partial sum stays below 2^9, so an f32
//! accumulation is exact in any order. A correct GPU therefore matches the
//! reference bit for bit; the tolerance only absorbs nothing-but-rounding.

/// The matrices are `N × N`.
pub const N: usize = 512;

/// The largest absolute difference accepted between the GPU and the CPU.
pub const TOLERANCE: f64 = 1e-2;

/// f32 → IEEE 754 binary16 bits, rounding to nearest, ties to even;
/// overflow becomes infinity, NaN stays a (quiet) NaN.
pub fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x007f_ffff;
    if exp == 0xff {
        return if mant == 0 {
            sign | 0x7c00
        } else {
            sign | 0x7e00 | (mant >> 13) as u16
        };
    }
    // The binary16 biased exponent.
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Below 2^-25 everything rounds to zero (2^-25 itself ties to even, i.e. zero).
        if e < -10 {
            return sign;
        }
        // Subnormal: the unit is 2^-24; shift the full significand down to it.
        let m = mant | 0x0080_0000;
        let shift = (14 - e) as u32;
        let q = m >> shift;
        let rem = m & ((1u32 << shift) - 1);
        let halfway = 1u32 << (shift - 1);
        let up = rem > halfway || (rem == halfway && q & 1 == 1);
        return sign | (q + u32::from(up)) as u16;
    }
    let q = ((e as u32) << 10) | (mant >> 13);
    let rem = mant & 0x1fff;
    let up = rem > 0x1000 || (rem == 0x1000 && q & 1 == 1);
    // A carry out of the significand correctly bumps the exponent (up to infinity).
    sign | (q + u32::from(up)) as u16
}

/// IEEE 754 binary16 bits → f32 (exact: every binary16 value is an f32 value).
pub fn f16_to_f32(h: u16) -> f32 {
    let negative = h & 0x8000 != 0;
    let exp = u32::from((h >> 10) & 0x1f);
    let mant = u32::from(h & 0x03ff);
    let sign = u32::from(h & 0x8000) << 16;
    let bits = match exp {
        0 => {
            // Zero or subnormal: mant · 2^-24, exact in f32.
            let v = mant as f32 * (1.0 / 16_777_216.0);
            return if negative { -v } else { v };
        }
        0x1f => sign | 0x7f80_0000 | (mant << 13),
        _ => sign | ((exp + 112) << 23) | (mant << 13),
    };
    f32::from_bits(bits)
}

/// The two inputs, row-major, as fp16 bits. Deterministic and asymmetric, so
/// `A·B`, `B·A` and transposed products all differ (a swapped operand shows).
pub fn inputs(n: usize) -> (Vec<u16>, Vec<u16>) {
    let mut a = Vec::with_capacity(n * n);
    let mut b = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let va = ((i * 3 + j * 5) % 17) as f32 - 8.0;
            let vb = ((i * 7 + j * 11 + 3) % 13) as f32 - 6.0;
            a.push(f32_to_f16(va / 8.0));
            b.push(f32_to_f16(vb / 8.0));
        }
    }
    (a, b)
}

/// C = A·B on the CPU, row-major, accumulating in f32 in ascending k.
pub fn reference(a: &[u16], b: &[u16], n: usize) -> Vec<f32> {
    let af: Vec<f32> = a.iter().map(|&h| f16_to_f32(h)).collect();
    let bf: Vec<f32> = b.iter().map(|&h| f16_to_f32(h)).collect();
    let mut c = vec![0.0f32; n * n];
    for (crow, arow) in c.chunks_exact_mut(n).zip(af.chunks_exact(n)) {
        for (&aik, brow) in arow.iter().zip(bf.chunks_exact(n)) {
            for (cij, &bkj) in crow.iter_mut().zip(brow) {
                *cij += aik * bkj;
            }
        }
    }
    c
}

/// How a GPU result compares with the reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Largest |got − want| over the finite elements.
    pub max_abs_err: f64,
    /// Elements that are NaN or infinite.
    pub non_finite: usize,
    /// Elements off by more than the tolerance (non-finite ones included).
    pub wrong: usize,
    /// The first wrong element: (row, column, got, want).
    pub first_wrong: Option<(usize, usize, f32, f32)>,
    /// The result had the wrong number of elements.
    pub size_mismatch: bool,
}

impl Comparison {
    pub fn ok(&self) -> bool {
        self.wrong == 0 && !self.size_mismatch
    }
}

pub fn compare(got: &[f32], want: &[f32], n: usize, tolerance: f64) -> Comparison {
    let mut cmp = Comparison {
        max_abs_err: 0.0,
        non_finite: 0,
        wrong: 0,
        first_wrong: None,
        size_mismatch: got.len() != want.len(),
    };
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let err = (f64::from(g) - f64::from(w)).abs();
        let bad = if g.is_finite() {
            cmp.max_abs_err = cmp.max_abs_err.max(err);
            err > tolerance
        } else {
            cmp.non_finite += 1;
            true
        };
        if bad {
            cmp.wrong += 1;
            if cmp.first_wrong.is_none() {
                cmp.first_wrong = Some((i / n.max(1), i % n.max(1), g, w));
            }
        }
    }
    cmp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_convert_both_ways() {
        let cases: &[(f32, u16)] = &[
            (0.0, 0x0000),
            (-0.0, 0x8000),
            (1.0, 0x3c00),
            (-2.0, 0xc000),
            (0.5, 0x3800),
            (0.125, 0x3000),
            (65504.0, 0x7bff),
            (f32::INFINITY, 0x7c00),
            (f32::NEG_INFINITY, 0xfc00),
            (2f32.powi(-14), 0x0400),          // smallest normal
            (2f32.powi(-24), 0x0001),          // smallest subnormal
            (1023.0 * 2f32.powi(-24), 0x03ff), // largest subnormal
            (-(2f32.powi(-24)), 0x8001),
        ];
        for &(f, h) in cases {
            assert_eq!(f32_to_f16(f), h, "f32_to_f16({f:e})");
            assert_eq!(f16_to_f32(h).to_bits(), f.to_bits(), "f16_to_f32({h:#06x})");
        }
    }

    #[test]
    fn rounding_is_to_nearest_even() {
        let one_ulp = 2f32.powi(-10);
        // Exactly halfway between 1.0 (even) and its successor: stays 1.0.
        assert_eq!(f32_to_f16(1.0 + one_ulp / 2.0), 0x3c00);
        // Halfway between 0x3c01 (odd) and 0x3c02: rounds up to even.
        assert_eq!(f32_to_f16(1.0 + 1.5 * one_ulp), 0x3c02);
        // Just above halfway: up; just below: down.
        assert_eq!(f32_to_f16(1.0 + one_ulp / 2.0 + 2f32.powi(-20)), 0x3c01);
        assert_eq!(f32_to_f16(1.0 + one_ulp / 2.0 - 2f32.powi(-20)), 0x3c00);
        assert_eq!(f32_to_f16(0.1), 0x2e66);
        // Overflow: 65520 is halfway to the next binade and rounds to infinity, 65519 does not.
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(65519.0), 0x7bff);
        assert_eq!(f32_to_f16(1e10), 0x7c00);
        // Underflow: 2^-25 ties to zero, anything above it rounds to the smallest subnormal.
        assert_eq!(f32_to_f16(2f32.powi(-25)), 0x0000);
        assert_eq!(f32_to_f16(1.5 * 2f32.powi(-25)), 0x0001);
        assert_eq!(f32_to_f16(2f32.powi(-26)), 0x0000);
        assert_eq!(f32_to_f16(1e-30), 0x0000);
        // A carry out of the subnormal range gives the smallest normal.
        assert_eq!(f32_to_f16(2f32.powi(-14) - 2f32.powi(-26)), 0x0400);
    }

    #[test]
    fn nan_stays_nan() {
        assert!(f16_to_f32(f32_to_f16(f32::NAN)).is_nan());
        // A NaN whose payload sits only in the low bits must not become infinity.
        let low_payload = f32::from_bits(0x7f80_0001);
        assert!(low_payload.is_nan());
        assert_eq!(f32_to_f16(low_payload) & 0x7e00, 0x7e00);
        assert!(f16_to_f32(0x7e00).is_nan());
        assert!(f16_to_f32(0xfc01).is_nan());
    }

    #[test]
    fn every_f16_round_trips() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if f.is_nan() {
                assert!(f16_to_f32(f32_to_f16(f)).is_nan(), "{h:#06x}");
            } else {
                assert_eq!(f32_to_f16(f), h, "{h:#06x} -> {f:e}");
            }
        }
    }

    /// The nearest binary16 by brute force, ties to the even bit pattern.
    fn nearest_by_search(x: f32) -> u16 {
        let x = f64::from(x);
        let mut best = (f64::INFINITY, 0u16);
        for h in 0..=0x7bffu16 {
            for h in [h, h | 0x8000] {
                let d = (f64::from(f16_to_f32(h)) - x).abs();
                if d < best.0 || (d == best.0 && h & 1 == 0 && best.1 & 1 == 1) {
                    best = (d, h);
                }
            }
        }
        best.1
    }

    #[test]
    fn rounding_matches_a_brute_force_search() {
        // A spread of values across the normal and subnormal range, with
        // significand bits below binary16's precision.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let exp = (seed % 40) as i32 - 26; // 2^-26 .. 2^13
            let frac = 1.0 + (seed >> 40) as f32 / (1u64 << 24) as f32;
            let sign = if seed & 1 == 0 { 1.0 } else { -1.0 };
            let x = sign * frac * 2f32.powi(exp);
            let want = nearest_by_search(x);
            // Signed zero: the search may pick either sign for values that round to zero.
            let got = f32_to_f16(x);
            if want & 0x7fff == 0 {
                assert_eq!(got & 0x7fff, 0, "{x:e}");
            } else {
                assert_eq!(got, want, "{x:e}: got {got:#06x}, want {want:#06x}");
            }
        }
    }

    #[test]
    fn inputs_are_exact_in_fp16() {
        let (a, b) = inputs(16);
        assert_eq!(a.len(), 256);
        for &h in a.iter().chain(&b) {
            let f = f16_to_f32(h);
            assert!((-1.0..=1.0).contains(&f));
            assert_eq!((f * 8.0).fract(), 0.0, "{f} is not a multiple of 1/8");
        }
    }

    #[test]
    fn reference_is_a_matrix_product() {
        // [[1, 2], [3, 4]] · [[5, 6], [7, 8]] = [[19, 22], [43, 50]]
        let a: Vec<u16> = [1.0, 2.0, 3.0, 4.0].map(f32_to_f16).to_vec();
        let b: Vec<u16> = [5.0, 6.0, 7.0, 8.0].map(f32_to_f16).to_vec();
        assert_eq!(reference(&a, &b, 2), vec![19.0, 22.0, 43.0, 50.0]);
        // Not commutative: B·A differs.
        assert_eq!(reference(&b, &a, 2), vec![23.0, 34.0, 31.0, 46.0]);
    }

    #[test]
    fn reference_agrees_with_a_naive_f64_product() {
        let n = 64;
        let (a, b) = inputs(n);
        let c = reference(&a, &b, n);
        for i in 0..n {
            for j in 0..n {
                let mut s = 0.0f64;
                for k in 0..n {
                    s += f64::from(f16_to_f32(a[i * n + k])) * f64::from(f16_to_f32(b[k * n + j]));
                }
                assert_eq!(f64::from(c[i * n + j]), s, "({i}, {j})");
            }
        }
        // A·B and B·A differ, so a swapped operand on the GPU cannot pass.
        assert_ne!(c, reference(&b, &a, n));
    }

    #[test]
    fn compare_accepts_equal_and_rejects_wrong_results() {
        let want = vec![1.0, 2.0, 3.0, 4.0];
        let same = compare(&want, &want, 2, TOLERANCE);
        assert!(same.ok());
        assert_eq!(same.max_abs_err, 0.0);

        let mut off = want.clone();
        off[3] = 4.5;
        let c = compare(&off, &want, 2, TOLERANCE);
        assert!(!c.ok());
        assert_eq!(c.wrong, 1);
        assert_eq!(c.max_abs_err, 0.5);
        assert_eq!(c.first_wrong, Some((1, 1, 4.5, 4.0)));

        let mut nan = want.clone();
        nan[0] = f32::NAN;
        let c = compare(&nan, &want, 2, TOLERANCE);
        assert!(!c.ok());
        assert_eq!(c.non_finite, 1);
        assert_eq!(c.max_abs_err, 0.0);

        let short = compare(&want[..3], &want, 2, TOLERANCE);
        assert!(short.size_mismatch && !short.ok());

        let tiny = compare(&[1.001, 2.0, 3.0, 4.0], &want, 2, TOLERANCE);
        assert!(tiny.ok(), "within tolerance");
    }
}
