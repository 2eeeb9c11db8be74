// The module that runs Lattigo v6.2.0's own refresh benchmarks (run.sh): mpbgv.BenchmarkInteger and
// mpckks.BenchmarkMultiPartyCKKS time the RefreshProtocol's GenShare, AggregateShares and Finalize.
// The imports put both packages (and their test dependencies) in this module's graph.
package main

import (
	_ "github.com/tuneinsight/lattigo/v6/multiparty/mpbgv"
	_ "github.com/tuneinsight/lattigo/v6/multiparty/mpckks"
)

func main() {}
