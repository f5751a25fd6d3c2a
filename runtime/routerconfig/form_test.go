package routerconfig

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
)

// schemaTag returns the value of item name in field's schema tag.
func schemaTag(t *testing.T, form any, key, name string) (string, bool) {
	t.Helper()
	rt := reflect.TypeOf(form)
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.Tag.Get("yaml") != key {
			continue
		}
		for _, item := range strings.Split(f.Tag.Get("schema"), ";") {
			if v, ok := strings.CutPrefix(item, name+"="); ok {
				return v, true
			}
		}
		return "", false
	}
	t.Fatalf("%s has no key %s", rt.Name(), key)
	return "", false
}

// TestFormEnumsAreTheLoaders: the enums file.go states (and the schema
// publishes) are the words the loader accepts.
func TestFormEnumsAreTheLoaders(t *testing.T) {
	for _, c := range []struct {
		form any
		key  string
		want []string
	}{
		{ruleForm{}, "on_unknown", onUnknownValues},
		{ruleForm{}, "action", actionValues},
		{ruleForm{}, "input", inputWords()},
		{deploymentForm{}, "provider", []string{registry.SystemOne}},
	} {
		enum, _ := schemaTag(t, c.form, c.key, "enum")
		if got := strings.Split(enum, "|"); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(c.want))) {
			t.Errorf("%T.%s: enum %v, the loader accepts %v", c.form, c.key, got, c.want)
		}
	}
}

// TestListenerAPIFormCoversTheRegistry: every key a builtin API allows
// under a listener's apis (its schema when versioned, its settings with
// their bounds) is in listenerAPIForm, and each of the form's keys is
// allowed by one API at least.
func TestListenerAPIFormCoversTheRegistry(t *testing.T) {
	form := keysOf(listenerAPIForm{})
	used := map[string]bool{"models": true, "rules": true}
	for _, api := range registry.BuiltinAPIs().All() {
		if api.Versioned() {
			used[keySchema] = true
		}
		for _, s := range api.Settings {
			used[s.Name] = true
			if !slices.Contains(form, s.Name) {
				t.Errorf("API %s's setting %s is not in listenerAPIForm", api.Name, s.Name)
				continue
			}
			lo, _ := schemaTag(t, listenerAPIForm{}, s.Name, "min")
			hi, _ := schemaTag(t, listenerAPIForm{}, s.Name, "max")
			if lo != strconv.FormatInt(s.Min, 10) || hi != strconv.FormatInt(s.Max, 10) {
				t.Errorf("listenerAPIForm.%s: min=%s max=%s, the registry's %d..%d", s.Name, lo, hi, s.Min, s.Max)
			}
		}
	}
	for _, k := range form {
		if !used[k] {
			t.Errorf("listenerAPIForm key %s is allowed by no API", k)
		}
	}
}

// inputWords are the words a rule's input may list: its parts and media.
func inputWords() []string {
	out := slices.Clone(InputParts)
	for _, m := range InputMedia {
		out = append(out, string(m))
	}
	return out
}

// TestFormEnumsAreTheRegistrys: the API names, schema IDs and deviation
// IDs file.go states (and the schema publishes, for editors to complete)
// are the builtin registries'.
func TestFormEnumsAreTheRegistrys(t *testing.T) {
	apis := registry.BuiltinAPIs()
	// Every name and alias the registry resolves, as its refusal lists them.
	_, err := apis.Resolve("")
	_, list, ok := strings.Cut(fmt.Sprint(err), "supported: ")
	if !ok {
		t.Fatalf("the registry's refusal lists no names: %v", err)
	}
	known := strings.Split(list, ", ")
	var llm, listenerSchemas, upstreamSchemas, deploymentSchemas []string
	for _, name := range known {
		if api, _ := apis.Lookup(name); api.Kind == registry.KindLLM {
			llm = append(llm, name)
		}
	}
	for _, api := range apis.All() {
		ids := func(in []table.SchemaID) (out []string) {
			for _, id := range in {
				out = append(out, string(id))
			}
			return out
		}
		switch {
		case api.Kind == registry.KindLLM:
			upstreamSchemas = append(upstreamSchemas, ids(api.UpstreamSchemas)...)
		case api.Name == registry.SystemOne:
			deploymentSchemas = ids(api.UpstreamSchemas)
		}
		if api.Versioned() {
			listenerSchemas = append(listenerSchemas, ids(api.Schemas)...)
		}
	}
	for _, c := range []struct {
		form      any
		key, item string
		want      []string
	}{
		{listenerForm{}, "apis", "keyenum", known},
		{upstreamForm{}, "api_format", "enum", llm},
		{listenerAPIForm{}, keySchema, "enum", listenerSchemas},
		{upstreamForm{}, keySchema, "enum", upstreamSchemas},
		{deploymentForm{}, keySchema, "enum", deploymentSchemas},
		{deploymentForm{}, "deviations", "enum", registry.BuiltinSchemas().DeviationIDs()},
	} {
		enum, _ := schemaTag(t, c.form, c.key, c.item)
		got := slices.Sorted(slices.Values(strings.Split(enum, "|")))
		want := slices.Compact(slices.Sorted(slices.Values(c.want)))
		if !slices.Equal(got, want) {
			t.Errorf("%T.%s %s: %v, the registry has %v", c.form, c.key, c.item, got, want)
		}
	}
}
