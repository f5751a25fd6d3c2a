package load

import "go.yaml.in/yaml/v3"

// The raw entries of srgen's two YAML formats. They hold what the file
// says, as written; gen/model resolves and checks their meaning. Each
// carries the position of its first line.

// FieldEntry is one field of a level, in either YAML format.
type FieldEntry struct {
	Name string
	// Type is the machine type expression, such as "map<content|null>".
	Type string
	// TypeText is the type for people; empty: the spec gave none.
	TypeText string
	Required bool
	// Passive: the member has no runtime semantics (carried in its
	// object's Extra, never bound to an IR field).
	Passive       bool
	Enum          []string
	Minimum       *float64
	Maximum       *float64
	MinCount      *int
	MaxCount      *int
	QuestionTypes []string
	DocumentedIn  []string
	Description   string
	Criteria      *CriteriaEntry
	// OpenAPI is how the published document writes the field where it
	// differs from the entry (standard format only); nil: as the entry.
	OpenAPI   *OpenAPIReadingEntry
	Formats   []string
	AnswersAs string
	// AnswerMembers are the answer members a question type entry declares
	// for its own answers (extension format, question_type level only).
	AnswerMembers []AnswerMemberEntry
	// Extension format only.
	Since         string
	Families      Families
	OnSystemOne02 string
	Pos           Position
}

// AnswerMemberEntry is an answer member declared by a question type
// entry: the answer takes the entry's version, families and question type.
type AnswerMemberEntry struct {
	Name        string
	Type        string
	TypeText    string
	Description string
	Pos         Position
}

// Families is a families value: a word ("all", "the Router") or a list.
type Families struct {
	// Text is the word, when the spec wrote one.
	Text string
	// List is the families, when the spec listed them.
	List []string
}

// CriteriaEntry is a question type's criteria shape.
type CriteriaEntry struct {
	Kind     string
	Required bool
	Nullable bool
	Keys     []string
	Values   string
	MinCount *int
	MaxCount *int
	// OpenAPI is how the published document writes the criteria where they
	// differ from the entry (standard format only); nil: as the entry.
	OpenAPI *OpenAPIReadingEntry
	Pos     Position
}

// OpenAPIReadingEntry is the published OpenAPI document's reading of a field or
// of a question type's criteria, where it differs from the entry: each
// pointer is nil when the reading does not say, and Unset lists the keys
// written as null (the document states no such constraint).
type OpenAPIReadingEntry struct {
	Type     string
	Required *bool
	Nullable *bool
	Enum     []string
	Minimum  *float64
	Maximum  *float64
	MinCount *int
	MaxCount *int
	// Unset are the keys whose value is null, in the order written.
	Unset    []string
	Conflict string
	Pos      Position
}

// LevelFields is the fields of one level, in spec order.
type LevelFields struct {
	Level  string
	Pos    Position
	Fields []FieldEntry
}

// NamedTypeEntry is a named type (standard format).
type NamedTypeEntry struct {
	Name         string
	Type         string
	DocumentedIn []string
	Description  string
	Pos          Position
}

// EndpointEntry is one endpoint of either YAML format.
type EndpointEntry struct {
	Method       string
	Path         string
	Request      string
	Response     string
	Statuses     []int
	DocumentedIn []string
	Since        string
	Families     Families
	Description  string
	Pos          Position
}

// HeaderEntry is a header (standard format).
type HeaderEntry struct {
	Name string
	// Symbol is the header's name in generated code (snake_case, no
	// vendor prefix); "" when the name itself serves.
	Symbol       string
	Direction    string
	Values       []string
	DocumentedIn []string
	Description  string
	Pos          Position
}

// StatusEntry is a status code (standard format).
type StatusEntry struct {
	Code         int
	Body         string
	Meaning      string
	DocumentedIn []string
	Pos          Position
}

// ConflictEntry is a conflict between the standard's sources.
type ConflictEntry struct {
	Topic      string
	Readings   []ReadingEntry
	Resolution string
	Pos        Position
}

// ReadingEntry is one source's reading.
type ReadingEntry struct {
	Source string
	Says   string
}

// RemovedFormEntry is a removed 4.0 form (extension format).
type RemovedFormEntry struct {
	Form       string
	Level      string
	ReplacedBy string
	// Replacement: exactly one of Field ("level.name"), Endpoint
	// ("METHOD /path") or Header (with Value).
	Field    string
	Endpoint string
	Header   string
	Value    string
	Note     string
	Pos      Position
}

// FamilyEntry is a model family (extension format).
type FamilyEntry struct {
	Name          string
	Title         string
	QuestionTypes []string
	RoleAware     bool
	Modalities    []string
	SpanHeads     []string
	// CanonicalPresets: a card of the family may list presets, answered
	// through their canonical texts (no trained head).
	CanonicalPresets bool
	Description      string
	Pos              Position
}

// QuestionErrorEntry is a question error kind (extension format).
type QuestionErrorEntry struct {
	Kind        string
	Status      int
	Description string
	Pos         Position
}

// RequestErrorEntry is a request error code (extension format).
type RequestErrorEntry struct {
	Code        string
	Status      int
	RetryAfter  bool
	Description string
	Pos         Position
}

// ReplacedStatusEntry is a status of the standard's endpoints that a
// server of the extension set answers with another (extension format).
type ReplacedStatusEntry struct {
	Status     int
	ReplacedBy int
	Reason     string
	Pos        Position
}

// ErrorReasonEntry is one fixed reason word (extension format).
type ErrorReasonEntry struct {
	Reason      string
	Description string
	// Kind is the question error kind a question failing for this reason
	// takes, Code the request error code a refusal for it answers with;
	// "" when the reason has no single one.
	Kind, Code string
	// Status is the HTTP status where it is not the code's (0: the code's,
	// or the kind's).
	Status int
	// Unit is the unit of the limit the reason names; "" for none.
	Unit string
	// Members and Problems: a reply's problem of one of Problems (the
	// validators' words) at one of Members (paths from a reply level,
	// "answer.box.top", "*" for any key) is reported with this reason.
	Members, Problems []string
	Pos               Position
}

// FeatureEntry is one word of a listing's features (extension format):
// the spec word it stands for, by exactly one of Field (level.name),
// Endpoint (METHOD /path) or Header.
type FeatureEntry struct {
	Feature     string
	Field       string
	Endpoint    string
	Header      string
	Description string
	Pos         Position
}

// LimitEntry is a limit (extension format).
type LimitEntry struct {
	Name          string
	Min           *int64
	Max           *int64
	Unit          string
	QuestionTypes []string
	Description   string
	Pos           Position
}

// The decoders below read nodes that already passed the format's JSON
// Schema, so kinds are known to be right; they only copy values.

func decodeLevels(file string, n *yaml.Node) []LevelFields {
	var out []LevelFields
	pairs(n, func(k, v *yaml.Node) {
		lf := LevelFields{Level: k.Value, Pos: posOf(file, k)}
		for _, item := range v.Content {
			lf.Fields = append(lf.Fields, decodeField(file, item))
		}
		out = append(out, lf)
	})
	return out
}

func decodeField(file string, n *yaml.Node) FieldEntry {
	f := FieldEntry{
		Name:          scalarString(member(n, "name")),
		Type:          scalarString(member(n, "type")),
		TypeText:      scalarString(member(n, "type_text")),
		Required:      scalarBool(member(n, "required")),
		Passive:       scalarBool(member(n, "passive")),
		Enum:          stringList(member(n, "enum")),
		Minimum:       scalarFloat(member(n, "minimum")),
		Maximum:       scalarFloat(member(n, "maximum")),
		MinCount:      scalarInt(member(n, "min_count")),
		MaxCount:      scalarInt(member(n, "max_count")),
		QuestionTypes: stringList(member(n, "question_types")),
		DocumentedIn:  stringList(member(n, "documented_in")),
		Description:   scalarString(member(n, "description")),
		Formats:       stringList(member(n, "formats")),
		AnswersAs:     scalarString(member(n, "answers_as")),
		Since:         scalarString(member(n, "since")),
		Families:      decodeFamilies(member(n, "families")),
		OnSystemOne02: scalarString(member(n, "on_systemone_0_2")),
		OpenAPI:       decodeReading(file, member(n, "openapi")),
		Pos:           posOf(file, n),
	}
	for _, am := range seq(member(n, "answer_members")) {
		f.AnswerMembers = append(f.AnswerMembers, AnswerMemberEntry{
			Name:        scalarString(member(am, "name")),
			Type:        scalarString(member(am, "type")),
			TypeText:    scalarString(member(am, "type_text")),
			Description: scalarString(member(am, "description")),
			Pos:         posOf(file, am),
		})
	}
	if c := member(n, "criteria"); c != nil {
		f.Criteria = &CriteriaEntry{
			Kind:     scalarString(member(c, "kind")),
			Required: scalarBool(member(c, "required")),
			Nullable: scalarBool(member(c, "nullable")),
			Keys:     stringList(member(c, "keys")),
			Values:   scalarString(member(c, "values")),
			MinCount: scalarInt(member(c, "min_count")),
			MaxCount: scalarInt(member(c, "max_count")),
			OpenAPI:  decodeReading(file, member(c, "openapi")),
			Pos:      posOf(file, c),
		}
	}
	return f
}

// decodeReading reads an openapi reading; nil when the entry has none. A
// null value is not "absent": it records that the document sets no such
// constraint, so it goes to Unset rather than leaving the pointer nil.
func decodeReading(file string, n *yaml.Node) *OpenAPIReadingEntry {
	if n == nil {
		return nil
	}
	r := &OpenAPIReadingEntry{Pos: posOf(file, n)}
	pairs(n, func(k, v *yaml.Node) {
		if nodeKind(v) == "null" {
			r.Unset = append(r.Unset, k.Value)
			return
		}
		switch k.Value {
		case "type":
			r.Type = scalarString(v)
		case "required":
			r.Required = optionalBool(v)
		case "nullable":
			r.Nullable = optionalBool(v)
		case "enum":
			r.Enum = stringList(v)
		case "minimum":
			r.Minimum = scalarFloat(v)
		case "maximum":
			r.Maximum = scalarFloat(v)
		case "min_count":
			r.MinCount = scalarInt(v)
		case "max_count":
			r.MaxCount = scalarInt(v)
		case "conflict":
			r.Conflict = scalarString(v)
		}
	})
	return r
}

func decodeFamilies(n *yaml.Node) Families {
	if n == nil {
		return Families{}
	}
	if n.Kind == yaml.SequenceNode {
		return Families{List: stringList(n)}
	}
	return Families{Text: scalarString(n)}
}

func decodeEndpoints(file string, n *yaml.Node) []EndpointEntry {
	var out []EndpointEntry
	for _, e := range seq(n) {
		var statuses []int
		for _, s := range seq(member(e, "statuses")) {
			if i := scalarInt(s); i != nil {
				statuses = append(statuses, *i)
			}
		}
		out = append(out, EndpointEntry{
			Method:       scalarString(member(e, "method")),
			Path:         scalarString(member(e, "path")),
			Request:      scalarString(member(e, "request")),
			Response:     scalarString(member(e, "response")),
			Statuses:     statuses,
			DocumentedIn: stringList(member(e, "documented_in")),
			Since:        scalarString(member(e, "since")),
			Families:     decodeFamilies(member(e, "families")),
			Description:  scalarString(member(e, "description")),
			Pos:          posOf(file, e),
		})
	}
	return out
}

// seq returns a sequence node's items, or nil for any other node.
func seq(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

func intOr0(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
