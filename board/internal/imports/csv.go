package imports

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"iter"
	"strings"
)

// CSVRow is a row of a CSV file after its header.
type CSVRow struct {
	Name string // "row 2" on, for errors
	rec  []string
}

// Get is the trimmed cell in the column col maps name to, "" when col has
// no such name or the row is shorter.
func (r CSVRow) Get(col map[string]int, name string) string {
	if i, ok := col[name]; ok && i < len(r.rec) {
		return strings.TrimSpace(r.rec[i])
	}
	return ""
}

// ReadCSV reads a CSV file with a header row (after a byte-order mark, if
// any), its rows of any width: the header, and the rows after it that
// hold anything but blanks. A row that does not read ends the rows with a
// RowError naming it.
func ReadCSV(data []byte) ([]string, iter.Seq2[CSVRow, error], error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, nil, BadRow("row 1", "no header row: %v", err)
	}
	rows := func(yield func(CSVRow, error) bool) {
		for line := 2; ; line++ {
			rec, err := r.Read()
			if err == io.EOF {
				return
			}
			row := CSVRow{Name: fmt.Sprintf("row %d", line), rec: rec}
			if err != nil {
				yield(row, BadRow(row.Name, "%v", err))
				return
			}
			if strings.TrimSpace(strings.Join(rec, "")) == "" {
				continue
			}
			if !yield(row, nil) {
				return
			}
		}
	}
	return header, rows, nil
}
