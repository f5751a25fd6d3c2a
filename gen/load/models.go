package load

import (
	"io/fs"

	"go.yaml.in/yaml/v3"
)

// The model catalogue: specs/models/models.yaml, format vllm-sr-models/1,
// checked against specs/models.schema.json like the other YAML specs.
const (
	CatalogPath   = "specs/models/models.yaml"
	CatalogSchema = "specs/models.schema.json"
	CatalogFormat = "vllm-sr-models/1"
)

// Catalog is the raw model catalogue as written; gen/model checks every
// card against the extension set.
type Catalog struct {
	File    File          `yaml:"-"`
	Title   string        `yaml:"title"`
	Presets []PresetEntry `yaml:"presets"`
	Models  []ModelEntry  `yaml:"models"`
}

// PresetEntry is one canonical preset text.
type PresetEntry struct {
	Name         string `yaml:"name"`
	Type         string `yaml:"type"`
	Description  string `yaml:"description"`
	Instructions string `yaml:"instructions"`
	// Criteria in the order written; nil when absent.
	Criteria KeyTexts `yaml:"criteria"`
	// Levels lowest first; nil when absent.
	Levels []string `yaml:"levels"`
	Pos    Position `yaml:"-"`
}

// KeyTexts are keyed criteria in the order written.
type KeyTexts []KeyText

// KeyText is one keyed criterion and its text.
type KeyText struct {
	Key  string
	Text string
}

// ModelEntry is one model and its card.
type ModelEntry struct {
	Name        string    `yaml:"name"`
	Family      string    `yaml:"family"`
	Description string    `yaml:"description"`
	ReleaseDate string    `yaml:"release_date"`
	Revision    string    `yaml:"revision"`
	Card        CardEntry `yaml:"card"`
	Pos         Position  `yaml:"-"`
}

// CardEntry is one model's card as written. Absent booleans are false and
// absent thresholds nil.
type CardEntry struct {
	QuestionTypes           []string          `yaml:"question_types"`
	Presets                 []CardPresetEntry `yaml:"presets"`
	Modalities              []string          `yaml:"modalities"`
	SpanHeads               []string          `yaml:"span_heads"`
	DecisionAdapter         bool              `yaml:"decision_adapter"`
	RoleAware               bool              `yaml:"role_aware"`
	Over                    string            `yaml:"over"`
	Abstain                 bool              `yaml:"abstain"`
	SetThreshold            *float64          `yaml:"-"` // thresholds.set
	SpanThreshold           *float64          `yaml:"-"` // thresholds.span
	TrackRates              []int64           `yaml:"track_rates"`
	PlaceholdersInQuestions bool              `yaml:"placeholders_in_questions"`
	Precision               string            `yaml:"precision"`
	Numerics                string            `yaml:"numerics"`
	Limits                  LimitsEntry       `yaml:"limits"`
	Pos                     Position          `yaml:"-"`
}

// CardPresetEntry is one preset a card lists.
type CardPresetEntry struct {
	Name string   `yaml:"name"`
	Type string   `yaml:"type"`
	Pos  Position `yaml:"-"`
}

// LimitsEntry is a card's limits; a zero number or nil range is absent.
type LimitsEntry struct {
	MaxInputTokens            int64       `yaml:"max_input_tokens"`
	LongContextMaxInputTokens int64       `yaml:"long_context_max_input_tokens"`
	ScanBudget                int64       `yaml:"scan_budget"`
	MaxScanBudget             int64       `yaml:"max_scan_budget"`
	Choices                   *RangeEntry `yaml:"choices"`
	Labels                    *RangeEntry `yaml:"labels"`
	Levels                    *RangeEntry `yaml:"levels"`
	Image                     *ImageEntry `yaml:"image"`
	Video                     *VideoEntry `yaml:"video"`
	Pos                       Position    `yaml:"-"`
}

// RangeEntry is an inclusive count range.
type RangeEntry struct {
	Min int      `yaml:"min"`
	Max int      `yaml:"max"`
	Pos Position `yaml:"-"`
}

// ImageEntry is a card's image limits.
type ImageEntry struct {
	MaxCount  int      `yaml:"max_count"`
	MinSide   int64    `yaml:"min_side"`
	MaxSide   int64    `yaml:"max_side"`
	MinPixels int64    `yaml:"min_pixels"`
	MaxPixels int64    `yaml:"max_pixels"`
	MaxBytes  int64    `yaml:"max_bytes"`
	Tokens    int64    `yaml:"tokens"`
	Pos       Position `yaml:"-"`
}

// VideoEntry is a card's video limits.
type VideoEntry struct {
	MaxCount   int      `yaml:"max_count"`
	MaxBytes   int64    `yaml:"max_bytes"`
	MaxSeconds int64    `yaml:"max_seconds"`
	Tokens     int64    `yaml:"tokens"`
	Pos        Position `yaml:"-"`
}

// LoadCatalog reads CatalogPath from fsys, validates it against
// CatalogSchema and decodes it. Every problem is reported at once.
func LoadCatalog(fsys fs.FS) (*Catalog, error) {
	var ps Problems
	schema := readFormatSchema(fsys, CatalogSchema, &ps)
	f, ok := readFile(fsys, CatalogPath, &ps)
	if !ok || schema == nil {
		return nil, ps.Err()
	}
	root := checkYAML(f, schema, &ps)
	if err := ps.Err(); err != nil || root == nil {
		return nil, err
	}
	c := &Catalog{File: f}
	if !decodeNode(f.Path, root, c, &ps) {
		return nil, ps.Err()
	}
	return c, nil
}

// UnmarshalYAML reads a preset's criteria mapping in the order written.
func (kt *KeyTexts) UnmarshalYAML(n *yaml.Node) error {
	var err error
	pairs(n, func(k, v *yaml.Node) {
		var text string
		if e := v.Decode(&text); e != nil && err == nil {
			err = e
		}
		*kt = append(*kt, KeyText{Key: k.Value, Text: text})
	})
	return err
}

// UnmarshalYAML reads a card, its thresholds mapping included.
func (c *CardEntry) UnmarshalYAML(n *yaml.Node) error {
	type plain CardEntry
	var raw struct {
		plain      `yaml:",inline"`
		Thresholds struct {
			Set  *float64 `yaml:"set"`
			Span *float64 `yaml:"span"`
		} `yaml:"thresholds"`
	}
	if err := n.Decode(&raw); err != nil {
		return err
	}
	*c = CardEntry(raw.plain)
	c.SetThreshold, c.SpanThreshold = raw.Thresholds.Set, raw.Thresholds.Span
	return nil
}
