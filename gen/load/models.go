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
	File    File
	Title   string
	Presets []PresetEntry
	Models  []ModelEntry
}

// PresetEntry is one canonical preset text.
type PresetEntry struct {
	Name         string
	Type         string
	Description  string
	Instructions string
	// Criteria in the order written; nil when absent.
	Criteria []KeyText
	// Levels lowest first; nil when absent.
	Levels []string
	Pos    Position
}

// KeyText is one keyed criterion and its text.
type KeyText struct {
	Key  string
	Text string
}

// ModelEntry is one model and its card.
type ModelEntry struct {
	Name        string
	Family      string
	Description string
	ReleaseDate string
	Revision    string
	Card        CardEntry
	Pos         Position
}

// CardEntry is one model's card as written. Absent booleans are false and
// absent thresholds nil.
type CardEntry struct {
	QuestionTypes           []string
	Presets                 []CardPresetEntry
	Modalities              []string
	SpanHeads               []string
	DecisionAdapter         bool
	RoleAware               bool
	Over                    string
	Abstain                 bool
	SetThreshold            *float64
	SpanThreshold           *float64
	TrackRates              []int64
	PlaceholdersInQuestions bool
	Precision               string
	Numerics                string
	Limits                  LimitsEntry
	Pos                     Position
}

// CardPresetEntry is one preset a card lists.
type CardPresetEntry struct {
	Name string
	Type string
	Pos  Position
}

// LimitsEntry is a card's limits; a zero number or nil range is absent.
type LimitsEntry struct {
	MaxInputTokens            int64
	LongContextMaxInputTokens int64
	ScanBudget                int64
	MaxScanBudget             int64
	Choices, Labels, Levels   *RangeEntry
	Image                     *ImageEntry
	Video                     *VideoEntry
	Pos                       Position
}

// RangeEntry is an inclusive count range.
type RangeEntry struct {
	Min, Max int
	Pos      Position
}

// ImageEntry is a card's image limits.
type ImageEntry struct {
	MaxCount                       int
	MinSide, MaxSide               int64
	MinPixels, MaxPixels, MaxBytes int64
	Tokens                         int64
	Pos                            Position
}

// VideoEntry is a card's video limits.
type VideoEntry struct {
	MaxCount             int
	MaxBytes, MaxSeconds int64
	Tokens               int64
	Pos                  Position
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
	return decodeCatalog(f, root), nil
}

func decodeCatalog(f File, root *yaml.Node) *Catalog {
	p := f.Path
	c := &Catalog{File: f, Title: scalarString(member(root, "title"))}
	for _, n := range seq(member(root, "presets")) {
		e := PresetEntry{
			Name:         scalarString(member(n, "name")),
			Type:         scalarString(member(n, "type")),
			Description:  scalarString(member(n, "description")),
			Instructions: scalarString(member(n, "instructions")),
			Levels:       stringList(member(n, "levels")),
			Pos:          posOf(p, n),
		}
		pairs(member(n, "criteria"), func(k, v *yaml.Node) {
			e.Criteria = append(e.Criteria, KeyText{Key: k.Value, Text: scalarString(v)})
		})
		c.Presets = append(c.Presets, e)
	}
	for _, n := range seq(member(root, "models")) {
		c.Models = append(c.Models, ModelEntry{
			Name:        scalarString(member(n, "name")),
			Family:      scalarString(member(n, "family")),
			Description: scalarString(member(n, "description")),
			ReleaseDate: scalarString(member(n, "release_date")),
			Revision:    scalarString(member(n, "revision")),
			Card:        decodeCard(p, member(n, "card")),
			Pos:         posOf(p, n),
		})
	}
	return c
}

func decodeCard(p string, n *yaml.Node) CardEntry {
	thresholds := member(n, "thresholds")
	c := CardEntry{
		QuestionTypes:           stringList(member(n, "question_types")),
		Modalities:              stringList(member(n, "modalities")),
		SpanHeads:               stringList(member(n, "span_heads")),
		DecisionAdapter:         scalarBool(member(n, "decision_adapter")),
		RoleAware:               scalarBool(member(n, "role_aware")),
		Over:                    scalarString(member(n, "over")),
		Abstain:                 scalarBool(member(n, "abstain")),
		SetThreshold:            scalarFloat(member(thresholds, "set")),
		SpanThreshold:           scalarFloat(member(thresholds, "span")),
		PlaceholdersInQuestions: scalarBool(member(n, "placeholders_in_questions")),
		Precision:               scalarString(member(n, "precision")),
		Numerics:                scalarString(member(n, "numerics")),
		Limits:                  decodeLimits(p, member(n, "limits")),
		Pos:                     posOf(p, n),
	}
	for _, r := range seq(member(n, "track_rates")) {
		c.TrackRates = append(c.TrackRates, int64Or0(r))
	}
	for _, e := range seq(member(n, "presets")) {
		c.Presets = append(c.Presets, CardPresetEntry{
			Name: scalarString(member(e, "name")),
			Type: scalarString(member(e, "type")),
			Pos:  posOf(p, e),
		})
	}
	return c
}

func decodeLimits(p string, n *yaml.Node) LimitsEntry {
	l := LimitsEntry{
		MaxInputTokens:            int64Or0(member(n, "max_input_tokens")),
		LongContextMaxInputTokens: int64Or0(member(n, "long_context_max_input_tokens")),
		ScanBudget:                int64Or0(member(n, "scan_budget")),
		MaxScanBudget:             int64Or0(member(n, "max_scan_budget")),
		Choices:                   decodeRange(p, member(n, "choices")),
		Labels:                    decodeRange(p, member(n, "labels")),
		Levels:                    decodeRange(p, member(n, "levels")),
		Pos:                       posOf(p, n),
	}
	if img := member(n, "image"); img != nil {
		l.Image = &ImageEntry{
			MaxCount:  int(int64Or0(member(img, "max_count"))),
			MinSide:   int64Or0(member(img, "min_side")),
			MaxSide:   int64Or0(member(img, "max_side")),
			MinPixels: int64Or0(member(img, "min_pixels")),
			MaxPixels: int64Or0(member(img, "max_pixels")),
			MaxBytes:  int64Or0(member(img, "max_bytes")),
			Tokens:    int64Or0(member(img, "tokens")),
			Pos:       posOf(p, img),
		}
	}
	if vid := member(n, "video"); vid != nil {
		l.Video = &VideoEntry{
			MaxCount:   int(int64Or0(member(vid, "max_count"))),
			MaxBytes:   int64Or0(member(vid, "max_bytes")),
			MaxSeconds: int64Or0(member(vid, "max_seconds")),
			Tokens:     int64Or0(member(vid, "tokens")),
			Pos:        posOf(p, vid),
		}
	}
	return l
}

func decodeRange(p string, n *yaml.Node) *RangeEntry {
	if n == nil {
		return nil
	}
	return &RangeEntry{
		Min: int(int64Or0(member(n, "min"))),
		Max: int(int64Or0(member(n, "max"))),
		Pos: posOf(p, n),
	}
}

// int64Or0 is an integer scalar's value; 0 when absent (the schema has
// already refused anything that is not an integer).
func int64Or0(n *yaml.Node) int64 {
	if v := scalarInt64(n); v != nil {
		return *v
	}
	return 0
}
