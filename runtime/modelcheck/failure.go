package modelcheck

import (
	"strconv"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// Reason is the fixed word for why a question failed.
type Reason string

// The reasons, each with its question error kind and message in reasons.
const (
	ReasonMissingType           Reason = vocab.ReasonMissingType
	ReasonTypeNotAnswered       Reason = vocab.ReasonQuestionTypeNotAnswered
	ReasonPresetNotAnswered     Reason = vocab.ReasonPresetNotAnswered
	ReasonPresetTypeMismatch    Reason = vocab.ReasonPresetTypeMismatch
	ReasonHeadNotAnswered       Reason = vocab.ReasonSpanHeadNotAnswered
	ReasonAdapterNotAnswered    Reason = vocab.ReasonDecisionAdapterNotAnswered
	ReasonOverNotAnswered       Reason = vocab.ReasonOverNotAnswered
	ReasonOverNeedsObjectState  Reason = vocab.ReasonOverNeedsObjectState
	ReasonOverUnknownKey        Reason = vocab.ReasonOverUnknownKey
	ReasonOverflowNotAnswered   Reason = vocab.ReasonOverflowNotAnswered
	ReasonThresholdNotAnswered  Reason = vocab.ReasonThresholdNotAnswered
	ReasonThresholdOutOfRange   Reason = vocab.ReasonThresholdOutOfRange
	ReasonAtNotAnswered         Reason = vocab.ReasonAtNotAnswered
	ReasonRateNotAnswered       Reason = vocab.ReasonRateNotAnswered
	ReasonMissingCriteria       Reason = vocab.ReasonMissingCriteria
	ReasonCriteriaNotAllowed    Reason = vocab.ReasonCriteriaNotAllowed
	ReasonBadNoulCriteria       Reason = vocab.ReasonBadNoulCriteria
	ReasonTooFewOptions         Reason = vocab.ReasonTooFewOptions
	ReasonTooManyOptions        Reason = vocab.ReasonTooManyOptions
	ReasonTooFewLabels          Reason = vocab.ReasonTooFewLabels
	ReasonTooManyLabels         Reason = vocab.ReasonTooManyLabels
	ReasonTooFewLevels          Reason = vocab.ReasonTooFewLevels
	ReasonTooManyLevels         Reason = vocab.ReasonTooManyLevels
	ReasonPlaceholderInQuestion Reason = vocab.ReasonPlaceholderInQuestion
	ReasonUnknownPlaceholder    Reason = vocab.ReasonUnknownPlaceholder
	ReasonUnplacedAsset         Reason = vocab.ReasonUnplacedAsset
	ReasonBadBase64             Reason = vocab.ReasonBadBase64
	ReasonBadImage              Reason = vocab.ReasonBadImage
	ReasonFormatMismatch        Reason = vocab.ReasonFormatMismatch
	ReasonImageNotRead          Reason = vocab.ReasonImageNotRead
	ReasonVideoNotRead          Reason = vocab.ReasonVideoNotRead
	ReasonTooManyImages         Reason = vocab.ReasonTooManyImages
	ReasonTooManyVideos         Reason = vocab.ReasonTooManyVideos
	ReasonImageSideTooSmall     Reason = vocab.ReasonImageSideTooSmall
	ReasonImageSideTooLarge     Reason = vocab.ReasonImageSideTooLarge
	ReasonImageAreaTooSmall     Reason = vocab.ReasonImageAreaTooSmall
	ReasonImageAreaTooLarge     Reason = vocab.ReasonImageAreaTooLarge
	ReasonImageFileTooLarge     Reason = vocab.ReasonImageFileTooLarge
	ReasonVideoFileTooLarge     Reason = vocab.ReasonVideoFileTooLarge
	ReasonVideoTooLong          Reason = vocab.ReasonVideoTooLong
	ReasonMissingMedia          Reason = vocab.ReasonMissingMedia
	ReasonNeedsOneVideo         Reason = vocab.ReasonNeedsOneVideo
	ReasonUnreadableVideo       Reason = vocab.ReasonUnreadableVideo
	ReasonAtBeyondVideo         Reason = vocab.ReasonAtBeyondVideo
	ReasonInputTooLong          Reason = vocab.ReasonInputTooLong
	ReasonInputTruncated        Reason = vocab.ReasonInputTruncated
	ReasonQuestionTooLong       Reason = vocab.ReasonQuestionTooLong
	ReasonScanBudget            Reason = vocab.ReasonScanBudget
	// ReasonDeadlinePassed is not a model check: a caller that runs
	// questions reports it for a question whose work had not started by
	// options.deadline_ms.
	ReasonDeadlinePassed Reason = vocab.ReasonDeadlinePassed
)

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
	ReasonMissingType:           {invalidQuestion, "", "the question names no type, and no preset of the model gives it one"},
	ReasonTypeNotAnswered:       {invalidQuestion, "", "the model does not answer questions of this type"},
	ReasonPresetNotAnswered:     {invalidQuestion, "", "the model's card does not list this preset"},
	ReasonPresetTypeMismatch:    {invalidQuestion, "", "the preset answers another question type than the question's"},
	ReasonHeadNotAnswered:       {invalidQuestion, "", "the model has no such span head, or head is set on a question that is not a span"},
	ReasonAdapterNotAnswered:    {invalidQuestion, "", "the model declares no decision adapter for this question type"},
	ReasonOverNotAnswered:       {invalidQuestion, "", "the model does not answer over on this question"},
	ReasonOverNeedsObjectState:  {invalidQuestion, "", "over names state keys, and the state is not an object"},
	ReasonOverUnknownKey:        {invalidQuestion, "", "over names a key the state does not have"},
	ReasonOverflowNotAnswered:   {invalidQuestion, "", "the model reads no part in windows, so it does not answer overflow"},
	ReasonThresholdNotAnswered:  {invalidQuestion, "", "threshold applies only to set and span questions"},
	ReasonThresholdOutOfRange:   {invalidQuestion, "", "threshold must be between 0 and 1"},
	ReasonAtNotAnswered:         {invalidQuestion, "", "at applies only to a box question on a model that reads video"},
	ReasonRateNotAnswered:       {invalidQuestion, "", "the model does not answer track questions at this rate"},
	ReasonMissingCriteria:       {invalidQuestion, "", "the question type needs criteria in its own form"},
	ReasonCriteriaNotAllowed:    {invalidQuestion, "", "the question type takes no criteria"},
	ReasonBadNoulCriteria:       {invalidQuestion, "", "a noul's criteria may hold only true and false"},
	ReasonTooFewOptions:         {invalidQuestion, unitOptions, "the choice has fewer options than the model reads"},
	ReasonTooManyOptions:        {invalidQuestion, unitOptions, "the choice has more options than the model reads"},
	ReasonTooFewLabels:          {invalidQuestion, unitLabels, "the question has fewer labels than the model reads"},
	ReasonTooManyLabels:         {invalidQuestion, unitLabels, "the question has more labels than the model reads"},
	ReasonTooFewLevels:          {invalidQuestion, unitLevels, "the score has fewer levels than the model reads"},
	ReasonTooManyLevels:         {invalidQuestion, unitLevels, "the score has more levels than the model reads"},
	ReasonPlaceholderInQuestion: {invalidQuestion, "", "the model reads media only in the state, not in a question's text"},
	ReasonUnknownPlaceholder:    {invalidInput, "", "a placeholder names no asset of the request"},
	ReasonUnplacedAsset:         {invalidInput, "", "an asset is not placed by any string of the request"},
	ReasonBadBase64:             {invalidInput, "", "an asset's data_base64 is not standard base64"},
	ReasonBadImage:              {invalidInput, "", "an image asset is not a PNG or JPEG image"},
	ReasonFormatMismatch:        {invalidInput, "", "an image asset's bytes are not of the format it names"},
	ReasonImageNotRead:          {invalidInput, "", "the model does not read images"},
	ReasonVideoNotRead:          {invalidInput, "", "the model does not read video"},
	ReasonTooManyImages:         {invalidInput, unitImages, "the request has more images than the model reads"},
	ReasonTooManyVideos:         {invalidInput, unitVideos, "the request has more videos than the model reads"},
	ReasonImageSideTooSmall:     {invalidInput, unitPixels, "an image side is shorter than the model reads"},
	ReasonImageSideTooLarge:     {invalidInput, unitPixels, "an image side is longer than the model reads"},
	ReasonImageAreaTooSmall:     {invalidInput, unitPixels, "an image has fewer pixels than the model reads"},
	ReasonImageAreaTooLarge:     {invalidInput, unitPixels, "an image has more pixels than the model reads"},
	ReasonImageFileTooLarge:     {invalidInput, unitBytes, "an image file is larger than the model reads"},
	ReasonVideoFileTooLarge:     {invalidInput, unitBytes, "a video file is larger than the model reads"},
	ReasonVideoTooLong:          {invalidInput, unitSeconds, "a video is longer than the model reads"},
	ReasonMissingMedia:          {invalidInput, "", "a box question needs an image or a video in what it reads"},
	ReasonNeedsOneVideo:         {invalidInput, "", "the question needs exactly one video in the state"},
	ReasonUnreadableVideo:       {invalidInput, "", "the video's duration cannot be read"},
	ReasonAtBeyondVideo:         {invalidInput, unitSeconds, "at is past the end of the video"},
	ReasonInputTooLong:          {tooLong, unitTokens, "the input is longer than the model reads"},
	ReasonInputTruncated:        {tooLong, unitTokens, "require_full_input is set, and the model truncates an input this long"},
	ReasonQuestionTooLong:       {tooLong, unitTokens, "the question and its media leave no room for the input in one window"},
	ReasonScanBudget:            {ir.QuestionErrorScanBudgetExceeded, unitTokens, "reading the input in windows would pass the scan budget"},
	ReasonDeadlinePassed:        {ir.QuestionErrorDeadlineExceeded, "", "the deadline passed before the question's work started"},
}

// Fail returns the failure of reason r, for callers that report a reason
// of this package's table themselves (ReasonDeadlinePassed).
func Fail(r Reason) *Failure { return fail(r) }

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

// Error returns the message and the reason.
func (f *Failure) Error() string { return f.Message + " (" + string(f.Reason) + ")" }

// fail builds the failure of reason r.
func fail(r Reason) *Failure {
	info, ok := reasons[r]
	if !ok { // a reason without an entry is a bug; TestEveryReasonHasAnEntry guards it
		info = reasonInfo{code: invalidQuestion, message: "the question cannot be answered"}
	}
	kind, _ := fieldtable.QuestionError(string(info.code))
	return &Failure{Code: info.code, Status: kind.Status, Reason: r, Message: info.message}
}

// failLimit builds the failure of reason r with the model's limit broken.
func failLimit(r Reason, limit int64) *Failure {
	f := fail(r)
	f.Limit = &limit
	f.Message += " (limit " + strconv.FormatInt(limit, 10) + " " + reasons[r].unit + ")"
	return f
}
