// Lattigo v6.2.0's hoisted BSGS linear transform (circuits/ckks/lintrans, MultiplyByDiagMatrixBSGS),
// timed at the shapes of rnsfhe's benchmarks, one thread (GOMAXPROCS=1):
//
//   - default: the shape of `rnsfhe bench hoisting`: N = 2^15, 2^14 slots, 64 consecutive diagonals,
//     the same moduli as rnsfhe's default CKKS parameters at L = 10 (q 60 + 10 x 40, P 4 x 49 bits: 3
//     key-switching digits of 4 primes, the decomposition Lattigo derives from |P| = 4);
//   - -matrix n: the shape of `rnsfhe bench matmul`: a dense n x n matrix M applied to each of the
//     slots / n vectors a ciphertext holds (the block-diagonal I_B (x) M), laid out as rnsfhe's
//     `circuits::matrix::MatrixPacking` does: -layout interleaved (entry c of vector j at slot c B + j:
//     the n diagonals k B) or rows (vector j in slots [j n, j n + n): the 2n - 1 diagonals -(n-1)..n-1);
//     M[r][c] = ((37 r + 11 c) mod 101) / 101 - 1/2, as rnsfhe's bench.
//
// Prints the parameters, Lattigo's baby-step count n1, the Galois keys, the median and the minimum
// over -reps of Evaluate and of Evaluate + Rescale (rnsfhe's `apply` rescales), and the largest
// error against the plaintext product.
//
// Build and run (one thread; -logp 60 for the one-prime digits of rnsfhe's second table):
//
//	cd bench/lattigo_lintrans && go build -o /tmp/lattigo-lintrans . && GOMAXPROCS=1 /tmp/lattigo-lintrans
//	GOMAXPROCS=1 /tmp/lattigo-lintrans -logp 60
//	GOMAXPROCS=1 /tmp/lattigo-lintrans -logn 16 -matrix 256 -layout interleaved   # bench/matmul_vs_lattigo.sh
package main

import (
	"flag"
	"fmt"
	"math"
	"math/cmplx"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tuneinsight/lattigo/v6/circuits/ckks/lintrans"
	"github.com/tuneinsight/lattigo/v6/core/rlwe"
	"github.com/tuneinsight/lattigo/v6/ring"
	"github.com/tuneinsight/lattigo/v6/schemes/ckks"
)

func bits(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			panic(err)
		}
		out = append(out, v)
	}
	return out
}

func median(ts []float64) float64 {
	sort.Float64s(ts)
	return ts[len(ts)/2]
}

func minimum(ts []float64) float64 {
	m := math.Inf(1)
	for _, t := range ts {
		m = math.Min(m, t)
	}
	return m
}

// batched is the diagonal set of M (n x n, entries as rnsfhe's bench) applied to each of the
// slots / n vectors of a ciphertext, laid out "interleaved" or "rows": entry (r, c) of M for vector j
// is 1 in diagonal (pos(j, c) - pos(j, r)) mod slots at position pos(j, r).
func batched(n, slots int, layout string) lintrans.Diagonals[complex128] {
	b := slots / n
	pos := func(j, c int) int { return c*b + j }
	if layout == "rows" {
		pos = func(j, c int) int { return j*n + c }
	} else if layout != "interleaved" {
		panic("layout: interleaved or rows")
	}
	out := make(lintrans.Diagonals[complex128])
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			m := complex(float64((37*r+11*c)%101)/101.0-0.5, 0)
			for j := 0; j < b; j++ {
				to, from := pos(j, r), pos(j, c)
				k := (from - to + slots) % slots
				if out[k] == nil {
					out[k] = make([]complex128, slots)
				}
				out[k][to] = m
			}
		}
	}
	return out
}

func main() {
	logN := flag.Int("logn", 15, "ring degree log2")
	logQ := flag.String("logq", "60,40,40,40,40,40,40,40,40,40,40", "ciphertext moduli bits")
	logP := flag.String("logp", "49,49,49,49", "special moduli bits")
	diags := flag.Int("diags", 64, "consecutive diagonals 0..diags-1 (without -matrix)")
	matrix := flag.Int("matrix", 0, "n: a dense n x n matrix on each of slots/n vectors (0: -diags)")
	layout := flag.String("layout", "interleaved", "with -matrix: interleaved or rows")
	ratio := flag.Int("logbsgs", 0, "LogBabyStepGiantStepRatio (log2 n1/n2)")
	reps := flag.Int("reps", 10, "timed evaluations")
	flag.Parse()

	params, err := ckks.NewParametersFromLiteral(ckks.ParametersLiteral{
		LogN: *logN, LogQ: bits(*logQ), LogP: bits(*logP), LogDefaultScale: 40,
	})
	if err != nil {
		panic(err)
	}
	slots := params.MaxSlots()
	level := params.MaxLevel()
	shape := fmt.Sprintf("diagonals=0..%d", *diags-1)
	if *matrix > 0 {
		shape = fmt.Sprintf("matrix=%dx%d batch=%d layout=%s", *matrix, *matrix, slots / *matrix, *layout)
	}
	fmt.Printf("lattigo v6.2.0 lintrans: logN=%d slots=%d %s logQP=%.1f Q=%d primes P=%d primes digits=%d\n",
		params.LogN(), slots, shape, params.LogQP(), params.QCount(), params.PCount(),
		params.BaseRNSDecompositionVectorSize(level, params.MaxLevelP()))

	kgen := rlwe.NewKeyGenerator(params)
	sk := kgen.GenSecretKeyNew()
	enc := ckks.NewEncoder(params)
	encr := rlwe.NewEncryptor(params, sk)
	dec := rlwe.NewDecryptor(params, sk)

	var diagonals lintrans.Diagonals[complex128]
	if *matrix > 0 {
		diagonals = batched(*matrix, slots, *layout)
	} else {
		diagonals = make(lintrans.Diagonals[complex128])
		for k := 0; k < *diags; k++ {
			d := make([]complex128, slots)
			for t := range d {
				d[t] = complex(float64((k*31+t)%17)/64.0, 0)
			}
			diagonals[k] = d
		}
	}
	fmt.Printf("nonzero_diagonals=%d\n", len(diagonals))
	x := make([]complex128, slots)
	for i := range x {
		x[i] = complex(float64(i%97)/97.0, 0)
	}
	pt := ckks.NewPlaintext(params, level)
	if err := enc.Encode(x, pt); err != nil {
		panic(err)
	}
	ct, err := encr.EncryptNew(pt)
	if err != nil {
		panic(err)
	}

	ltparams := lintrans.Parameters{
		DiagonalsIndexList:        diagonals.DiagonalsIndexList(),
		LevelQ:                    level,
		LevelP:                    params.MaxLevelP(),
		Scale:                     params.GetOptimalScalingFactor(ct.Scale, params.DefaultScale(), level),
		LogDimensions:             ring.Dimensions{Rows: 0, Cols: params.LogMaxSlots()},
		LogBabyStepGiantStepRatio: *ratio,
	}
	lt := lintrans.NewTransformation(params, ltparams)
	if err := lintrans.Encode(enc, diagonals, lt); err != nil {
		panic(err)
	}
	galEls := lt.GaloisElements(params)
	t0 := time.Now()
	evk := rlwe.NewMemEvaluationKeySet(nil, kgen.GenGaloisKeysNew(galEls, sk)...)
	fmt.Printf("n1=%d galois_keys=%d keygen_s=%.2f\n", lt.N1, len(galEls), time.Since(t0).Seconds())
	eval := ckks.NewEvaluator(params, evk)
	ltEval := lintrans.NewEvaluator(eval)

	out := ckks.NewCiphertext(params, 1, level)
	res := ckks.NewCiphertext(params, 1, level-1)
	var tEval, tBoth []float64
	for i := 0; i <= *reps; i++ {
		t := time.Now()
		if err := ltEval.Evaluate(ct, lt, out); err != nil {
			panic(err)
		}
		e := time.Since(t).Seconds()
		if err := eval.Rescale(out, res); err != nil {
			panic(err)
		}
		b := time.Since(t).Seconds()
		if i > 0 { // the first run warms up
			tEval = append(tEval, e)
			tBoth = append(tBoth, b)
		}
	}
	fmt.Printf("evaluate_ms %.2f\nevaluate_rescale_ms %.2f\nevaluate_rescale_min_ms %.2f\n",
		1e3*median(tEval), 1e3*median(tBoth), 1e3*minimum(tBoth))

	want := make([]complex128, slots)
	for k, d := range diagonals {
		for t := range want {
			want[t] += d[t] * x[(t+k)%slots]
		}
	}
	got := make([]complex128, slots)
	if err := enc.Decode(dec.DecryptNew(res), got); err != nil {
		panic(err)
	}
	worst := 0.0
	for t := range got {
		worst = math.Max(worst, cmplx.Abs(got[t]-want[t]))
	}
	fmt.Printf("max_error %.2e (level %d, log2 scale %.3f)\n", worst, res.Level(), math.Log2(res.Scale.Float64()))
}
