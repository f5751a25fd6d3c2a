package load

import "go.yaml.in/yaml/v3"

// Standard is the raw standard description (format systemone-standard/1).
type Standard struct {
	File    File
	Format  string
	Schema  string
	Version string
	Title   string
	// SchemaPos is the position of the schema value.
	SchemaPos  Position
	Source     StandardSource
	NamedTypes []NamedTypeEntry
	Fields     []LevelFields
	Endpoints  []EndpointEntry
	Headers    []HeaderEntry
	Statuses   []StatusEntry
	Conflicts  []ConflictEntry
}

// StandardSource is the published document the description was checked
// against.
type StandardSource struct {
	URL     string
	SHA256  string
	OpenAPI string
	Docs    string
	// Components are the published document's component schemas and the
	// level each describes, in spec order.
	Components []SourceComponentEntry
}

// SourceComponentEntry is one published component schema and the level
// (and question type, for a per-type component) of ours it describes.
type SourceComponentEntry struct {
	Name         string
	Level        string
	QuestionType string
	Pos          Position
}

// Extensions is the raw extension set (format vllm-sr-extensions/1).
type Extensions struct {
	File      File
	Format    string
	Schema    string
	SchemaPos Position
	// Extends is the schema ID of the standard it adds to.
	Extends        string
	ExtendsPos     Position
	Version        string
	Title          string
	Fields         []LevelFields
	Endpoints      []EndpointEntry
	RemovedForms   []RemovedFormEntry
	Families       []FamilyEntry
	QuestionErrors []QuestionErrorEntry
	RequestErrors  []RequestErrorEntry
	// ReplacedStatuses are the standard's statuses the extension set
	// answers with another, in spec order.
	ReplacedStatuses []ReplacedStatusEntry
	Limits           []LimitEntry
	// ErrorReasons are the fixed reason words, in spec order.
	ErrorReasons []ErrorReasonEntry
	// Features are the listing's feature words, in spec order.
	Features []FeatureEntry
	// Overrides apply to every schema that includes the extension set.
	Overrides []OverrideEntry
	// InternalForm is the internal wire form's schema; nil when the spec
	// defines none.
	InternalForm *InternalFormEntry
	// WriteOrder are the levels whose members vllm-sr's writers put in an
	// order of their own, in spec order.
	WriteOrder []WriteOrderEntry
}

// WriteOrderEntry is the order vllm-sr's writers give one level's members:
// Members first, in this order, then the level's other members in message
// order.
type WriteOrderEntry struct {
	Level   string
	Members []string
	Reason  string
	Pos     Position
}

// OverrideEntry is one override: a member read differently from its
// defining spec, everywhere or within the entries of one map.
type OverrideEntry struct {
	// Field and Within are "level.name"; Within is "" for everywhere.
	Field    string
	Within   string
	Required *bool
	Nullable *bool
	// Allowed is false when the member is not allowed (there); nil when
	// the override does not say.
	Allowed *bool
	// QuestionTypes replace the question types the member applies to; nil
	// when the override does not say.
	QuestionTypes []string
	// Schemas limit an extension-set override to these schema IDs; empty:
	// every schema that includes the extension set.
	Schemas []string
	Reason  string
	Pos     Position
}

// InternalFormEntry is the internal wire form: a schema that accepts what
// Accepts does, with its own overrides.
type InternalFormEntry struct {
	Schema      string
	Accepts     string
	Title       string
	Description string
	Overrides   []OverrideEntry
	Pos         Position
}

func decodeStandard(f File, root *yaml.Node) *Standard {
	p := f.Path
	src := member(root, "source")
	s := &Standard{
		File:      f,
		Format:    scalarString(member(root, "format")),
		Schema:    scalarString(member(root, "schema")),
		SchemaPos: posOf(p, member(root, "schema")),
		Version:   scalarString(member(root, "version")),
		Title:     scalarString(member(root, "title")),
		Source: StandardSource{
			URL:     scalarString(member(src, "url")),
			SHA256:  scalarString(member(src, "sha256")),
			OpenAPI: scalarString(member(src, "openapi")),
			Docs:    scalarString(member(src, "docs")),
		},
		Fields:    decodeLevels(p, member(root, "fields")),
		Endpoints: decodeEndpoints(p, member(root, "endpoints")),
	}
	for _, n := range seq(member(src, "components")) {
		s.Source.Components = append(s.Source.Components, SourceComponentEntry{
			Name:         scalarString(member(n, "name")),
			Level:        scalarString(member(n, "level")),
			QuestionType: scalarString(member(n, "question_type")),
			Pos:          posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "named_types")) {
		s.NamedTypes = append(s.NamedTypes, NamedTypeEntry{
			Name:         scalarString(member(n, "name")),
			Type:         scalarString(member(n, "type")),
			DocumentedIn: stringList(member(n, "documented_in")),
			Description:  scalarString(member(n, "description")),
			Pos:          posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "headers")) {
		s.Headers = append(s.Headers, HeaderEntry{
			Name:         scalarString(member(n, "name")),
			Symbol:       scalarString(member(n, "symbol")),
			Direction:    scalarString(member(n, "direction")),
			Values:       stringList(member(n, "values")),
			DocumentedIn: stringList(member(n, "documented_in")),
			Description:  scalarString(member(n, "description")),
			Pos:          posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "statuses")) {
		s.Statuses = append(s.Statuses, StatusEntry{
			Code:         intOr0(scalarInt(member(n, "code"))),
			Body:         scalarString(member(n, "body")),
			Meaning:      scalarString(member(n, "meaning")),
			DocumentedIn: stringList(member(n, "documented_in")),
			Pos:          posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "conflicts")) {
		c := ConflictEntry{
			Topic:      scalarString(member(n, "topic")),
			Resolution: scalarString(member(n, "resolution")),
			Pos:        posOf(p, n),
		}
		for _, r := range seq(member(n, "readings")) {
			c.Readings = append(c.Readings, ReadingEntry{
				Source: scalarString(member(r, "source")),
				Says:   scalarString(member(r, "says")),
			})
		}
		s.Conflicts = append(s.Conflicts, c)
	}
	return s
}

func decodeExtensions(f File, root *yaml.Node) *Extensions {
	p := f.Path
	e := &Extensions{
		File:       f,
		Format:     scalarString(member(root, "format")),
		Schema:     scalarString(member(root, "schema")),
		SchemaPos:  posOf(p, member(root, "schema")),
		Extends:    scalarString(member(root, "extends")),
		ExtendsPos: posOf(p, member(root, "extends")),
		Version:    scalarString(member(root, "version")),
		Title:      scalarString(member(root, "title")),
		Fields:     decodeLevels(p, member(root, "fields")),
		Endpoints:  decodeEndpoints(p, member(root, "endpoints")),
	}
	for _, n := range seq(member(root, "removed_forms")) {
		r := member(n, "replacement")
		e.RemovedForms = append(e.RemovedForms, RemovedFormEntry{
			Form:       scalarString(member(n, "form")),
			Level:      scalarString(member(n, "level")),
			ReplacedBy: scalarString(member(n, "replaced_by")),
			Field:      scalarString(member(r, "field")),
			Endpoint:   scalarString(member(r, "endpoint")),
			Header:     scalarString(member(r, "header")),
			Value:      scalarString(member(r, "value")),
			Note:       scalarString(member(n, "note")),
			Pos:        posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "families")) {
		e.Families = append(e.Families, FamilyEntry{
			Name:             scalarString(member(n, "name")),
			Title:            scalarString(member(n, "title")),
			QuestionTypes:    stringList(member(n, "question_types")),
			RoleAware:        scalarBool(member(n, "role_aware")),
			Modalities:       stringList(member(n, "modalities")),
			SpanHeads:        stringList(member(n, "span_heads")),
			CanonicalPresets: scalarBool(member(n, "canonical_presets")),
			Description:      scalarString(member(n, "description")),
			Pos:              posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "question_errors")) {
		e.QuestionErrors = append(e.QuestionErrors, QuestionErrorEntry{
			Kind:        scalarString(member(n, "kind")),
			Status:      intOr0(scalarInt(member(n, "status"))),
			Description: scalarString(member(n, "description")),
			Pos:         posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "request_errors")) {
		e.RequestErrors = append(e.RequestErrors, RequestErrorEntry{
			Code:        scalarString(member(n, "code")),
			Status:      intOr0(scalarInt(member(n, "status"))),
			RetryAfter:  scalarBool(member(n, "retry_after")),
			Description: scalarString(member(n, "description")),
			Pos:         posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "replaced_statuses")) {
		e.ReplacedStatuses = append(e.ReplacedStatuses, ReplacedStatusEntry{
			Status:     intOr0(scalarInt(member(n, "status"))),
			ReplacedBy: intOr0(scalarInt(member(n, "replaced_by"))),
			Reason:     scalarString(member(n, "reason")),
			Pos:        posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "limits")) {
		e.Limits = append(e.Limits, LimitEntry{
			Name:          scalarString(member(n, "name")),
			Min:           scalarInt64(member(n, "min")),
			Max:           scalarInt64(member(n, "max")),
			Unit:          scalarString(member(n, "unit")),
			QuestionTypes: stringList(member(n, "question_types")),
			Description:   scalarString(member(n, "description")),
			Pos:           posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "error_reasons")) {
		e.ErrorReasons = append(e.ErrorReasons, ErrorReasonEntry{
			Reason:      scalarString(member(n, "reason")),
			Description: scalarString(member(n, "description")),
			Kind:        scalarString(member(n, "kind")),
			Code:        scalarString(member(n, "code")),
			Status:      intOr0(scalarInt(member(n, "status"))),
			Unit:        scalarString(member(n, "unit")),
			Members:     stringList(member(n, "members")),
			Problems:    stringList(member(n, "problems")),
			Pos:         posOf(p, n),
		})
	}
	for _, n := range seq(member(root, "features")) {
		e.Features = append(e.Features, FeatureEntry{
			Feature:     scalarString(member(n, "feature")),
			Field:       scalarString(member(n, "field")),
			Endpoint:    scalarString(member(n, "endpoint")),
			Header:      scalarString(member(n, "header")),
			Description: scalarString(member(n, "description")),
			Pos:         posOf(p, n),
		})
	}
	e.Overrides = decodeOverrides(p, member(root, "overrides"))
	for _, n := range seq(member(root, "write_order")) {
		e.WriteOrder = append(e.WriteOrder, WriteOrderEntry{
			Level:   scalarString(member(n, "level")),
			Members: stringList(member(n, "members")),
			Reason:  scalarString(member(n, "reason")),
			Pos:     posOf(p, n),
		})
	}
	if n := member(root, "internal_form"); n != nil {
		e.InternalForm = &InternalFormEntry{
			Schema:      scalarString(member(n, "schema")),
			Accepts:     scalarString(member(n, "accepts")),
			Title:       scalarString(member(n, "title")),
			Description: scalarString(member(n, "description")),
			Overrides:   decodeOverrides(p, member(n, "overrides")),
			Pos:         posOf(p, n),
		}
	}
	return e
}

func decodeOverrides(file string, n *yaml.Node) []OverrideEntry {
	var out []OverrideEntry
	for _, o := range seq(n) {
		out = append(out, OverrideEntry{
			Field:         scalarString(member(o, "field")),
			Within:        scalarString(member(o, "within")),
			Required:      optionalBool(member(o, "required")),
			Nullable:      optionalBool(member(o, "nullable")),
			Allowed:       optionalBool(member(o, "allowed")),
			QuestionTypes: stringList(member(o, "question_types")),
			Schemas:       stringList(member(o, "schemas")),
			Reason:        scalarString(member(o, "reason")),
			Pos:           posOf(file, o),
		})
	}
	return out
}

// optionalBool is a boolean the spec may leave out: nil when absent.
func optionalBool(n *yaml.Node) *bool {
	if n == nil {
		return nil
	}
	b := scalarBool(n)
	return &b
}
