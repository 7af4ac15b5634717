package store

import (
	"os"
	"testing"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
)

// BenchmarkMoveBodiesOut is the first start on a document with every body
// inline (any schema before 9): load, move the bodies to the body file,
// write the document anew. It reports the document before and after, and
// the body file.
func BenchmarkMoveBodiesOut(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			skipLarge(b, sz.cases)
			d := testkit.BoardDoc(sz.cases)
			data, err := encodeDoc(d)
			if err != nil {
				b.Fatal(err)
			}
			path, _ := writeFixture(b, d)
			var after, bodies int64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				os.RemoveAll(storefile.BodiesPath(path))
				if err := os.WriteFile(path, data, 0o600); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				s, err := Open(quietConfig(path))
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				after, bodies = fileSize(path), fileSize(storefile.BodiesPath(path))
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(len(data))/1e6, "inline-doc-MB")
			b.ReportMetric(float64(after)/1e6, "doc-MB")
			b.ReportMetric(float64(bodies)/1e6, "bodies-MB")
		})
	}
}
