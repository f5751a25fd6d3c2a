package table

import "testing"

// TestReplyReason: a row names a problem of the member at its path from
// its level, "*" standing for any key, the first such row in order.
func TestReplyProblemOf(t *testing.T) {
	rows := []ReplyProblem{
		{Member: []string{"answer", "noul"}, Problems: []ProblemReason{ReasonMissingMember}, Reason: "noul_missing"},
		{Member: []string{"answer", "noul"}, Problems: []ProblemReason{ReasonWrongType, ReasonNotAllowedNull}, Reason: "noul_not_number"},
		{Member: []string{"answer", "probabilities", "*"}, Problems: []ProblemReason{ReasonBelowMinimum}, Reason: "out_of_range"},
		{Member: []string{"answer"}, Problems: []ProblemReason{ReasonWrongType}, Reason: "not_object"},
	}
	cases := []struct {
		level Level
		path  []string
		p     ProblemReason
		want  string
	}{
		{"answer", []string{"noul"}, ReasonMissingMember, "noul_missing"},
		{"answer", []string{"noul"}, ReasonNotAllowedNull, "noul_not_number"},
		{"answer", []string{"probabilities", "x~1y"}, ReasonBelowMinimum, "out_of_range"},
		{"answer", nil, ReasonWrongType, "not_object"},
		{"answer", []string{"noul"}, ReasonAboveMaximum, ""},
		{"answer", []string{"probabilities"}, ReasonBelowMinimum, ""},
		{"answer", []string{"noul", "x"}, ReasonWrongType, ""},
		{"response", []string{"noul"}, ReasonMissingMember, ""},
	}
	for _, c := range cases {
		row, ok := ReplyProblemOf(rows, c.level, c.path, c.p)
		if got := row.Reason; got != c.want || ok != (c.want != "") {
			t.Errorf("%s %v %s: %q %v, want %q", c.level, c.path, c.p, got, ok, c.want)
		}
	}
}
