package modelcheck

import (
	"reflect"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

func TestTokensCountCodePoints(t *testing.T) {
	text := "Café naïve 😀! e\u0301t\u00e9 x-1"
	var got []string
	runes := []rune(text)
	for _, tok := range Tokens(text) {
		if string(runes[tok.Start:tok.End]) != text[tok.ByteStart:tok.ByteEnd] {
			t.Fatalf("token %+v: code point and byte bounds disagree", tok)
		}
		got = append(got, text[tok.ByteStart:tok.ByteEnd])
	}
	want := []string{"Café", "naïve", "😀", "!", "e\u0301t\u00e9", "x", "-", "1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tokens = %q, want %q", got, want)
	}
	if Count(text) != int64(len(want)) {
		t.Errorf("Count = %d, want %d", Count(text), len(want))
	}
	if tok := Tokens(text)[2]; tok.Start != 11 || tok.End != 12 || tok.Word {
		t.Errorf("emoji token = %+v, want code points [11,12), not a word", tok)
	}
}

func TestPrefixCutsAtATokenEnd(t *testing.T) {
	cases := []struct {
		text string
		n    int64
		want string
	}{
		{"one two, three", 2, "one two"},
		{"one two, three", 3, "one two,"},
		{"one two", 5, "one two"},
		{"one", 0, ""},
	}
	for _, c := range cases {
		if got := Prefix(c.text, c.n); got != c.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", c.text, c.n, got, c.want)
		}
	}
}

func TestRolesOverAndSpanDefaultChooseTheParts(t *testing.T) {
	req := decode(t, `{"state":{"request":"Q?","context":"C.","answer":"A!"},
		"roles":{"request":"user","context":"context","answer":"answer"},
		"questions":{"n":{"type":"noul"},"o":{"type":"noul","over":["answer","request"]},"s":{"type":"span","labels":{"x":null}}}}`)
	keys := func(in Input) []string {
		var out []string
		for _, p := range in.Parts {
			out = append(out, string(p.Role)+":"+p.Key)
		}
		return out
	}
	if got := keys(ForQuestion(true, req, &req.Questions[0], table.QuestionNoul)); !reflect.DeepEqual(got, []string{"user:request", "context:context", "answer:answer"}) {
		t.Errorf("whole state = %v", got)
	}
	if got := keys(ForQuestion(true, req, &req.Questions[1], table.QuestionNoul)); !reflect.DeepEqual(got, []string{"user:request", "answer:answer"}) {
		t.Errorf("over reads %v, want the named keys in state order", got)
	}
	if got := keys(ForQuestion(true, req, &req.Questions[2], table.QuestionSpan)); !reflect.DeepEqual(got, []string{"answer:answer"}) {
		t.Errorf("a span reads %v, want its answer part", got)
	}
	if got := ForQuestion(false, req, &req.Questions[0], table.QuestionNoul); len(got.Parts) != 1 ||
		got.Parts[0].Text != `{"request": "Q?", "context": "C.", "answer": "A!"}` {
		t.Errorf("a family that is not role-aware reads %+v, want the json.dumps text as one user part", got.Parts)
	}
}

func TestRolesNullAndImplicitRoles(t *testing.T) {
	none := decode(t, `{"state":{"request":"Q?","history":"H"},"roles":null,"questions":{"n":{"type":"noul"}}}`)
	if in := Whole(true, none); len(in.Parts) != 1 || in.Parts[0].Role != ir.RoleUser {
		t.Errorf("roles null: %+v, want the whole state as one user part", in.Parts)
	}
	implicit := decode(t, `{"state":{"request":"Q?","history":"H","other":"O"},"questions":{"n":{"type":"noul"}}}`)
	var roles []ir.Role
	for _, p := range Whole(true, implicit).Parts {
		roles = append(roles, p.Role)
	}
	if !reflect.DeepEqual(roles, []ir.Role{ir.RoleUser, ir.RoleContext, ir.RoleUser}) {
		t.Errorf("implicit roles = %v", roles)
	}
}

func TestMediaFrontState(t *testing.T) {
	req := decode(t, `{"state":["⟦i⟧","⟦v⟧","What happens here?"],"roles":null,
		"assets":{"⟦i⟧":{"type":"image","format":"png","data_base64":""},"⟦v⟧":{"type":"video","format":"mp4","data_base64":""}},
		"questions":{"n":{"type":"noul"}}}`)
	in := Whole(false, req)
	if !reflect.DeepEqual(in.Media, []string{"⟦i⟧", "⟦v⟧"}) || len(in.Parts) != 1 || in.Parts[0].Text != "What happens here?" {
		t.Errorf("media-front state read as %+v", in)
	}
	swapped := decode(t, `{"state":["⟦v⟧","⟦i⟧","Text"],"roles":null,
		"assets":{"⟦i⟧":{"type":"image","format":"png","data_base64":""},"⟦v⟧":{"type":"video","format":"mp4","data_base64":""}},
		"questions":{"n":{"type":"noul"}}}`)
	if in := Whole(false, swapped); in.Media != nil || in.Parts[0].Text != `["⟦v⟧", "⟦i⟧", "Text"]` {
		t.Errorf("a video before an image is no media-front state: %+v", in)
	}
}

// The 4.0 listener's second overlap: without roles (implicit, 4.0's
// reading) a state of placeholders in front of one item stays an array
// that labels its assets; the same body with roles null (5.0's reading)
// is the item with the media in front.
func TestMediaFrontStateKeepsTheArrayUnderImplicitRoles(t *testing.T) {
	req := decode(t, `{"state":["⟦i⟧","Caption"],
		"assets":{"⟦i⟧":{"type":"image","format":"png","data_base64":""}},
		"questions":{"n":{"type":"noul"}}}`)
	if req.Roles.Mode != ir.RoleModeImplicit {
		t.Fatalf("roles mode = %q, want implicit", req.Roles.Mode)
	}
	in := Whole(false, req)
	if in.Media != nil || len(in.Parts) != 1 || in.Parts[0].Text != `["⟦i⟧", "Caption"]` {
		t.Errorf("implicit roles: read as %+v, want the array kept", in)
	}
	req.Roles = ir.Roles{Mode: ir.RoleModeNone}
	in = Whole(false, req)
	if !reflect.DeepEqual(in.Media, []string{"⟦i⟧"}) || in.Parts[0].Text != "Caption" {
		t.Errorf("roles none: read as %+v, want the media in front of the item", in)
	}
}
