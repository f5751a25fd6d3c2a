package model

// ErrorCodeFieldName is the error member that carries a request error's
// code (RequestErrors: a code of its own, or question_failed for a
// question error): the member a client tells error bodies apart by. It is
// named here, beside AssetFormatFieldName and CriteriaFieldName, so an
// emitter that constrains it per status spells no member name itself.
const ErrorCodeFieldName = "code"
