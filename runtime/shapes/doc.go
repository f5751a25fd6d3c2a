// Package shapes binds the request shapes (request, batch, question,
// criteria, options, asset) to the IR: the one reader (Reader) and the one
// writer (Writer) of request bodies, and the internal wire form, the form
// the hops inside a deployment speak (the Router to a model runtime's
// /v1/decisions and /v1/bundle, an Engine to its workers). It binds the
// answer shapes (response, batch response, usage, answer, box region, span
// item, set result, error, validation item, listing, listing entry,
// health, and vllm-sr/4.0's legacy error and list item) too: AnswerWriter
// writes them for every listener codec (Health for both servers' GET
// /health), and ReadResponse, AnswerReader, ReadListing, ReadErrorReport
// and ReadHealth read them for every target codec, each shape's writer
// and reader in one file (answer.go, response.go, response_ext.go,
// errorbody.go, listing.go, health.go). A reply is read the way a request
// is: its schema's generated validator first (CheckResponse,
// CheckBatchResponse, replycheck.go; validate.Listing and validate.Health
// in ReadListing and ReadHealth), then the mapping, which checks no type
// or range itself.
//
// The answer shapes' member dispatch is generated too
// (zz_generated.replybind.go, by srgen, from the same member lists): for
// each shape <level> it declares <level>Slots in write order,
// <level>PassiveSlots, the reader's dispatch read<Level>Members over one
// checked object's members in body order, and the writer's dispatch
// (AnswerWriter).write<Level>Slot. The reader reads only the members the
// hand-written gate (*<level>Read).takes admits, those the reply's schema
// defines there (Replies) and, for an answer, on its type, so a member a
// systemone/0.2 reply carries beyond its schema is never read nor
// relayed. A passive member goes to its IR object's Extra, in body order,
// and is written back at its slot by every AnswerWriter whose Skip does
// not name it (SkipUndefined(systemone/0.2) names every member the
// standard does not define). Every bound member calls, by the naming
// convention
//
//	func (s *<level>Read) read<Level><Member>(m *jsonvalue.Member) error
//	func (w AnswerWriter) write<Level><Member>(o *replyObject, s *<level>Write)
//
// which srgen writes as for the request shapes (below) unless this package
// declares it by hand. A shape no upstream is read in
// (the 4.0 legacy error and list item) has a writer alone; error bodies'
// and detail items' passive members are read and dropped, as an upstream's
// words never reach a client, and a batch response's own, as the Router
// answers a batch with the response it assembles from its items. A
// health's are read into ir.Health's Extra and never relayed: each server
// answers GET /health with its own.
//
// Reading is the generated validator's check and then Reader's mapping:
// every listener codec and the internal form read this way. The member
// dispatch of the request shapes is generated (zz_generated.bind.go, by
// srgen, from every member the specifications define at each level, over
// every schema this package reads): for each shape <level> (request,
// batch, which reads the internal bundle too, options, question, asset)
// it declares <level>Slots, the members in the order the writers write
// them (the extension spec's write_order, else message order), the
// reader's switch (*Reader).read<Level>Members and the writer's dispatch
// (Writer).write<Level>Slot. A member the specs mark passive (no runtime
// semantics) is carried in its object's Extra, in order, and written back
// by every Writer unless its Skip names it. Every other member is bound:
// the generated code calls, by this naming convention,
//
//	func (rd *Reader) read<Level><Member>(s *<level>Read, m *jsonvalue.Member, lm *ir.LayoutMember) error
//	func (w Writer) write<Level><Member>(o *objectWriter, s *<level>Write) error
//
// where <Level><Member> is the member's generated/vocab constant (Go
// CamelCase of the spec's level and member names: readQuestionDecisionAdapter,
// writeAssetDataBase64), and <level>Read and <level>Write hold the state of
// reading and writing one object (<level>Read's extra points at the
// object's Extra).
//
// srgen writes each of those functions itself (in the zz_generated files,
// as conversion-gen writes a default conversion) unless this package
// declares it by hand: its default copies the member between JSON and the
// IR field of the member's Go CamelCase name on the object that is the
// first field of <level>Read or <level>Write, by the member's JSON kind
// and the field's Go type (a string, a number, an integer, a boolean, an
// enum word, content, an array of strings, an object of numbers or of
// content; gen/emit/bind_coders.go).
// So the invariant: the first field of every <level>Read and <level>Write
// is the object its level binds. A bound member the specs add needs its IR
// field and make generate. The functions written here by hand hold the
// judgement the default cannot: 4.0's spellings, layout recording the
// default does not do, legacy diagnostics, borrowed values and block
// allocation, the order an answer's type imposes, a failed answer's words,
// and the checks no validator expresses. srgen refuses a hand-written one
// whose body is its default, or that overrides its default without a doc
// comment saying why.
//
// Writer's zero value writes the canonical vllm-sr/5.0 form: the
// standard's members in their standard spellings plus the extension set, in
// the generated slots' order. A Skip predicate leaves members out,
// which is how a systemone/0.2 target gets the generated strip and
// refuse-at-load lists applied. 5.0 has no implicit roles: a request read
// with 4.0's implicit roles is written with the explicit roles they stand
// for (ExplicitRoles), so the model input stays the same. The long-context
// flag is the standard's header, never a 5.0 body member, and 4.0's states
// form has no 5.0 spelling: a request using it is refused.
//
// The internal form (Writer.Lossless, EncodeRequest, DecodeRequest) is
// vllm-sr/4.0's request forms plus roles:
//
//   - roles: an ABSENT member is 4.0's implicit roles (from the state's
//     keys), roles: null is no roles, and an object maps state keys to
//     user, context or answer.
//   - A question's criteria are spelled criteria or, as in 4.0, choices,
//     levels or labels; a question may be preset-only.
//   - Assets are spelled assets (each with its type) or, as in 4.0, images
//     and videos (type optional).
//   - states is an object of name to state; options.long_context is the
//     body form of the standard's long-context header.
//   - The bundle body of POST /v1/bundle is {"model"?, "requests": {name:
//     request}}, each item a complete request with its own options.
//
// It is lossless: a body DecodeRequest accepts, EncodeRequest writes back
// byte for byte as its compact form (member order, the 4.0 spellings,
// number literals and string escapes). The spelling lives in each object's
// ir.Layout, which the Reader records when asked and the lossless Writer
// replays, falling back to the canonical order and the standard spellings
// for an IR other codecs built. EncodeRequest also refuses an IR the form
// cannot carry as written (check_ir.go).
package shapes
