package modelcheck

import (
	"strconv"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// Reason is the fixed word for why a question failed: a generated/vocab
// reason of the spec's error_reasons, with its question error kind, limit
// unit and message in reasons.
type Reason string

// The units of a broken limit: English words of a failure's message
// ("limit 8 labels"), never JSON members, though some are spelled like
// removed question members or request members.
const (
	unitOptions = "options" //vocab:not-spec a limit's unit, a word of the message
	unitLabels  = "labels"  //vocab:not-spec a limit's unit, a word of the message
	unitLevels  = "levels"  //vocab:not-spec a limit's unit, a word of the message
	unitImages  = "images"  //vocab:not-spec a limit's unit, a word of the message
	unitVideos  = "videos"  //vocab:not-spec a limit's unit, a word of the message
	unitPixels  = "pixels"
	unitBytes   = "bytes"
	unitSeconds = "seconds"
	unitTokens  = "tokens"
)

type reasonInfo struct {
	code ir.QuestionErrorCode
	// unit of the limit; "" when the reason has none.
	unit    string
	message string
}

var (
	invalidQuestion = ir.QuestionErrorInvalidQuestion
	invalidInput    = ir.QuestionErrorInvalidInput
	tooLong         = ir.QuestionErrorMaxLengthExceeded
)

// reasons is the one table of reasons: kind, limit unit and message.
var reasons = map[Reason]reasonInfo{
	vocab.ReasonMissingType:                {invalidQuestion, "", "the question names no type, and no preset of the model gives it one"},
	vocab.ReasonQuestionTypeNotAnswered:    {invalidQuestion, "", "the model does not answer questions of this type"},
	vocab.ReasonPresetNotAnswered:          {invalidQuestion, "", "the model's card does not list this preset"},
	vocab.ReasonPresetTypeMismatch:         {invalidQuestion, "", "the preset answers another question type than the question's"},
	vocab.ReasonSpanHeadNotAnswered:        {invalidQuestion, "", "the model has no such span head, or head is set on a question that is not a span"},
	vocab.ReasonDecisionAdapterNotAnswered: {invalidQuestion, "", "the model declares no decision adapter for this question type"},
	vocab.ReasonOverNotAnswered:            {invalidQuestion, "", "the model does not answer over on this question"},
	vocab.ReasonOverNeedsObjectState:       {invalidQuestion, "", "over names state keys, and the state is not an object"},
	vocab.ReasonOverUnknownKey:             {invalidQuestion, "", "over names a key the state does not have"},
	vocab.ReasonOverflowNotAnswered:        {invalidQuestion, "", "the model reads no part in windows, so it does not answer overflow"},
	vocab.ReasonThresholdNotAnswered:       {invalidQuestion, "", "threshold applies only to set and span questions"},
	vocab.ReasonThresholdOutOfRange:        {invalidQuestion, "", "threshold must be between 0 and 1"},
	vocab.ReasonAtNotAnswered:              {invalidQuestion, "", "at applies only to a box question on a model that reads video"},
	vocab.ReasonRateNotAnswered:            {invalidQuestion, "", "the model does not answer track questions at this rate"},
	vocab.ReasonMissingCriteria:            {invalidQuestion, "", "the question type needs criteria in its own form"},
	vocab.ReasonCriteriaNotAllowed:         {invalidQuestion, "", "the question type takes no criteria"},
	vocab.ReasonBadNoulCriteria:            {invalidQuestion, "", "a noul's criteria may hold only true and false"},
	vocab.ReasonTooFewOptions:              {invalidQuestion, unitOptions, "the choice has fewer options than the model reads"},
	vocab.ReasonTooManyOptions:             {invalidQuestion, unitOptions, "the choice has more options than the model reads"},
	vocab.ReasonTooFewLabels:               {invalidQuestion, unitLabels, "the question has fewer labels than the model reads"},
	vocab.ReasonTooManyLabels:              {invalidQuestion, unitLabels, "the question has more labels than the model reads"},
	vocab.ReasonTooFewLevels:               {invalidQuestion, unitLevels, "the score has fewer levels than the model reads"},
	vocab.ReasonTooManyLevels:              {invalidQuestion, unitLevels, "the score has more levels than the model reads"},
	vocab.ReasonPlaceholderInQuestion:      {invalidQuestion, "", "the model reads media only in the state, not in a question's text"},
	vocab.ReasonUnknownPlaceholder:         {invalidInput, "", "a placeholder names no asset of the request"},
	vocab.ReasonUnplacedAsset:              {invalidInput, "", "an asset is not placed by any string of the request"},
	vocab.ReasonBadBase64:                  {invalidInput, "", "an asset's data_base64 is not standard base64"},
	vocab.ReasonBadImage:                   {invalidInput, "", "an image asset is not a PNG or JPEG image"},
	vocab.ReasonFormatMismatch:             {invalidInput, "", "an image asset's bytes are not of the format it names"},
	vocab.ReasonImageNotRead:               {invalidInput, "", "the model does not read images"},
	vocab.ReasonVideoNotRead:               {invalidInput, "", "the model does not read video"},
	vocab.ReasonTooManyImages:              {invalidInput, unitImages, "the request has more images than the model reads"},
	vocab.ReasonTooManyVideos:              {invalidInput, unitVideos, "the request has more videos than the model reads"},
	vocab.ReasonImageSideTooSmall:          {invalidInput, unitPixels, "an image side is shorter than the model reads"},
	vocab.ReasonImageSideTooLarge:          {invalidInput, unitPixels, "an image side is longer than the model reads"},
	vocab.ReasonImageAreaTooSmall:          {invalidInput, unitPixels, "an image has fewer pixels than the model reads"},
	vocab.ReasonImageAreaTooLarge:          {invalidInput, unitPixels, "an image has more pixels than the model reads"},
	vocab.ReasonImageFileTooLarge:          {invalidInput, unitBytes, "an image file is larger than the model reads"},
	vocab.ReasonVideoFileTooLarge:          {invalidInput, unitBytes, "a video file is larger than the model reads"},
	vocab.ReasonVideoTooLong:               {invalidInput, unitSeconds, "a video is longer than the model reads"},
	vocab.ReasonMissingMedia:               {invalidInput, "", "a box question needs an image or a video in what it reads"},
	vocab.ReasonNeedsOneVideo:              {invalidInput, "", "the question needs exactly one video in the state"},
	vocab.ReasonUnreadableVideo:            {invalidInput, "", "the video's duration cannot be read"},
	vocab.ReasonAtBeyondVideo:              {invalidInput, unitSeconds, "at is past the end of the video"},
	vocab.ReasonInputTooLong:               {tooLong, unitTokens, "the input is longer than the model reads"},
	vocab.ReasonInputTruncated:             {tooLong, unitTokens, "require_full_input is set, and the model truncates an input this long"},
	vocab.ReasonQuestionTooLong:            {tooLong, unitTokens, "the question and its media leave no room for the input in one window"},
	vocab.ReasonScanBudget:                 {ir.QuestionErrorScanBudgetExceeded, unitTokens, "reading the input in windows would pass the scan budget"},
	vocab.ReasonDeadlinePassed:             {ir.QuestionErrorDeadlineExceeded, "", "the deadline passed before the question's work started"},
}

// Failure is why one question cannot be answered.
type Failure struct {
	Code ir.QuestionErrorCode
	// Status is the code's HTTP status on POST /v1/systemone.
	Status int
	Reason Reason
	// Limit is the limit the reason names when one was broken, in the
	// reason's unit (tokens, pixels, bytes, seconds or a count); nil
	// otherwise.
	Limit   *int64
	Message string
}

// Fail builds the failure of reason r; callers outside this package report
// a reason of its table themselves (vocab.ReasonDeadlinePassed).
func Fail(r Reason) *Failure {
	info, ok := reasons[r]
	if !ok { // a reason without an entry is a bug; TestEveryReasonHasAnEntry guards it
		info = reasonInfo{code: invalidQuestion, message: "the question cannot be answered"}
	}
	kind, _ := fieldtable.QuestionError(string(info.code))
	return &Failure{Code: info.code, Status: kind.Status, Reason: r, Message: info.message}
}

// failLimit builds the failure of reason r with the model's limit broken.
func failLimit(r Reason, limit int64) *Failure {
	f := Fail(r)
	f.Limit = &limit
	f.Message += " (limit " + strconv.FormatInt(limit, 10) + " " + reasons[r].unit + ")"
	return f
}
