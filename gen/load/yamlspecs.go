package load

import "go.yaml.in/yaml/v3"

// Standard is the raw standard description (format systemone-standard/1).
type Standard struct {
	File    File   `yaml:"-"`
	Format  string `yaml:"format"`
	Schema  string `yaml:"schema"`
	Version string `yaml:"version"`
	Title   string `yaml:"title"`
	// SchemaPos is the position of the schema value.
	SchemaPos  Position         `yaml:"-" at:"schema"`
	Source     StandardSource   `yaml:"source"`
	NamedTypes []NamedTypeEntry `yaml:"named_types"`
	Fields     LevelList        `yaml:"fields"`
	Endpoints  []EndpointEntry  `yaml:"endpoints"`
	Headers    []HeaderEntry    `yaml:"headers"`
	Statuses   []StatusEntry    `yaml:"statuses"`
	Conflicts  []ConflictEntry  `yaml:"conflicts"`
}

// StandardSource is the published document the description was checked
// against.
type StandardSource struct {
	URL     string `yaml:"url"`
	SHA256  string `yaml:"sha256"`
	OpenAPI string `yaml:"openapi"`
	Docs    string `yaml:"docs"`
	// Components are the published document's component schemas and the
	// level each describes, in spec order.
	Components []SourceComponentEntry `yaml:"components"`
}

// SourceComponentEntry is one published component schema and the level
// (and question type, for a per-type component) of ours it describes.
type SourceComponentEntry struct {
	Name         string   `yaml:"name"`
	Level        string   `yaml:"level"`
	QuestionType string   `yaml:"question_type"`
	Pos          Position `yaml:"-"`
}

// Extensions is the raw extension set (format vllm-sr-extensions/1).
type Extensions struct {
	File      File     `yaml:"-"`
	Format    string   `yaml:"format"`
	Schema    string   `yaml:"schema"`
	SchemaPos Position `yaml:"-" at:"schema"`
	// Extends is the schema ID of the standard it adds to.
	Extends        string               `yaml:"extends"`
	ExtendsPos     Position             `yaml:"-" at:"extends"`
	Version        string               `yaml:"version"`
	Title          string               `yaml:"title"`
	Fields         LevelList            `yaml:"fields"`
	Endpoints      []EndpointEntry      `yaml:"endpoints"`
	RemovedForms   []RemovedFormEntry   `yaml:"removed_forms"`
	Families       []FamilyEntry        `yaml:"families"`
	QuestionErrors []QuestionErrorEntry `yaml:"question_errors"`
	RequestErrors  []RequestErrorEntry  `yaml:"request_errors"`
	// ReplacedStatuses are the standard's statuses the extension set
	// answers with another, in spec order.
	ReplacedStatuses []ReplacedStatusEntry `yaml:"replaced_statuses"`
	Limits           []LimitEntry          `yaml:"limits"`
	// ErrorReasons are the fixed reason words, in spec order.
	ErrorReasons []ErrorReasonEntry `yaml:"error_reasons"`
	// Features are the listing's feature words, in spec order.
	Features []FeatureEntry `yaml:"features"`
	// Overrides apply to every schema that includes the extension set.
	Overrides []OverrideEntry `yaml:"overrides"`
	// InternalForm is the internal wire form's schema; nil when the spec
	// defines none.
	InternalForm *InternalFormEntry `yaml:"internal_form"`
	// WriteOrder are the levels whose members vllm-sr's writers put in an
	// order of their own, in spec order.
	WriteOrder []WriteOrderEntry `yaml:"write_order"`
}

// WriteOrderEntry is the order vllm-sr's writers give one level's members:
// Members first, in this order, then the level's other members in message
// order.
type WriteOrderEntry struct {
	Level   string   `yaml:"level"`
	Members []string `yaml:"members"`
	Reason  string   `yaml:"reason"`
	Pos     Position `yaml:"-"`
}

// OverrideEntry is one override: a member read differently from its
// defining spec, everywhere or within the entries of one map.
type OverrideEntry struct {
	// Field and Within are "level.name"; Within is "" for everywhere.
	Field    string `yaml:"field"`
	Within   string `yaml:"within"`
	Required *bool  `yaml:"required"`
	Nullable *bool  `yaml:"nullable"`
	// Allowed is false when the member is not allowed (there); nil when
	// the override does not say.
	Allowed *bool `yaml:"allowed"`
	// QuestionTypes replace the question types the member applies to; nil
	// when the override does not say.
	QuestionTypes []string `yaml:"question_types"`
	// Schemas limit an extension-set override to these schema IDs; empty:
	// every schema that includes the extension set.
	Schemas []string `yaml:"schemas"`
	Reason  string   `yaml:"reason"`
	Pos     Position `yaml:"-"`
}

// InternalFormEntry is the internal wire form: a schema that accepts what
// Accepts does, with its own overrides.
type InternalFormEntry struct {
	Schema      string          `yaml:"schema"`
	Accepts     string          `yaml:"accepts"`
	Title       string          `yaml:"title"`
	Description string          `yaml:"description"`
	Overrides   []OverrideEntry `yaml:"overrides"`
	Pos         Position        `yaml:"-"`
}

func decodeStandard(f File, root *yaml.Node, ps *Problems) *Standard {
	s := &Standard{File: f}
	if !decodeNode(f.Path, root, s, ps) {
		return nil
	}
	return s
}

func decodeExtensions(f File, root *yaml.Node, ps *Problems) *Extensions {
	e := &Extensions{File: f}
	if !decodeNode(f.Path, root, e, ps) {
		return nil
	}
	return e
}
