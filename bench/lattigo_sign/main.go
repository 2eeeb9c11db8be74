// Lattigo v6.2.0 homomorphic sign at the same alpha as rnsfhe's (`rnsfhe bench compare --alpha A`): the composite
// minimax polynomial generated for alpha by Lattigo's own minimax.GenMinimaxCompositePolynomial (degrees -deg, scheme
// error 2^-logerr), followed as in Lattigo's default by CoeffsSignX4Cheby; -default takes Lattigo's default polynomial
// (alpha 30) instead. N = 2^16 with bootstrapping between components, timed on this machine (GOMAXPROCS from the
// environment). Residual parameters as ../lattigo_boot (Lattigo's basics example:
// LogQ 55 + 10 x 40, LogP 3 x 61, H = 192; bootstrapping LogP 4 x 61). Inputs: 2^15 real values with
// 2^-alpha <= |x| <= 1 (-alpha flag). Prints keygen time, sign time (median of -reps), levels left, and the worst
// distance of the output from +-1 in bits.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tuneinsight/lattigo/v6/circuits/ckks/bootstrapping"
	"github.com/tuneinsight/lattigo/v6/circuits/ckks/comparison"
	"github.com/tuneinsight/lattigo/v6/circuits/ckks/minimax"
	"github.com/tuneinsight/lattigo/v6/core/rlwe"
	"github.com/tuneinsight/lattigo/v6/ring"
	"github.com/tuneinsight/lattigo/v6/schemes/ckks"
	"github.com/tuneinsight/lattigo/v6/utils"
	"github.com/tuneinsight/lattigo/v6/utils/bignum"
)

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func main() {
	logN := flag.Int("logn", 16, "ring degree log2")
	reps := flag.Int("reps", 1, "timed signs")
	alpha := flag.Int("alpha", 20, "inputs satisfy |x| >= 2^-alpha")
	logerr := flag.Int("logerr", 25, "the scheme error the polynomial tolerates: 2^-logerr")
	degs := flag.String("deg", "15,15,15,17,31,31,31", "the degrees of the composite's polynomials")
	useDefault := flag.Bool("default", false, "Lattigo's default polynomial (alpha 30) instead of one for -alpha")
	flag.Parse()
	var signPoly []minimax.Polynomial
	if !*useDefault {
		var deg []int
		for _, d := range strings.Split(*degs, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(d))
			must(err)
			deg = append(deg, v)
		}
		t := time.Now()
		coeffs := minimax.GenMinimaxCompositePolynomial(256, *alpha, *logerr, deg, bignum.Sign)
		strs := make([][]string, 0, len(coeffs)+1)
		for _, c := range coeffs {
			s := make([]string, len(c))
			for j := range c {
				s[j] = c[j].Text('g', 40)
			}
			strs = append(strs, s)
		}
		strs = append(strs, minimax.CoeffsSignX4Cheby)
		signPoly = append(signPoly, minimax.NewPolynomial(strs))
		fmt.Printf("polynomial generated for alpha %d, logerr %d, degrees %v + x4: %.1f s\n", *alpha, *logerr, deg, time.Since(t).Seconds())
	}
	params, err := ckks.NewParametersFromLiteral(ckks.ParametersLiteral{
		LogN: *logN, LogQ: []int{55, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40}, LogP: []int{61, 61, 61},
		LogDefaultScale: 40, Xs: ring.Ternary{H: 192},
	})
	must(err)
	btp, err := bootstrapping.NewParametersFromLiteral(params, bootstrapping.ParametersLiteral{
		LogN: utils.Pointy(*logN), LogP: []int{61, 61, 61, 61}, Xs: params.Xs()})
	must(err)
	if *logN < 16 {
		btp.Mod1ParametersLiteral.LogMessageRatio += 16 - params.LogN()
	}
	fmt.Printf("lattigo v6.2.0 sign: logN=%d slots=2^%d residual levels=%d alpha=%d default polynomial %v\n",
		*logN, params.LogMaxSlots(), params.MaxLevel(), *alpha, *useDefault)
	kgen := rlwe.NewKeyGenerator(params)
	sk, pk := kgen.GenKeyPairNew()
	t := time.Now()
	evk, _, err := btp.GenEvaluationKeys(sk)
	must(err)
	btpEval, err := bootstrapping.NewEvaluator(btp, evk)
	must(err)
	rlk := kgen.GenRelinearizationKeyNew(sk)
	conj := kgen.GenGaloisKeyNew(params.GaloisElementForComplexConjugation(), sk)
	eval := ckks.NewEvaluator(params, rlwe.NewMemEvaluationKeySet(rlk, conj))
	cmp := comparison.NewEvaluator(params, minimax.NewEvaluator(params, eval, btpEval), signPoly...)
	fmt.Printf("keygen_s %.2f\n", time.Since(t).Seconds())

	rng := rand.New(rand.NewSource(1))
	n := params.MaxSlots()
	want := make([]float64, n)
	lo := math.Pow(2, -float64(*alpha))
	for i := range want {
		v := lo + (1-lo)*rng.Float64()
		if rng.Intn(2) == 0 {
			v = -v
		}
		want[i] = v
	}
	enc := ckks.NewEncoder(params)
	pt := ckks.NewPlaintext(params, params.MaxLevel())
	must(enc.Encode(want, pt))
	ct, err := rlwe.NewEncryptor(params, pk).EncryptNew(pt)
	must(err)
	var ts []float64
	var res *rlwe.Ciphertext
	for i := 0; i < *reps; i++ {
		t := time.Now()
		res, err = cmp.Sign(ct)
		must(err)
		ts = append(ts, time.Since(t).Seconds())
	}
	sort.Float64s(ts)
	got := make([]float64, n)
	must(enc.Decode(rlwe.NewDecryptor(params, sk).DecryptNew(res), got))
	worst := 0.0
	for i := range got {
		s := 1.0
		if want[i] < 0 {
			s = -1
		}
		if d := math.Abs(got[i] - s); d > worst || math.IsNaN(d) {
			worst = d
		}
	}
	fmt.Printf("sign_s median %.2f min %.2f (%d runs)\n", ts[len(ts)/2], ts[0], len(ts))
	fmt.Printf("level_after %d\n", res.Level())
	fmt.Printf("worst_error_bits %.2f\n", -math.Log2(worst))
}
