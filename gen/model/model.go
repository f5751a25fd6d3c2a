package model

import "github.com/vllm-sr/systemone/runtime/table"

// Model is the resolved description of the three specifications. Every
// slice is already in its final order (see order.go); emitters range over
// them as they are and never sort or re-derive anything.
type Model struct {
	// Specs are the three specification files: standard, extensions,
	// contract 4.0, in that order.
	Specs []Spec `json:"specs"`
	// NamedTypes are the types fields refer to by name, such as the
	// standard's "content" (string, object or array).
	NamedTypes []NamedType `json:"named_types"`
	// Fields holds every field of every spec, ordered by spec, then level
	// (LevelOrder), then the order the spec lists them in.
	Fields []Field `json:"fields"`
	// Schemas are the message shapes of each schema ID, in the order
	// systemone/0.2, vllm-sr/5.0, vllm-sr/4.0, then the internal form.
	Schemas []Schema `json:"schemas"`
	// Overrides are where a schema reads a member differently from the
	// spec that defines it, in the extension spec's order (the extension
	// set's own, then the internal form's).
	Overrides []Override `json:"overrides"`
	// Endpoints of every spec, by spec order then spec order within it.
	Endpoints []Endpoint `json:"endpoints"`
	// Headers of every spec.
	Headers []Header `json:"headers"`
	// Statuses are the status codes and error bodies each spec documents.
	Statuses []Status `json:"statuses"`
	// Conflicts record where the standard's sources disagree.
	Conflicts []Conflict `json:"conflicts"`
	// RemovedForms are the 4.0 forms 5.0 answers with 400, in the
	// extension spec's order.
	RemovedForms []RemovedForm `json:"removed_forms"`
	// Families are the model families, in the extension spec's order.
	Families []Family `json:"families"`
	// QuestionErrors are the per-question error kinds and their statuses.
	QuestionErrors []QuestionError `json:"question_errors"`
	// RequestErrors are the request error codes and their statuses.
	RequestErrors []RequestError `json:"request_errors"`
	// ReplacedStatuses are the standard's statuses the extension set
	// answers with another, in the extension spec's order.
	ReplacedStatuses []ReplacedStatus `json:"replaced_statuses,omitempty"`
	// Limits are vllm-sr's request limits (extension spec).
	Limits []Limit `json:"limits"`
	// ErrorReasons are the fixed words an error's or a failed answer's
	// reason takes, in the extension spec's order.
	ErrorReasons []ErrorReason `json:"error_reasons"`
	// Features are the words of a listing entry's features, in the
	// extension spec's order.
	Features []Feature `json:"features,omitempty"`
	// WriteOrder are the levels whose members vllm-sr's writers put in an
	// order other than message order, in the extension spec's order.
	WriteOrder []WriteOrder `json:"write_order,omitempty"`
	// ImplicitRoles is 4.0's implicit role of each Router part name: the
	// only definition of it in the project.
	ImplicitRoles ImplicitRoles `json:"implicit_roles"`
	// Corpus is the round-trip golden corpus (specs/corpus), set by
	// BuildCorpus after Build.
	Corpus Corpus `json:"corpus"`
	// Catalog is the model catalogue (specs/models), set by BuildCatalog
	// after Build; nil when the run built none.
	Catalog *Catalog `json:"catalog,omitempty"`
}

// SpecKind names one of the three specification files.
type SpecKind string

const (
	// SpecStandard is specs/systemone/systemone-0.2.schema.yaml.
	SpecStandard SpecKind = "standard"
	// SpecExtensions is specs/systemone/vllm-sr-5.0.extensions.yaml.
	SpecExtensions SpecKind = "extensions"
	// SpecContract40 is specs/systemone/vllm-sr-4.0.openapi.yaml.
	SpecContract40 SpecKind = "contract_4_0"
)

// Spec is one specification file.
type Spec struct {
	Kind SpecKind `json:"kind"`
	// Path is repository-relative and slash-separated.
	Path string `json:"path"`
	// SHA256 is the lowercase hex sha256 of the file's exact bytes.
	SHA256 string `json:"sha256"`
	// SchemaID is the schema the file defines: systemone/0.2 for the
	// standard, vllm-sr/5.0 for the extension set, vllm-sr/4.0 for the
	// contract.
	SchemaID table.SchemaID `json:"schema_id"`
	// Format is the file's own format and its version, such as
	// "systemone-standard/1" or "openapi/3.0.3".
	Format string `json:"format"`
	// FormatSchema is the repository path of the JSON Schema of Format;
	// empty for the OpenAPI file, which kin-openapi checks.
	FormatSchema string `json:"format_schema,omitempty"`
	// Version is the version of what the file describes: "0.2.0" for the
	// standard, "5.0" for the extension set, "4.0.0" for the contract.
	Version string `json:"version"`
	// Title is the spec's one-line title.
	Title string `json:"title"`
	// Source is where the standard was checked; nil for our own specs.
	Source *Source `json:"source,omitempty"`
}

// Source is the published document a spec describes and was checked against.
type Source struct {
	URL string `json:"url"`
	// SHA256 of the published document the description was checked against.
	SHA256 string `json:"sha256"`
	// OpenAPIVersion is the published document's openapi field.
	OpenAPIVersion string `json:"openapi_version"`
	// DocsURL is the prose documentation the spec also draws on.
	DocsURL string `json:"docs_url"`
	// Components are the published document's component schemas and what
	// each describes, in spec order.
	Components []SourceComponent `json:"components"`
}

// SourceComponent is one component schema of the published document and
// the level of ours it describes; QuestionType is set for a component of
// one question type (NoulQuestion describes the question level's noul).
type SourceComponent struct {
	Name         string             `json:"name"`
	Level        table.Level        `json:"level"`
	QuestionType table.QuestionType `json:"question_type,omitempty"`
}

// DocSource says where a field or fact is documented.
type DocSource string

const (
	// DocOpenAPI: in the standard's published OpenAPI document.
	DocOpenAPI DocSource = "openapi"
	// DocProse: in the standard's prose docs (docs.typesafe.ai).
	DocProse DocSource = "prose"
	// DocExtension: in vllm-sr's extension set.
	DocExtension DocSource = "extension"
	// DocContract40: in the frozen runtime contract 4.0.0.
	DocContract40 DocSource = "contract-4.0"
)

// Kind is a JSON value kind.
type Kind string

const (
	KindString  Kind = "string"
	KindNumber  Kind = "number"
	KindInteger Kind = "integer"
	KindBoolean Kind = "boolean"
	KindObject  Kind = "object"
	KindArray   Kind = "array"
)

// Type is a machine-readable JSON type. Null is never a Kind: a type that
// admits null says so with Nullable.
type Type struct {
	// Kinds are the JSON kinds allowed, in KindOrder. A Ref's kinds are
	// copied here, so a reader never has to resolve Ref to know them.
	Kinds []Kind `json:"kinds"`
	// Nullable: JSON null is also allowed.
	Nullable bool `json:"nullable,omitempty"`
	// Ref names the message or named type the value is: a table.Level
	// (such as "question", "asset", "options") or a NamedType name (such
	// as "content"). Empty for plain values.
	Ref string `json:"ref,omitempty"`
	// Items is the element type of an array kind, when it is constrained.
	Items *Type `json:"items,omitempty"`
	// Values is the member type of an object kind used as a map (keys are
	// free, values typed), when it is constrained.
	Values *Type `json:"values,omitempty"`
	// Enum lists the allowed scalar values as written (strings unquoted,
	// numbers as decimal text), in spec order. Empty: any value.
	Enum []string `json:"enum,omitempty"`
	// Minimum and Maximum bound a number or integer, inclusive.
	Minimum *float64 `json:"minimum,omitempty"`
	Maximum *float64 `json:"maximum,omitempty"`
	// MinCount and MaxCount bound the items of an array or the members of
	// an object, inclusive.
	MinCount *int `json:"min_count,omitempty"`
	MaxCount *int `json:"max_count,omitempty"`
}

// NamedType is a type fields refer to by name.
type NamedType struct {
	Name        string   `json:"name"`
	Spec        SpecKind `json:"spec"`
	Type        Type     `json:"type"`
	Description string   `json:"description"`
}

// Field is one field of one spec at one level.
type Field struct {
	Spec  SpecKind    `json:"spec"`
	Level table.Level `json:"level"`
	Name  string      `json:"name"`
	// Type is the machine type.
	Type Type `json:"type"`
	// TypeText is the type as the spec writes it for people, such as
	// "object of user or context or answer" (the seed's text).
	TypeText string `json:"type_text"`
	Required bool   `json:"required"`
	// RequiredUnless names members whose presence excuses a Required
	// member (4.0's question type, which a preset implies); empty: Required
	// holds alone.
	RequiredUnless []string `json:"required_unless,omitempty"`
	// Passive: the member has no runtime semantics. The runtime binds no
	// IR field to it: it reads it into its object's Extra, in order, and
	// writes it back; a systemone/0.2 target gets it as Disposition says.
	// A member without it is bound (srgen's binding calls a hand-written
	// function for it).
	Passive bool `json:"passive,omitempty"`
	// Since is the version that introduced it ("0.2", "5.0", "4.0").
	Since string `json:"since"`
	// Families honour it; all families when the spec says "all". Empty for
	// a standard field (every server answers it) or a Router-only field.
	Families []table.Family `json:"families,omitempty"`
	// FamiliesText is the families as written ("all", "the Router", ...).
	FamiliesText string `json:"families_text,omitempty"`
	// QuestionTypes it applies to, in spec order; empty: every question
	// type (or not a question-related field).
	QuestionTypes []table.QuestionType `json:"question_types,omitempty"`
	// Disposition is what a systemone/0.2 target does with it.
	Disposition table.Disposition `json:"disposition"`
	// Description is one line.
	Description string `json:"description"`
	// DocumentedIn lists where it is documented, in DocSource order.
	DocumentedIn []DocSource `json:"documented_in"`
	// Schemas accept it, in schema order.
	Schemas []table.SchemaID `json:"schemas"`
	// Criteria is the criteria shape of a question type (level
	// question_type only); nil elsewhere.
	Criteria *Criteria `json:"criteria,omitempty"`
	// Formats are an asset type's formats (level asset_type only).
	Formats []string `json:"formats,omitempty"`
	// AnswersAs is the question type whose answer shape a question type
	// answers with (level question_type only; span answers as a noul).
	AnswersAs table.QuestionType `json:"answers_as,omitempty"`
	// DeclaredBy is the question type whose entry declares this answer
	// member as part of its definition (level answer only; empty for a
	// field the spec lists at its own level).
	DeclaredBy table.QuestionType `json:"declared_by,omitempty"`
	// OpenAPI is how the standard's published document writes the field
	// where it differs from the entry; nil: as the entry.
	OpenAPI *OpenAPIReading `json:"openapi,omitempty"`
	// Pos is where the field is defined.
	Pos Position `json:"-"`
}

// FieldKey identifies a field within one spec.
type FieldKey struct {
	Level table.Level
	Name  string
}

// Key returns the field's level and name.
func (f *Field) Key() FieldKey { return FieldKey{Level: f.Level, Name: f.Name} }

// CriteriaKind is the shape of a question type's criteria.
type CriteriaKind string

const (
	// CriteriaNone: the question type takes no criteria (box, track).
	CriteriaNone CriteriaKind = "none"
	// CriteriaOptions: an object of option key to content or null (choice).
	CriteriaOptions CriteriaKind = "options"
	// CriteriaNoul: an object with optional members true and false.
	CriteriaNoul CriteriaKind = "noul"
	// CriteriaLevels: an array of content, lowest level first (score).
	CriteriaLevels CriteriaKind = "levels"
	// CriteriaLabels: an object of label to content or null (set, span).
	CriteriaLabels CriteriaKind = "labels"
)

// Criteria is the criteria shape of one question type.
type Criteria struct {
	Kind CriteriaKind `json:"kind"`
	// Required: the question must carry criteria.
	Required bool `json:"required"`
	// Nullable: criteria may be null.
	Nullable bool `json:"nullable"`
	// Keys are the only keys allowed, in order (noul: true, false); empty
	// means keys are free.
	Keys []string `json:"keys,omitempty"`
	// Values is the type of each option, label, level or key's value.
	Values *Type `json:"values,omitempty"`
	// MinCount and MaxCount bound the number of options, labels or levels.
	MinCount *int `json:"min_count,omitempty"`
	MaxCount *int `json:"max_count,omitempty"`
	// OpenAPI is how the standard's published document writes the
	// criteria where they differ; nil: as written. Only a question type's
	// own entry carries it, never a schema's QuestionTypeShape.
	OpenAPI *OpenAPIReading `json:"openapi,omitempty"`
}

// Schema is the message shapes one schema ID accepts.
type Schema struct {
	ID table.SchemaID `json:"id"`
	// Accepts is the schema whose messages this one starts from, for a
	// schema no spec file defines (the internal form: vllm-sr/4.0); empty
	// for the three specs' own.
	Accepts table.SchemaID `json:"accepts,omitempty"`
	// Title and Description describe a schema no spec file defines; the
	// others are described by their Spec.
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Specs whose fields it accepts, in spec order.
	Specs []SpecKind `json:"specs"`
	// Messages are the levels it accepts, in LevelOrder.
	Messages []Message `json:"messages"`
	// QuestionTypes it answers, in question type order.
	QuestionTypes []QuestionTypeShape `json:"question_types"`
	// AssetTypes it accepts.
	AssetTypes []AssetTypeShape `json:"asset_types"`
	// Endpoints it serves, as "METHOD /path", in endpoint order.
	Endpoints []string `json:"endpoints"`
	// Entries are the messages of a map's entries where they differ from
	// their level's own message (a batch's requests), in override order.
	Entries []EntryMessage `json:"entries,omitempty"`
}

// EntryMessage is the message each entry of a container's map member
// follows, where overrides make it differ from the level's own.
type EntryMessage struct {
	// Container and Member name the map: batch, requests.
	Container table.Level `json:"container"`
	Member    string      `json:"member"`
	// Message is the entries' message, at the level the map's values are.
	Message Message `json:"message"`
}

// Override is where a schema reads a member differently from the spec that
// defines it: everywhere its level appears, or only within the entries of
// one map member. Required, Nullable and Allowed are nil where the override
// leaves the member's own.
type Override struct {
	Level table.Level `json:"level"`
	Name  string      `json:"name"`
	// WithinLevel and WithinMember name the map whose entries it applies
	// to; empty: wherever Level is.
	WithinLevel  table.Level `json:"within_level,omitempty"`
	WithinMember string      `json:"within_member,omitempty"`
	Required     *bool       `json:"required,omitempty"`
	Nullable     *bool       `json:"nullable,omitempty"`
	// Allowed false: the member is refused as unknown there.
	Allowed *bool `json:"allowed,omitempty"`
	// QuestionTypes, when set, replace the question types the member
	// applies to.
	QuestionTypes []table.QuestionType `json:"question_types,omitempty"`
	// Schemas it applies to, in schema order.
	Schemas []table.SchemaID `json:"schemas"`
	Reason  string           `json:"reason"`
	Pos     Position         `json:"-"`
}

// Message is the allowed members of one level under one schema.
type Message struct {
	Level table.Level `json:"level"`
	// Members in message order: the defining spec's order, standard
	// members first, then extension members, then 4.0 members.
	Members []Member `json:"members"`
}

// Member is one allowed member of a message.
type Member struct {
	Name string `json:"name"`
	// Spec defines it.
	Spec     SpecKind `json:"spec"`
	Type     Type     `json:"type"`
	Required bool     `json:"required"`
	// RequiredUnless names members whose presence excuses a Required
	// member; empty: Required holds alone.
	RequiredUnless []string `json:"required_unless,omitempty"`
	// QuestionTypes it is allowed on (level question and answer); empty:
	// every question type.
	QuestionTypes []table.QuestionType `json:"question_types,omitempty"`
	// Removed: a 4.0 form that vllm-sr/5.0 answers with 400 (only
	// members of the vllm-sr/4.0 schema carry it).
	Removed bool `json:"removed,omitempty"`
	// Passive is the defining field's: no runtime semantics, carried in
	// its object's Extra.
	Passive bool `json:"passive,omitempty"`
}

// QuestionTypeShape is one question type under one schema.
type QuestionTypeShape struct {
	Type table.QuestionType `json:"type"`
	// Spec defines the type.
	Spec SpecKind `json:"spec"`
	// Members are the question members allowed on this type, in message
	// order.
	Members []string `json:"members"`
	// Criteria is the criteria shape, with the schema's limits applied.
	Criteria Criteria `json:"criteria"`
	// LegacyCriteria is 4.0's spelling of the criteria (choices, levels or
	// labels); nil outside vllm-sr/4.0 or where 4.0 had none.
	LegacyCriteria *LegacyCriteria `json:"legacy_criteria,omitempty"`
	// AnswersAs is the type whose answer shape it answers with; empty:
	// its own.
	AnswersAs table.QuestionType `json:"answers_as,omitempty"`
	// AnswerMembers are the answer members of this type (of AnswersAs when
	// set), in message order.
	AnswerMembers []string `json:"answer_members"`
}

// LegacyCriteria is a 4.0 question member that carried criteria.
type LegacyCriteria struct {
	// Member is "choices", "levels" or "labels".
	Member   string   `json:"member"`
	Criteria Criteria `json:"criteria"`
}

// AssetTypeShape is one asset type under one schema.
type AssetTypeShape struct {
	Type    string   `json:"type"`
	Spec    SpecKind `json:"spec"`
	Formats []string `json:"formats"`
}
