package linear_test

// The slice model's figures on its own held-out rows, rounded in the safe
// direction. Raise them when the pipeline gets better.
const (
	floorSliceRecall = 0.79 // measured 0.804 (352 held-out rows)
	ceilSliceFPR     = 0.01 // measured 0.000
)
