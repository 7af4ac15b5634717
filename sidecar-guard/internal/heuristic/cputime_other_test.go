//go:build !unix

package heuristic

import "time"

// cpuTime is not measured here; the benchmark then omits cpu-ns/op.
func cpuTime() time.Duration { return 0 }
