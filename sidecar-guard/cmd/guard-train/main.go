// Command guard-train trains the guard's linear model from labelled JSONL
// files and writes the weights file and its record (model.json beside it).
// With -measure it instead reports the combined detector with each source
// held out in turn, and the trained model on the measurement sets.
//
//	go run ./sidecar-guard/cmd/guard-train -data <labelled data>/train -out sidecar-guard/internal/linear/model.bin
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/opsboard/opsboard/sidecar-guard/internal/linear"
	"github.com/opsboard/opsboard/sidecar-guard/internal/training"
)

func main() {
	p := linear.DefaultParams()
	data := flag.String("data", "", "directory of labelled *.jsonl training files (text, label)")
	own := flag.String("own", "sidecar-guard/testdata/german,sidecar-guard/testdata/roleplay,sidecar-guard/testdata/spanish,sidecar-guard/testdata/workmail,sidecar-guard/testdata/requests,sidecar-guard/testdata/russian,sidecar-guard/testdata/bengali,sidecar-guard/testdata/swahili", "comma-separated directories of our own templates (attacks.txt, benign.txt), each a source of its own; empty for none")
	out := flag.String("out", "sidecar-guard/internal/linear/model.bin", "weights file to write; model.json is written beside it")
	measure := flag.Bool("measure", false, "report held-out sources and the measurement sets instead of writing a model")
	bipia := flag.String("bipia", "sidecar-guard/testdata/bipia", "directory of BIPIA whose train part (never its test part) is trained on; empty for none")
	sets := flag.String("sets", "sidecar-guard/testdata", "directory of the measurement sets (bipia, notinject, phrasings)")
	flag.Uint64Var(&p.Seed, "seed", p.Seed, "seed of the example order")
	flag.IntVar(&p.Epochs, "epochs", p.Epochs, "passes over the data")
	flag.Float64Var(&p.TargetFPR, "target-fpr", p.TargetFPR, "share of benign training texts at or above the operating point")
	flag.Float64Var(&p.MinMargin, "min-margin", p.MinMargin, "lowest operating margin")
	flag.Float64Var(&p.L2, "l2", p.L2, "L2 penalty")
	flag.Float64Var(&p.Rate, "rate", p.Rate, "AdaGrad step size")
	flag.UintVar(&p.Bits, "bits", p.Bits, "log2 of the hash buckets")
	flag.BoolVar(&p.BalanceSources, "balance", p.BalanceSources, "give every source the same weight within its class")
	flag.Parse()
	if err := run(input{*data, *own, *bipia}, *out, *sets, *measure, p); err != nil {
		slog.Error("guard-train", "err", err)
		os.Exit(1)
	}
}

// input names the training data: the labelled files, our own templates and
// BIPIA's train part (the last two may be empty).
type input struct{ data, own, bipia string }

// source is one optional extra of the training data and its reader.
type source struct {
	dir  string
	read func(string) ([]training.Row, []training.File, error)
}

func (in input) read() ([]training.Row, []training.File, error) {
	if in.data == "" {
		return nil, nil, fmt.Errorf("-data is required: the directory of the labelled training files")
	}
	rows, files, err := training.ReadDir(in.data)
	if err != nil {
		return nil, nil, err
	}
	// Every template folder is a source of its own, then BIPIA's train part.
	var extras []source
	for dir := range strings.SplitSeq(in.own, ",") {
		extras = append(extras, source{strings.TrimSpace(dir), training.ReadTemplates})
	}
	extras = append(extras, source{in.bipia, training.ReadBIPIATrain})
	for _, extra := range extras {
		if extra.dir == "" {
			continue
		}
		r, f, err := extra.read(extra.dir)
		if err != nil {
			return nil, nil, err
		}
		rows, files = append(rows, r...), append(files, f...)
	}
	return rows, files, nil
}

func run(in input, out, sets string, measure bool, p linear.Params) error {
	rows, files, err := in.read()
	if err != nil {
		return err
	}
	slog.Info("attacks built in benign mail train on their payload", "carrier", training.Carrier, "rows", training.MarkCarried(rows, training.Carrier))
	if measure {
		return report(rows, sets, p)
	}
	m := training.Build(rows, p)
	bin, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, bin, 0o644); err != nil {
		return err
	}
	cmd := "go run ./sidecar-guard/cmd/guard-train " + strings.Join(os.Args[1:], " ")
	rec, err := json.MarshalIndent(training.NewRecord(cmd, p, files, rows, m, bin), "", "  ")
	if err != nil {
		return err
	}
	slog.Info("trained", "rows", len(rows), "out", out, "operatingMargin", m.Shift)
	return os.WriteFile(filepath.Join(filepath.Dir(out), "model.json"), append(rec, '\n'), 0o644)
}

func report(rows []training.Row, setsDir string, p linear.Params) error {
	s, err := training.Sets(setsDir)
	if err != nil {
		return err
	}
	scores := training.HoldOutScores(rows, p, func(src string) { slog.Info("holding out", "source", src) })
	fmt.Println(training.Table("held-out source", training.HoldOut(rows, scores)))
	fmt.Println(training.Table("held-out source: sub-source, language", training.Breakdown(rows, scores)))
	fmt.Println(training.Table("pooled, each row held out with its source", training.PooledFigures(rows, scores)))
	fmt.Println(training.Table("set (final model)", training.Score(training.Build(rows, p), s)))
	return nil
}
