package docsite

import "testing"

func TestMarkdownEscapes(t *testing.T) {
	for _, c := range []struct{ in, prose, cell string }{
		{"under <question>.<label>", `under \<question>.\<label>`, `under \<question>.\<label>`},
		{"keep `<tag>` and `a|b`", "keep `<tag>` and `a|b`", "keep `<tag>` and `a\\|b`"},
		{"a ``x ` <y>`` then <z>", "a ``x ` <y>`` then \\<z>", "a ``x ` <y>`` then \\<z>"},
		{"an open ` tick <here>", "an open ` tick \\<here>", "an open ` tick \\<here>"},
		{"already \\<escaped>", "already \\<escaped>", "already \\<escaped>"},
		{"two\nlines | and\n- a list", "two\nlines | and\n- a list", "two lines \\| and - a list"},
	} {
		if got := prose(c.in); got != c.prose {
			t.Errorf("prose(%q) = %q, want %q", c.in, got, c.prose)
		}
		if got := cell(c.in); got != c.cell {
			t.Errorf("cell(%q) = %q, want %q", c.in, got, c.cell)
		}
	}
}

func TestCodeAndWords(t *testing.T) {
	for in, want := range map[string]string{"a": "`a`", "a`b": "``a`b``", "`a": "`` `a ``"} {
		if got := code(in); got != want {
			t.Errorf("code(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"}} {
		if got := words(c.in, "or"); got != c.want {
			t.Errorf("words(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := value(1.5); got != "`1.5`" {
		t.Errorf("value(1.5) = %q", got)
	}
}

func TestRelPath(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{"index.md", "reference/a.md", "reference/a.md"},
		{"reference/x-openapi.md", "reference/x-openapi/schemas/A.md", "x-openapi/schemas/A.md"},
		{"reference/x-openapi/operations/get.md", "reference/x-openapi/schemas/A.md", "../schemas/A.md"},
		{"reference/x-openapi/schemas/A.md", "reference/x-openapi/schemas/B.md", "B.md"},
		{"reference/x-openapi/schemas/A.md", "reference/x-openapi.md", "../../x-openapi.md"},
		{"design/architecture.md", "getting-started.md", "../getting-started.md"},
	} {
		if got := relPath(c.from, c.to); got != c.want {
			t.Errorf("relPath(%q, %q) = %q, want %q", c.from, c.to, got, c.want)
		}
	}
}
