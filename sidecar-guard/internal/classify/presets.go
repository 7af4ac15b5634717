package classify

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/opsboard/opsboard/shared/hub"
)

// Window limits of the model classifier: text longer than MaxTokens is read
// in windows that overlap by Overlap tokens.
const (
	MaxTokens = 512
	Overlap   = 64
)

// DefaultPreset is the preset used when SVC_GUARD_MODEL is unset.
const DefaultPreset = "llama-prompt-guard-2-86m"

// HeuristicPreset routes to the heuristic detector; it needs no model.
const HeuristicPreset = "heuristic-only"

// DownloadPreset is the preset whose model the sidecar fetches by itself.
const DownloadPreset = "protectai"

// CustomPreset is the preset key reported for a raw model id.
const CustomPreset = "custom"

// Preset is one supported model with its flag threshold.
type Preset struct {
	Key         string
	ModelID     string
	Threshold   float64
	Gated       bool // the download needs a licence acceptance and HF_TOKEN
	Languages   []string
	Description string
	Heuristic   bool // routes to the heuristic detector, no model
	// Download names the files the sidecar fetches when the model
	// directory lacks them (auto mode only); nil for a preset whose files
	// must be set up by hand.
	Download *hub.Repo
}

// Presets is the catalogue, default first.
func Presets() []Preset {
	return []Preset{
		{
			Key: DefaultPreset, ModelID: "meta-llama/Llama-Prompt-Guard-2-86M", Threshold: 0.5, Gated: true,
			Languages:   []string{"en", "fr", "de", "es", "it", "pl", "pt", "ru"},
			Description: "Meta's multilingual prompt-injection and jailbreak classifier (86M, DeBERTa-v3). Gated: accept the licence on Hugging Face and set HF_TOKEN to download it.",
		},
		{
			Key: "qualifire", ModelID: "qualifire/prompt-injection-sentinel", Threshold: 0.8,
			Languages:   []string{"en"},
			Description: "Qualifire's prompt-injection sentinel, English only, not gated.",
		},
		{
			Key: DownloadPreset, ModelID: "protectai/deberta-v3-base-prompt-injection-v2", Threshold: 0.5,
			Languages:   []string{"en"},
			Description: "ProtectAI's DeBERTa-v3 prompt-injection classifier, English only, not gated. Its ONNX export is on the hub, so the sidecar downloads it on first start.",
			Download: &hub.Repo{ID: "protectai/deberta-v3-base-prompt-injection-v2", Revision: "main", Files: []hub.File{
				{Remote: "config.json"}, {Remote: "tokenizer.json"}, {Remote: "onnx/model.onnx"},
			}},
		},
		{
			Key: HeuristicPreset, ModelID: HeuristicPreset, Threshold: 0.5, Heuristic: true,
			Languages:   []string{},
			Description: "No model: the deterministic rule-based detector (instruction override, role redefinition, exfiltration, format injection, hidden text). Always ready.",
		},
	}
}

// Choice is the model the sidecar was started with.
type Choice struct {
	Preset    Preset // for a raw model id: Key CustomPreset, that id, threshold 0.5
	Threshold float64
}

// Resolve reads SVC_GUARD_MODEL and SVC_GUARD_THRESHOLD: a preset key in
// any case, any other value as a raw model id at 0.5, empty for the
// default. A threshold that parses as a float overrides the preset's
// without clamping; anything else is ignored.
func Resolve(model, threshold string) Choice {
	var c Choice
	model = strings.TrimSpace(model)
	switch p, ok := PresetByKey(model); {
	case model == "":
		c.Preset, _ = PresetByKey(DefaultPreset)
	case ok:
		c.Preset = p
	default:
		c.Preset = Preset{Key: CustomPreset, ModelID: model, Threshold: 0.5, Languages: []string{},
			Description: "A model named by SVC_GUARD_MODEL."}
	}
	c.Threshold = c.Preset.Threshold
	if t, err := strconv.ParseFloat(strings.TrimSpace(threshold), 64); err == nil {
		c.Threshold = t
	}
	return c
}

// PresetByKey finds a preset, ignoring case.
func PresetByKey(key string) (Preset, bool) {
	for _, p := range Presets() {
		if strings.EqualFold(p.Key, key) {
			return p, true
		}
	}
	return Preset{}, false
}

// Mode is the backend selection of SVC_GUARD_CLASSIFIER.
type Mode string

// Backend selection modes.
const (
	ModeAuto        Mode = "auto"        // the model when it loads, else the heuristic
	ModePromptGuard Mode = "promptguard" // the model or refuse to start
	ModeHeuristic   Mode = "heuristic"   // the heuristic only
)

// ParseMode reads SVC_GUARD_CLASSIFIER; empty means auto.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return ModeAuto, nil
	case ModeAuto, ModePromptGuard, ModeHeuristic:
		return m, nil
	}
	return "", fmt.Errorf("SVC_GUARD_CLASSIFIER %q: must be auto, promptguard or heuristic", s)
}
