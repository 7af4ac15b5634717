package server_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/hub"
	"github.com/opsboard/opsboard/shared/hub/hubtest"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-search/internal/embed"
	"github.com/opsboard/opsboard/sidecar-search/internal/server"
)

// The tiny model2vec model the local hub serves: a WordPiece vocabulary of
// a few words, one 256-wide row each.
var tinyVocab = []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "renew", "passport", "revenue", "forecast", "quarterly", "budget"}

// tinyModel is the three files of the model, by name.
func tinyModel() map[string][]byte {
	v := map[string]int{}
	for i, w := range tinyVocab {
		v[w] = i
	}
	tok, _ := json.Marshal(map[string]any{
		"version": "1.0", "truncation": nil, "padding": nil, "added_tokens": []any{},
		"normalizer":    map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": nil, "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"model":         map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100, "vocab": v},
	})
	data := make([]byte, 0, 4*len(tinyVocab)*embed.Dim)
	for r := range tinyVocab {
		for c := range embed.Dim {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(float32(math.Sin(float64(r*embed.Dim+c)))))
		}
	}
	hdr, _ := json.Marshal(map[string]any{"embeddings": map[string]any{"dtype": "F32", "shape": []int{len(tinyVocab), embed.Dim}, "data_offsets": []int{0, len(data)}}})
	var st bytes.Buffer
	binary.Write(&st, binary.LittleEndian, uint64(len(hdr)))
	st.Write(hdr)
	st.Write(data)
	cfg, _ := json.Marshal(map[string]any{"model_type": "model2vec", "hidden_dim": embed.Dim, "normalize": true})
	return map[string][]byte{"model.safetensors": st.Bytes(), "tokenizer.json": tok, "config.json": cfg}
}

// modelHub is a local hub serving the tiny model where the real hub
// serves potion-base-8M.
func modelHub(t *testing.T) *hubtest.Hub {
	h := hubtest.New(t)
	for name, b := range tinyModel() {
		h.Add(embed.Potion.ID, embed.Potion.Revision, name, b)
	}
	return h
}

// startFetching starts a sidecar whose model directory is empty, with hub
// as its model hub.
func startFetching(t *testing.T, hubURL, token, modelDir string) *sidecar {
	t.Helper()
	s := newStore(t)
	return startWith(t, server.Config{DataPath: s.path, Embedder: "auto", ModelDir: modelDir, Poll: time.Hour,
		Hub: &hub.Client{Base: hubURL, Token: token, Stall: 2 * time.Second}, Logger: slog.New(slog.DiscardHandler)})
}

// download is the download object of /healthz and /stats, which must agree.
func (s *sidecar) download() wire.ModelDownload {
	s.t.Helper()
	_, h := s.do("GET", "/healthz", nil)
	var out wire.ModelDownload
	b, _ := json.Marshal(h["download"])
	if err := json.Unmarshal(b, &out); err != nil {
		s.t.Fatal(err)
	}
	return out
}

// settle waits until the download leaves the downloading state.
func (s *sidecar) settle() wire.ModelDownload {
	s.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		d := s.download()
		if d.State != wire.DownloadDownloading && d.State != wire.DownloadIdle {
			return d
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("download still %+v", d)
		}
	}
}

func TestFirstStartDownloadsTheModelAndSwitchesToIt(t *testing.T) {
	h := modelHub(t)
	dir := filepath.Join(t.TempDir(), "potion-base-8M")
	sc := startFetching(t, h.URL, "tok", dir)
	if d := sc.settle(); d.State != wire.DownloadDone || d.Error != "" {
		t.Fatalf("download %+v", d)
	}
	st := sc.stats()
	if st["embedder"] != "model2vec:potion-base-8M" || st["rebuilds"] != float64(2) {
		t.Errorf("stats after the download: embedder %v, rebuilds %v", st["embedder"], st["rebuilds"])
	}
	if res := sc.search(map[string]any{"queries": []string{"renew passport"}}); res["embedder"] != "model2vec:potion-base-8M" || hitIDs(res, 0)[0] != "CASE-1" {
		t.Errorf("search after the switch: %v %v", res["embedder"], hitIDs(res, 0))
	}
	for name, want := range tinyModel() {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s in the model directory: %v", name, err)
		}
	}
	for _, r := range h.Requests() {
		if !strings.HasPrefix(r.Path, "/minishlab/potion-base-8M/resolve/main/") || r.Authorization != "Bearer tok" {
			t.Errorf("request %+v", r)
		}
	}
}

func TestDroppedDownloadResumesOnTheNextStart(t *testing.T) {
	h := modelHub(t)
	h.Set(func(h *hubtest.Hub) { h.CutAfter = 4000 })
	dir := filepath.Join(t.TempDir(), "potion-base-8M")
	first := startFetching(t, h.URL, "", dir)
	if d := first.settle(); d.State != wire.DownloadFailed || d.File != "model.safetensors" || d.Bytes != 4000 {
		t.Fatalf("cut download %+v", d)
	}
	if st := first.stats(); st["embedder"] != "hash" {
		t.Errorf("embedder while the model is missing: %v", st["embedder"])
	}
	h.Set(func(h *hubtest.Hub) { h.CutAfter = 0 })
	second := startFetching(t, h.URL, "", dir)
	if d := second.settle(); d.State != wire.DownloadDone {
		t.Fatalf("resumed download %+v", d)
	}
	resumed := false
	for _, r := range h.Requests() {
		resumed = resumed || (strings.HasSuffix(r.Path, "/model.safetensors") && r.Range == "bytes=4000-")
	}
	if !resumed {
		t.Errorf("no request resumed from byte 4000: %+v", h.Requests())
	}
}

func TestGatedModelWithoutTokenKeepsTheHashEmbedder(t *testing.T) {
	h := modelHub(t)
	h.Set(func(h *hubtest.Hub) { h.Token = "needed" })
	sc := startFetching(t, h.URL, "", filepath.Join(t.TempDir(), "potion-base-8M"))
	d := sc.settle()
	if d.State != wire.DownloadFailed || !strings.Contains(d.Error, "401") || !strings.Contains(d.Error, "HF_TOKEN") {
		t.Errorf("gated download %+v", d)
	}
	if st := sc.stats(); st["embedder"] != "hash" {
		t.Errorf("embedder %v", st["embedder"])
	}
}

func TestCorruptDownloadIsRefused(t *testing.T) {
	h := modelHub(t)
	h.Set(func(h *hubtest.Hub) { h.BadSHA = true })
	dir := filepath.Join(t.TempDir(), "potion-base-8M")
	sc := startFetching(t, h.URL, "", dir)
	if d := sc.settle(); d.State != wire.DownloadFailed || !strings.Contains(d.Error, "sha256") {
		t.Errorf("corrupt download %+v", d)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("refused files stayed: %v", left)
	}
}

func TestModelThatDoesNotLoadIsDeleted(t *testing.T) {
	h := modelHub(t)
	h.Add(embed.Potion.ID, embed.Potion.Revision, "model.safetensors", []byte("not a safetensors file"))
	dir := filepath.Join(t.TempDir(), "potion-base-8M")
	sc := startFetching(t, h.URL, "", dir)
	if d := sc.settle(); d.State != wire.DownloadFailed || !strings.Contains(d.Error, "did not load") {
		t.Errorf("unloadable model %+v", d)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files of a model that does not load stayed: %v", left)
	}
	if st := sc.stats(); st["embedder"] != "hash" {
		t.Errorf("embedder %v", st["embedder"])
	}
}

func TestHangingHubLeavesTheHashEmbedderAnswering(t *testing.T) {
	h := modelHub(t)
	h.Set(func(h *hubtest.Hub) { h.Hang = true })
	sc := startFetching(t, h.URL, "", filepath.Join(t.TempDir(), "potion-base-8M"))
	// startFetching returned on the first healthy answer: the hub never did.
	// The download is under way from the first answer on.
	if d := sc.download(); d.State != wire.DownloadDownloading || d.File != "model.safetensors" {
		t.Errorf("download while the hub hangs %+v", d)
	}
	if res := sc.search(map[string]any{"queries": []string{"renew passport"}}); res["embedder"] != "hash" {
		t.Errorf("search while the hub hangs: %v", res["embedder"])
	}
}

func TestNetworkGoneIsOffline(t *testing.T) {
	sc := startFetching(t, "http://127.0.0.1:1", "", filepath.Join(t.TempDir(), "potion-base-8M"))
	if d := sc.settle(); d.State != wire.DownloadOffline || d.Error == "" {
		t.Errorf("download without a network %+v", d)
	}
	if st := sc.stats(); st["embedder"] != "hash" || st["download"].(map[string]any)["state"] != wire.DownloadOffline {
		t.Errorf("stats %v", st)
	}
}

func TestModelAlreadyThereIsNotFetched(t *testing.T) {
	h := modelHub(t)
	dir := filepath.Join(t.TempDir(), "potion-base-8M")
	os.MkdirAll(dir, 0o755)
	for name, b := range tinyModel() {
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	sc := startFetching(t, h.URL, "", dir)
	if d := sc.download(); d.State != wire.DownloadIdle || len(h.Requests()) != 0 {
		t.Errorf("download %+v, %d requests", d, len(h.Requests()))
	}
	if st := sc.stats(); st["embedder"] != "model2vec:potion-base-8M" {
		t.Errorf("embedder %v", st["embedder"])
	}
}
