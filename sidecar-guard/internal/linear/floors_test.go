package linear_test

// The slice model's figures on its own held-out rows, rounded in the safe
// direction. Raise them when the pipeline gets better.
const (
	floorSliceRecall = 0.78 // measured 0.783 (352 held-out rows) at the operating margin 2.3 with marks kept in words; 0.790 before, 0.804 at 2.0
	ceilSliceFPR     = 0.01 // measured 0.000
)
