package model

import (
	"sort"

	"github.com/vllm-sr/systemone/runtime/table"
)

// Every ordering decision of the model lives in this file. Spec order is
// kept where meaning depends on it (fields within a level, which is message
// member order; removed forms, families, errors and limits, which are
// tables people read in that order); fixed orders below decide everything
// else, so the model never depends on map iteration.

// SpecOrder is the order of the three specs everywhere.
var SpecOrder = []SpecKind{SpecStandard, SpecExtensions, SpecContract40}

// LevelOrder is the order of levels: a message before the messages it
// holds, requests before answers before errors and listings.
var LevelOrder = []table.Level{
	table.LevelRequest,
	table.LevelBatch,
	table.LevelBundle,
	table.LevelOptions,
	table.LevelState,
	table.LevelQuestion,
	table.LevelNoulCriteria,
	table.LevelQuestionType,
	table.LevelAsset,
	table.LevelAssetType,
	table.LevelAnswer,
	table.LevelBoxRegion,
	table.LevelResponse,
	table.LevelBatchResponse,
	table.LevelSpanItem,
	table.LevelSetResult,
	table.LevelRouting,
	table.LevelRoutingTry,
	table.LevelUsage,
	table.LevelError,
	table.LevelErrorDetail,
	table.LevelValidationItem,
	table.LevelLegacyError,
	table.LevelListing,
	table.LevelListingEntry,
	table.LevelLegacyListItem,
	table.LevelHealth,
	table.LevelEndpoint,
	table.LevelHeader,
}

// typeLevels are levels whose fields are types, not message members.
var typeLevels = map[table.Level]bool{
	table.LevelQuestionType: true,
	table.LevelAssetType:    true,
	table.LevelEndpoint:     true,
	table.LevelHeader:       true,
}

// QuestionTypeOrder is the order of question types: the standard's, then
// the extension's.
var QuestionTypeOrder = []table.QuestionType{
	table.QuestionNoul, table.QuestionChoice, table.QuestionScore, table.QuestionBox,
	table.QuestionSet, table.QuestionSpan, table.QuestionTrack,
}

// KindOrder is the order of JSON kinds within a Type.
var KindOrder = []Kind{KindString, KindNumber, KindInteger, KindBoolean, KindObject, KindArray}

// DocSourceOrder is the order of documentation sources.
var DocSourceOrder = []DocSource{DocOpenAPI, DocProse, DocExtension, DocContract40}

// dispositionOf maps the extension format's words.
var dispositionOf = map[string]table.Disposition{
	"stripped":        table.DispositionStripped,
	"refused_at_load": table.DispositionRefusedAtLoad,
	"never_sent":      table.DispositionNeverSent,
}

func indexOf[T comparable](order []T, v T) int {
	for i, x := range order {
		if x == v {
			return i
		}
	}
	return len(order)
}

// sortByOrder sorts vs by their place in order; values not in order go
// last, in their given order.
func sortByOrder[T comparable](vs []T, order []T) {
	sort.SliceStable(vs, func(i, j int) bool { return indexOf(order, vs[i]) < indexOf(order, vs[j]) })
}

// sortFields orders fields by spec, then level; within a level the spec's
// own order stands (the sort is stable).
func sortFields(fs []Field) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Spec != b.Spec {
			return indexOf(SpecOrder, a.Spec) < indexOf(SpecOrder, b.Spec)
		}
		return indexOf(LevelOrder, a.Level) < indexOf(LevelOrder, b.Level)
	})
}

// sortEndpoints orders endpoints by spec, keeping each spec's order.
func sortEndpoints(es []Endpoint) {
	sort.SliceStable(es, func(i, j int) bool {
		return indexOf(SpecOrder, es[i].Spec) < indexOf(SpecOrder, es[j].Spec)
	})
}

// sortStatuses orders statuses by spec, then code.
func sortStatuses(ss []Status) {
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].Spec != ss[j].Spec {
			return indexOf(SpecOrder, ss[i].Spec) < indexOf(SpecOrder, ss[j].Spec)
		}
		return ss[i].Code < ss[j].Code
	})
}
