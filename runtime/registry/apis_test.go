package registry

import (
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/table"
)

func TestBuiltinAPIs(t *testing.T) {
	r := BuiltinAPIs()
	if got, want := strings.Join(r.Names(), ","), "chat_completions,images,messages,responses,systemone"; got != want {
		t.Fatalf("names %s, want %s", got, want)
	}
	if got, want := strings.Join(r.Defaults(), ","), "chat_completions,images,messages,responses"; got != want {
		t.Fatalf("defaults %s, want %s", got, want)
	}
	s, err := r.Resolve(SystemOne)
	if err != nil {
		t.Fatal(err)
	}
	if s.ListenerDefault != table.SchemaVllmSR50 || s.UpstreamDefault != table.SchemaStandard02 || !s.Versioned() || s.Kind != KindDecision {
		t.Fatalf("systemone entry: %+v", s)
	}
	if len(s.Settings) != 1 || s.Settings[0].Name != MaxDeadlineSetting {
		t.Fatal("systemone has no max_deadline_ms")
	}
	for alias, api := range map[string]string{"openai": ChatCompletions, "anthropic": Messages} {
		a, ok := r.Lookup(alias)
		if !ok || a.Name != api {
			t.Errorf("alias %s resolves to %q, want %s", alias, a.Name, api)
		}
	}
	for path, api := range map[string]string{
		"/v1/images/generations": Images, "/v1/systemone/batch": SystemOne, "/v1/decisions": SystemOne,
		"/v1/messages": Messages, "/v1/responses": Responses, "/v1/chat/completions": ChatCompletions,
	} {
		if name, _, ok := r.ByPath(path); !ok || name != api {
			t.Errorf("%s served by %q, want %s", path, name, api)
		}
	}
	if name, kind, _ := r.ByPath("/v1/systemone"); name != SystemOne || kind != KindDecision {
		t.Errorf("/v1/systemone served by %q of kind %q, want %s of kind %s", name, kind, SystemOne, KindDecision)
	}
	if name, kind, _ := r.ByPath("/v1/chat/completions"); name != ChatCompletions || kind != KindLLM {
		t.Errorf("/v1/chat/completions served by %q of kind %q, want %s of kind %s", name, kind, ChatCompletions, KindLLM)
	}
	if _, _, ok := r.ByPath("/v1/images"); ok {
		t.Error("/v1/images/* must not serve /v1/images itself")
	}
}

func TestAccessorsReturnCopies(t *testing.T) {
	r := BuiltinAPIs()
	apis := r.All()
	apis[len(apis)-1].Paths[0] = "/changed"
	a, _ := r.Lookup(SystemOne)
	a.Schemas[0] = "changed/1"
	if b, _ := r.Lookup(SystemOne); b.Paths[0] != "/v1/systemone" || b.Schemas[0] == "changed/1" {
		t.Fatal("a caller changed the registry")
	}
}

func TestUnknownAPIListsTheSupportedOnes(t *testing.T) {
	_, err := BuiltinAPIs().Resolve("gemini")
	want := `unknown API "gemini"; supported: anthropic, chat_completions, images, messages, openai, responses, systemone`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestNewAPIsRefuses(t *testing.T) {
	good := func() API {
		return API{Name: "probe", Paths: []string{"/v1/probe"}, Kind: KindLLM,
			Schemas: []table.SchemaID{"openai/v1"}, ListenerDefault: "openai/v1",
			UpstreamDefault: "openai/v1", UpstreamSchemas: []table.SchemaID{"openai/v1"}}
	}
	cases := []struct {
		name    string
		apis    func() []API
		aliases []Alias
		want    string
	}{
		{"duplicate", func() []API { return []API{good(), good()} }, nil, `api "probe": registered twice`},
		{"bad name", func() []API { a := good(); a.Name = "Probe"; return []API{a} }, nil, `api "Probe": a name is lower-case`},
		{"bad kind", func() []API { a := good(); a.Kind = "x"; return []API{a} }, nil, `kind must be llm or decision`},
		{"no path", func() []API { a := good(); a.Paths = nil; return []API{a} }, nil, `has no path`},
		{"bad path", func() []API { a := good(); a.Paths = []string{"v1/x"}; return []API{a} }, nil, `path "v1/x" is not an absolute path`},
		{"shared path", func() []API { b := good(); b.Name = "other"; return []API{good(), b} }, nil, `api "other": path /v1/probe is already served by "probe"`},
		{"bad schema ID", func() []API {
			a := good()
			a.Schemas = []table.SchemaID{"openai"}
			a.ListenerDefault = "openai"
			return []API{a}
		}, nil, `schema "openai": the ID does not match name/version`},
		{"schema twice", func() []API { a := good(); a.Schemas = append(a.Schemas, a.Schemas[0]); return []API{a} }, nil, `schema "openai/v1": listed twice`},
		{"listener default", func() []API { a := good(); a.ListenerDefault = "openai/v2"; return []API{a} }, nil, `listener default "openai/v2" is not one of its schemas`},
		{"upstream default", func() []API { a := good(); a.UpstreamDefault = "openai/v2"; return []API{a} }, nil, `upstream default "openai/v2" is not one of its upstream schemas`},
		{"setting twice", func() []API {
			a := good()
			a.Settings = []Setting{{Name: "x", Max: 1}, {Name: "x", Max: 1}}
			return []API{a}
		}, nil, `setting "x": declared twice`},
		{"setting named schema", func() []API { a := good(); a.Settings = []Setting{{Name: "schema"}}; return []API{a} }, nil, `setting "schema": not a usable setting name`},
		{"setting bounds", func() []API { a := good(); a.Settings = []Setting{{Name: "x", Min: 2, Max: 1}}; return []API{a} }, nil, `minimum above maximum`},
		{"alias of nothing", func() []API { return []API{good()} }, []Alias{{Name: "old", API: "gone"}}, `alias "old": names no registered API`},
		{"alias is a name", func() []API { return []API{good()} }, []Alias{{Name: "probe", API: "probe"}}, `alias "probe": is also an API's name`},
		{"alias twice", func() []API { return []API{good()} }, []Alias{{Name: "old", API: "probe"}, {Name: "old", API: "probe"}}, `alias "old": registered twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := NewAPIs(c.apis(), c.aliases)
			if err == nil || r != nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
	if _, err := NewAPIs([]API{good()}, []Alias{{Name: "old", API: "probe"}}); err != nil {
		t.Fatalf("the good entry is refused: %v", err)
	}
}
