package load

import (
	"reflect"

	"go.yaml.in/yaml/v3"
)

// The raw entries of srgen's two YAML formats. They hold what the file
// says, as written; gen/model resolves and checks their meaning. Each
// carries the position of its first line.

// FieldEntry is one field of a level, in either YAML format.
type FieldEntry struct {
	Name string `yaml:"name"`
	// Type is the machine type expression, such as "map<content|null>".
	Type string `yaml:"type"`
	// TypeText is the type for people; empty: the spec gave none.
	TypeText string `yaml:"type_text"`
	Required bool   `yaml:"required"`
	// Passive: the member has no runtime semantics (carried in its
	// object's Extra, never bound to an IR field).
	Passive       bool           `yaml:"passive"`
	Enum          []string       `yaml:"enum"`
	Minimum       *float64       `yaml:"minimum"`
	Maximum       *float64       `yaml:"maximum"`
	MinCount      *int           `yaml:"min_count"`
	MaxCount      *int           `yaml:"max_count"`
	QuestionTypes []string       `yaml:"question_types"`
	DocumentedIn  []string       `yaml:"documented_in"`
	Description   string         `yaml:"description"`
	Criteria      *CriteriaEntry `yaml:"criteria"`
	// OpenAPI is how the published document writes the field where it
	// differs from the entry (standard format only); nil: as the entry.
	OpenAPI   *OpenAPIReadingEntry `yaml:"openapi"`
	Formats   []string             `yaml:"formats"`
	AnswersAs string               `yaml:"answers_as"`
	// AnswerMembers are the answer members a question type entry declares
	// for its own answers (extension format, question_type level only).
	AnswerMembers []AnswerMemberEntry `yaml:"answer_members"`
	// Extension format only.
	Since         string   `yaml:"since"`
	Families      Families `yaml:"families"`
	OnSystemOne02 string   `yaml:"on_systemone_0_2"`
	Pos           Position `yaml:"-"`
}

// AnswerMemberEntry is an answer member declared by a question type
// entry: the answer takes the entry's version, families and question type.
type AnswerMemberEntry struct {
	Name        string   `yaml:"name"`
	Type        string   `yaml:"type"`
	TypeText    string   `yaml:"type_text"`
	Description string   `yaml:"description"`
	Pos         Position `yaml:"-"`
}

// Families is a families value: a word ("all", "the Router") or a list.
type Families struct {
	// Text is the word, when the spec wrote one.
	Text string `yaml:"-"`
	// List is the families, when the spec listed them.
	List []string `yaml:"-"`
}

// CriteriaEntry is a question type's criteria shape.
type CriteriaEntry struct {
	Kind     string   `yaml:"kind"`
	Required bool     `yaml:"required"`
	Nullable bool     `yaml:"nullable"`
	Keys     []string `yaml:"keys"`
	Values   string   `yaml:"values"`
	MinCount *int     `yaml:"min_count"`
	MaxCount *int     `yaml:"max_count"`
	// OpenAPI is how the published document writes the criteria where they
	// differ from the entry (standard format only); nil: as the entry.
	OpenAPI *OpenAPIReadingEntry `yaml:"openapi"`
	Pos     Position             `yaml:"-"`
}

// OpenAPIReadingEntry is the published OpenAPI document's reading of a field or
// of a question type's criteria, where it differs from the entry: each
// pointer is nil when the reading does not say, and Unset lists the keys
// written as null (the document states no such constraint).
type OpenAPIReadingEntry struct {
	Type     string   `yaml:"type"`
	Required *bool    `yaml:"required"`
	Nullable *bool    `yaml:"nullable"`
	Enum     []string `yaml:"enum"`
	Minimum  *float64 `yaml:"minimum"`
	Maximum  *float64 `yaml:"maximum"`
	MinCount *int     `yaml:"min_count"`
	MaxCount *int     `yaml:"max_count"`
	// Unset are the keys whose value is null, in the order written.
	Unset    []string `yaml:"-"`
	Conflict string   `yaml:"conflict"`
	Pos      Position `yaml:"-"`
}

// LevelList is a format's fields mapping, level by level in spec order.
type LevelList []LevelFields

// LevelFields is the fields of one level, in spec order.
type LevelFields struct {
	Level  string       `yaml:"-"`
	Pos    Position     `yaml:"-"`
	Fields []FieldEntry `yaml:"-"`
}

// NamedTypeEntry is a named type (standard format).
type NamedTypeEntry struct {
	Name         string   `yaml:"name"`
	Type         string   `yaml:"type"`
	DocumentedIn []string `yaml:"documented_in"`
	Description  string   `yaml:"description"`
	Pos          Position `yaml:"-"`
}

// EndpointEntry is one endpoint of either YAML format.
type EndpointEntry struct {
	Method       string   `yaml:"method"`
	Path         string   `yaml:"path"`
	Request      string   `yaml:"request"`
	Response     string   `yaml:"response"`
	Statuses     []int    `yaml:"statuses"`
	DocumentedIn []string `yaml:"documented_in"`
	Since        string   `yaml:"since"`
	Families     Families `yaml:"families"`
	Description  string   `yaml:"description"`
	Pos          Position `yaml:"-"`
}

// HeaderEntry is a header (standard format).
type HeaderEntry struct {
	Name string `yaml:"name"`
	// Symbol is the header's name in generated code (snake_case, no
	// vendor prefix); "" when the name itself serves.
	Symbol       string   `yaml:"symbol"`
	Direction    string   `yaml:"direction"`
	Values       []string `yaml:"values"`
	DocumentedIn []string `yaml:"documented_in"`
	Description  string   `yaml:"description"`
	Pos          Position `yaml:"-"`
}

// StatusEntry is a status code (standard format).
type StatusEntry struct {
	Code         int      `yaml:"code"`
	Body         string   `yaml:"body"`
	Meaning      string   `yaml:"meaning"`
	DocumentedIn []string `yaml:"documented_in"`
	Pos          Position `yaml:"-"`
}

// ConflictEntry is a conflict between the standard's sources.
type ConflictEntry struct {
	Topic      string         `yaml:"topic"`
	Readings   []ReadingEntry `yaml:"readings"`
	Resolution string         `yaml:"resolution"`
	Pos        Position       `yaml:"-"`
}

// ReadingEntry is one source's reading.
type ReadingEntry struct {
	Source string `yaml:"source"`
	Says   string `yaml:"says"`
}

// RemovedFormEntry is a removed 4.0 form (extension format).
type RemovedFormEntry struct {
	Form       string `yaml:"form"`
	Level      string `yaml:"level"`
	ReplacedBy string `yaml:"replaced_by"`
	// Replacement: exactly one of Field ("level.name"), Endpoint
	// ("METHOD /path") or Header (with Value).
	Field    string   `yaml:"-"`
	Endpoint string   `yaml:"-"`
	Header   string   `yaml:"-"`
	Value    string   `yaml:"-"`
	Note     string   `yaml:"note"`
	Pos      Position `yaml:"-"`
}

// FamilyEntry is a model family (extension format).
type FamilyEntry struct {
	Name          string   `yaml:"name"`
	Title         string   `yaml:"title"`
	QuestionTypes []string `yaml:"question_types"`
	RoleAware     bool     `yaml:"role_aware"`
	Modalities    []string `yaml:"modalities"`
	SpanHeads     []string `yaml:"span_heads"`
	// CanonicalPresets: a card of the family may list presets, answered
	// through their canonical texts (no trained head).
	CanonicalPresets bool     `yaml:"canonical_presets"`
	Description      string   `yaml:"description"`
	Pos              Position `yaml:"-"`
}

// QuestionErrorEntry is a question error kind (extension format).
type QuestionErrorEntry struct {
	Kind        string   `yaml:"kind"`
	Status      int      `yaml:"status"`
	Description string   `yaml:"description"`
	Pos         Position `yaml:"-"`
}

// RequestErrorEntry is a request error code (extension format).
type RequestErrorEntry struct {
	Code        string   `yaml:"code"`
	Status      int      `yaml:"status"`
	RetryAfter  bool     `yaml:"retry_after"`
	Description string   `yaml:"description"`
	Pos         Position `yaml:"-"`
}

// ReplacedStatusEntry is a status of the standard's endpoints that a
// server of the extension set answers with another (extension format).
type ReplacedStatusEntry struct {
	Status     int      `yaml:"status"`
	ReplacedBy int      `yaml:"replaced_by"`
	Reason     string   `yaml:"reason"`
	Pos        Position `yaml:"-"`
}

// ErrorReasonEntry is one fixed reason word (extension format).
type ErrorReasonEntry struct {
	Reason      string `yaml:"reason"`
	Description string `yaml:"description"`
	// Kind is the question error kind a question failing for this reason
	// takes, Code the request error code a refusal for it answers with;
	// "" when the reason has no single one.
	Kind string `yaml:"kind"`
	Code string `yaml:"code"`
	// Status is the HTTP status where it is not the code's (0: the code's,
	// or the kind's).
	Status int `yaml:"status"`
	// Unit is the unit of the limit the reason names; "" for none.
	Unit string `yaml:"unit"`
	// Members and Problems: a reply's problem of one of Problems (the
	// validators' words) at one of Members (paths from a reply level,
	// "answer.box.top", "*" for any key) is reported with this reason.
	Members  []string `yaml:"members"`
	Problems []string `yaml:"problems"`
	Pos      Position `yaml:"-"`
}

// FeatureEntry is one word of a listing's features (extension format):
// the spec word it stands for, by exactly one of Field (level.name),
// Endpoint (METHOD /path) or Header.
type FeatureEntry struct {
	Feature     string   `yaml:"feature"`
	Field       string   `yaml:"field"`
	Endpoint    string   `yaml:"endpoint"`
	Header      string   `yaml:"header"`
	Description string   `yaml:"description"`
	Pos         Position `yaml:"-"`
}

// LimitEntry is a limit (extension format).
type LimitEntry struct {
	Name          string   `yaml:"name"`
	Min           *int64   `yaml:"min"`
	Max           *int64   `yaml:"max"`
	Unit          string   `yaml:"unit"`
	QuestionTypes []string `yaml:"question_types"`
	Description   string   `yaml:"description"`
	Pos           Position `yaml:"-"`
}

// The decoding rules yaml tags cannot state: an ordered mapping read as a
// list, a value that is a word or a list, null as "the document says
// nothing", a member read from a nested mapping. They run on nodes that
// have passed the format's JSON Schema.

// UnmarshalYAML reads the fields mapping in spec order.
func (l *LevelList) UnmarshalYAML(n *yaml.Node) (err error) {
	*l, err = decodeOrdered(n, func(level string, v *yaml.Node) (LevelFields, error) {
		lf := LevelFields{Level: level}
		err := v.Decode(&lf.Fields)
		return lf, err
	})
	return err
}

// place gives each level the position of its key.
func (l LevelList) place(file string, n *yaml.Node) {
	placeOrdered(file, n, len(l), func(i int) (*Position, reflect.Value) {
		return &l[i].Pos, reflect.ValueOf(&l[i].Fields).Elem()
	})
}

// UnmarshalYAML reads a families value: a word or a list.
func (f *Families) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.SequenceNode {
		return n.Decode(&f.List)
	}
	return n.Decode(&f.Text)
}

// UnmarshalYAML reads an openapi reading. A null value is not "absent": it
// records that the document sets no such constraint, so its key goes to
// Unset while the pointer stays nil.
func (r *OpenAPIReadingEntry) UnmarshalYAML(n *yaml.Node) error {
	type plain OpenAPIReadingEntry
	if err := n.Decode((*plain)(r)); err != nil {
		return err
	}
	pairs(n, func(k, v *yaml.Node) {
		if nodeKind(v) == "null" {
			r.Unset = append(r.Unset, k.Value)
		}
	})
	return nil
}

// UnmarshalYAML reads a removed form, its replacement's members included.
func (r *RemovedFormEntry) UnmarshalYAML(n *yaml.Node) error {
	type plain RemovedFormEntry
	var raw struct {
		plain       `yaml:",inline"`
		Replacement struct {
			Field    string `yaml:"field"`
			Endpoint string `yaml:"endpoint"`
			Header   string `yaml:"header"`
			Value    string `yaml:"value"`
		} `yaml:"replacement"`
	}
	if err := n.Decode(&raw); err != nil {
		return err
	}
	*r = RemovedFormEntry(raw.plain)
	r.Field, r.Endpoint = raw.Replacement.Field, raw.Replacement.Endpoint
	r.Header, r.Value = raw.Replacement.Header, raw.Replacement.Value
	return nil
}
