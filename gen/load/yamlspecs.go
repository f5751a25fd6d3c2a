package load

import "gopkg.in/yaml.v3"

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
	Limits         []LimitEntry
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
			Name:          scalarString(member(n, "name")),
			Title:         scalarString(member(n, "title")),
			QuestionTypes: stringList(member(n, "question_types")),
			RoleAware:     scalarBool(member(n, "role_aware")),
			Modalities:    stringList(member(n, "modalities")),
			SpanHeads:     stringList(member(n, "span_heads")),
			Description:   scalarString(member(n, "description")),
			Pos:           posOf(p, n),
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
	return e
}
