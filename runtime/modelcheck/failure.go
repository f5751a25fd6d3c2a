package modelcheck

import (
	"strconv"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// Reason is the fixed word for why a question failed.
type Reason string

// The reasons, each with its question error kind and message in reasons.
const (
	ReasonMissingType           Reason = "missing_type"
	ReasonTypeNotAnswered       Reason = "question_type_not_answered"
	ReasonPresetNotAnswered     Reason = "preset_not_answered"
	ReasonPresetTypeMismatch    Reason = "preset_type_mismatch"
	ReasonHeadNotAnswered       Reason = "span_head_not_answered"
	ReasonAdapterNotAnswered    Reason = "decision_adapter_not_answered"
	ReasonOverNotAnswered       Reason = "over_not_answered"
	ReasonOverNeedsObjectState  Reason = "over_needs_object_state"
	ReasonOverUnknownKey        Reason = "over_unknown_key"
	ReasonOverflowNotAnswered   Reason = "overflow_not_answered"
	ReasonThresholdNotAnswered  Reason = "threshold_not_answered"
	ReasonThresholdOutOfRange   Reason = "threshold_out_of_range"
	ReasonAtNotAnswered         Reason = "at_not_answered"
	ReasonRateNotAnswered       Reason = "rate_not_answered"
	ReasonMissingCriteria       Reason = "missing_criteria"
	ReasonCriteriaNotAllowed    Reason = "criteria_not_allowed"
	ReasonBadNoulCriteria       Reason = "bad_noul_criteria"
	ReasonTooFewOptions         Reason = "too_few_options"
	ReasonTooManyOptions        Reason = "too_many_options"
	ReasonTooFewLabels          Reason = "too_few_labels"
	ReasonTooManyLabels         Reason = "too_many_labels"
	ReasonTooFewLevels          Reason = "too_few_levels"
	ReasonTooManyLevels         Reason = "too_many_levels"
	ReasonPlaceholderInQuestion Reason = "placeholder_in_question"
	ReasonUnknownPlaceholder    Reason = "unknown_placeholder"
	ReasonUnplacedAsset         Reason = "unplaced_asset"
	ReasonBadBase64             Reason = "bad_base64"
	ReasonBadImage              Reason = "bad_image"
	ReasonFormatMismatch        Reason = "format_mismatch"
	ReasonImageNotRead          Reason = "image_not_read"
	ReasonVideoNotRead          Reason = "video_not_read"
	ReasonTooManyImages         Reason = "too_many_images"
	ReasonTooManyVideos         Reason = "too_many_videos"
	ReasonImageSideTooSmall     Reason = "image_side_too_small"
	ReasonImageSideTooLarge     Reason = "image_side_too_large"
	ReasonImageAreaTooSmall     Reason = "image_area_too_small"
	ReasonImageAreaTooLarge     Reason = "image_area_too_large"
	ReasonImageFileTooLarge     Reason = "image_file_too_large"
	ReasonVideoFileTooLarge     Reason = "video_file_too_large"
	ReasonVideoTooLong          Reason = "video_too_long"
	ReasonMissingMedia          Reason = "missing_media"
	ReasonNeedsOneVideo         Reason = "needs_one_video"
	ReasonUnreadableVideo       Reason = "unreadable_video"
	ReasonAtBeyondVideo         Reason = "at_beyond_video"
	ReasonInputTooLong          Reason = "input_too_long"
	ReasonInputTruncated        Reason = "input_truncated"
	ReasonQuestionTooLong       Reason = "question_too_long"
	ReasonScanBudget            Reason = "scan_budget"
	// ReasonDeadlinePassed is not a model check: a caller that runs
	// questions reports it for a question whose work had not started by
	// options.deadline_ms.
	ReasonDeadlinePassed Reason = "deadline_passed"
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
	ReasonTooFewOptions:         {invalidQuestion, "options", "the choice has fewer options than the model reads"},
	ReasonTooManyOptions:        {invalidQuestion, "options", "the choice has more options than the model reads"},
	ReasonTooFewLabels:          {invalidQuestion, "labels", "the question has fewer labels than the model reads"},
	ReasonTooManyLabels:         {invalidQuestion, "labels", "the question has more labels than the model reads"},
	ReasonTooFewLevels:          {invalidQuestion, "levels", "the score has fewer levels than the model reads"},
	ReasonTooManyLevels:         {invalidQuestion, "levels", "the score has more levels than the model reads"},
	ReasonPlaceholderInQuestion: {invalidQuestion, "", "the model reads media only in the state, not in a question's text"},
	ReasonUnknownPlaceholder:    {invalidInput, "", "a placeholder names no asset of the request"},
	ReasonUnplacedAsset:         {invalidInput, "", "an asset is not placed by any string of the request"},
	ReasonBadBase64:             {invalidInput, "", "an asset's data_base64 is not standard base64"},
	ReasonBadImage:              {invalidInput, "", "an image asset is not a PNG or JPEG image"},
	ReasonFormatMismatch:        {invalidInput, "", "an image asset's bytes are not of the format it names"},
	ReasonImageNotRead:          {invalidInput, "", "the model does not read images"},
	ReasonVideoNotRead:          {invalidInput, "", "the model does not read video"},
	ReasonTooManyImages:         {invalidInput, "images", "the request has more images than the model reads"},
	ReasonTooManyVideos:         {invalidInput, "videos", "the request has more videos than the model reads"},
	ReasonImageSideTooSmall:     {invalidInput, "pixels", "an image side is shorter than the model reads"},
	ReasonImageSideTooLarge:     {invalidInput, "pixels", "an image side is longer than the model reads"},
	ReasonImageAreaTooSmall:     {invalidInput, "pixels", "an image has fewer pixels than the model reads"},
	ReasonImageAreaTooLarge:     {invalidInput, "pixels", "an image has more pixels than the model reads"},
	ReasonImageFileTooLarge:     {invalidInput, "bytes", "an image file is larger than the model reads"},
	ReasonVideoFileTooLarge:     {invalidInput, "bytes", "a video file is larger than the model reads"},
	ReasonVideoTooLong:          {invalidInput, "seconds", "a video is longer than the model reads"},
	ReasonMissingMedia:          {invalidInput, "", "a box question needs an image or a video in what it reads"},
	ReasonNeedsOneVideo:         {invalidInput, "", "the question needs exactly one video in the state"},
	ReasonUnreadableVideo:       {invalidInput, "", "the video's duration cannot be read"},
	ReasonAtBeyondVideo:         {invalidInput, "seconds", "at is past the end of the video"},
	ReasonInputTooLong:          {tooLong, "tokens", "the input is longer than the model reads"},
	ReasonInputTruncated:        {tooLong, "tokens", "require_full_input is set, and the model truncates an input this long"},
	ReasonQuestionTooLong:       {tooLong, "tokens", "the question and its media leave no room for the input in one window"},
	ReasonScanBudget:            {ir.QuestionErrorScanBudgetExceeded, "tokens", "reading the input in windows would pass the scan budget"},
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
