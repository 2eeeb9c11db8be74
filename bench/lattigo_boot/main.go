// Lattigo v6.2.0 CKKS bootstrapping, timed on this machine (GOMAXPROCS from the environment).
// Residual parameters of Lattigo's own basics example: LogN 16, LogQ 55 + 10 x 40, LogP 3 x 61, H = 192,
// bootstrapping LogP 4 x 61; 2^15 complex slots uniform in [-1,1]^2. Prints keygen time, bootstrap time
// (median of -reps), levels left, precision (bits, average and min) and evaluation-key bytes.
package main

import (
	"flag"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/tuneinsight/lattigo/v6/circuits/ckks/bootstrapping"
	"github.com/tuneinsight/lattigo/v6/core/rlwe"
	"github.com/tuneinsight/lattigo/v6/ring"
	"github.com/tuneinsight/lattigo/v6/schemes/ckks"
	"github.com/tuneinsight/lattigo/v6/utils"
	"github.com/tuneinsight/lattigo/v6/utils/sampling"
)

func main() {
	logN := flag.Int("logn", 16, "ring degree log2")
	reps := flag.Int("reps", 3, "timed bootstraps")
	logSlots := flag.Int("logslots", 0, "log2 slots (0: full)")
	flag.Parse()
	params, err := ckks.NewParametersFromLiteral(ckks.ParametersLiteral{
		LogN: *logN, LogQ: []int{55, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40}, LogP: []int{61, 61, 61},
		LogDefaultScale: 40, Xs: ring.Ternary{H: 192},
	})
	if err != nil {
		panic(err)
	}
	lit := bootstrapping.ParametersLiteral{LogN: utils.Pointy(*logN), LogP: []int{61, 61, 61, 61}, Xs: params.Xs()}
	if *logSlots > 0 {
		lit.LogSlots = utils.Pointy(*logSlots)
	}
	btp, err := bootstrapping.NewParametersFromLiteral(params, lit)
	if err != nil {
		panic(err)
	}
	if *logN < 16 {
		btp.Mod1ParametersLiteral.LogMessageRatio += 16 - params.LogN()
	}
	fmt.Printf("lattigo v6.2.0 bootstrapping: logN=%d slots=2^%d residual levels=%d logQP(btp)=%.1f H=%d\n",
		*logN, params.LogMaxSlots(), params.MaxLevel(), btp.BootstrappingParameters.LogQP(), btp.BootstrappingParameters.XsHammingWeight())
	kgen := rlwe.NewKeyGenerator(params)
	sk, pk := kgen.GenKeyPairNew()
	enc := ckks.NewEncoder(params)
	dec := rlwe.NewDecryptor(params, sk)
	encr := rlwe.NewEncryptor(params, pk)
	t := time.Now()
	evk, _, err := btp.GenEvaluationKeys(sk)
	if err != nil {
		panic(err)
	}
	fmt.Printf("keygen_s %.2f\n", time.Since(t).Seconds())
	fmt.Printf("evk_bytes %d\n", evk.BinarySize())
	eval, err := bootstrapping.NewEvaluator(btp, evk)
	if err != nil {
		panic(err)
	}
	nSlots := params.MaxSlots()
	if *logSlots > 0 {
		nSlots = 1 << *logSlots
	}
	want := make([]complex128, nSlots)
	for i := range want {
		want[i] = sampling.RandComplex128(-1, 1)
	}
	pt := ckks.NewPlaintext(params, 0)
	if *logSlots > 0 {
		pt.LogDimensions = ring.Dimensions{Rows: 0, Cols: *logSlots}
	}
	if err := enc.Encode(want, pt); err != nil {
		panic(err)
	}
	ct, err := encr.EncryptNew(pt)
	if err != nil {
		panic(err)
	}
	var ts []float64
	var res *rlwe.Ciphertext
	for i := 0; i < *reps; i++ {
		t := time.Now()
		res, err = eval.Bootstrap(ct)
		if err != nil {
			panic(err)
		}
		ts = append(ts, time.Since(t).Seconds())
	}
	sort.Float64s(ts)
	got := make([]complex128, nSlots)
	if err := enc.Decode(dec.DecryptNew(res), got); err != nil {
		panic(err)
	}
	st := ckks.GetPrecisionStats(params, enc, nil, want, got, 0, false)
	fmt.Printf("slots %d\n", nSlots)
	fmt.Printf("bootstrap_s median %.2f min %.2f (%d runs)\n", ts[len(ts)/2], ts[0], len(ts))
	fmt.Printf("level_after %d\n", res.Level())
	fmt.Printf("precision_bits avg %.2f min %.2f\n", st.AVGLog2Prec.Real, st.MINLog2Prec.Real)
	_ = math.Log2
}
