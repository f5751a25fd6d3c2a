package routerconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// TestTrafficConfigurationLoads pins what testdata/check/traffic.yaml
// loads into: rules per listener and API, matches, actions, routes and
// keys from the environment.
func TestTrafficConfigurationLoads(t *testing.T) {
	setCheckEnv(t)
	c, err := LoadFile("testdata/check/traffic.yaml", builtin())
	if err != nil {
		t.Fatal(err)
	}
	if c.AdminAddress != "127.0.0.1:8090" {
		t.Errorf("admin address %q", c.AdminAddress)
	}
	public := &c.Listeners[0]
	if len(public.APIKeys) != 2 || public.APIKeys[0].Reveal() != "sk-first" || public.APIKeys[1].Reveal() != "sk-second" {
		t.Errorf("listener keys: %d", len(public.APIKeys))
	}
	chat, _ := public.Serves("openai", builtin().APIs)
	if got := strings.Join(public.RulesFor(chat), ","); got != "jailbreak,billing" {
		t.Errorf("rules on public chat: %s", got)
	}
	internal := &c.Listeners[1]
	images, _ := internal.Serves("images", builtin().APIs)
	if got := strings.Join(internal.RulesFor(images), ","); got != "jailbreak" || len(internal.APIKeys) != 0 {
		t.Errorf("rules on internal images: %s", got)
	}
	billing, _ := c.Rule("billing")
	if billing.Action != ActionRoute || billing.Route.Upstream != "openai-cheap" || billing.Route.Model != "gpt-4o-mini" || len(billing.Match) != 2 ||
		strings.Join(billing.Match[0].Choices, ",") != "billing" || *billing.Match[1].AtLeast != 1 {
		t.Errorf("billing: %+v", billing)
	}
	if u := c.RouteUpstream(billing.Route, "chat_completions"); u == nil || u.Name != "openai-cheap" {
		t.Errorf("billing routes to %v", u)
	}
	if u := c.RouteUpstream(&Route{Model: "gpt-4o-mini"}, "chat_completions"); u == nil || u.Name != "openai-cheap" {
		t.Errorf("a model-only route goes to the first upstream by name serving it: %v", u)
	}
	if u := c.RouteUpstream(billing.Route, "messages"); u != nil {
		t.Errorf("a chat upstream serves the messages API: %v", u)
	}
	jailbreak, _ := c.Rule("jailbreak")
	if jailbreak.Action != ActionBlock || len(jailbreak.Match) != 1 || *jailbreak.Match[0].AtLeast != DefaultNoulMatch {
		t.Errorf("jailbreak: %+v", jailbreak)
	}
	if d, _ := c.Deployment("gateway-d3"); d.APIKey.Reveal() != checkKey || d.APIKeyEnv != "VSR_CHECK_KEY" {
		t.Errorf("deployment key from %q", d.APIKeyEnv)
	}
}

// TestSecretsNeverPrint: a key read from the environment prints as
// [redacted] through fmt, slog and encoding/json, in the configuration
// that holds it.
func TestSecretsNeverPrint(t *testing.T) {
	setCheckEnv(t)
	c, err := LoadFile("testdata/check/traffic.yaml", builtin())
	if err != nil {
		t.Fatal(err)
	}
	d, _ := c.Deployment("gateway-d3")
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("deployment", "key", d.APIKey, "keys", c.Listeners[0].APIKeys)
	js, _ := json.Marshal(c.Upstreams)
	for _, out := range []string{fmt.Sprintf("%v %+v %#v %s", *d, *d, d.APIKey, d.APIKey), fmt.Sprint(c.Listeners), logged.String(), string(js)} {
		if strings.Contains(out, checkKey) || strings.Contains(out, "sk-first") || !strings.Contains(out, "[redacted]") {
			t.Errorf("a key printed: %s", out)
		}
	}
}

// TestUnsetKeyIsALoadError: an unset or empty variable is a problem
// naming the variable.
func TestUnsetKeyIsALoadError(t *testing.T) {
	t.Setenv("VSR_EMPTY", " ")
	doc := "deployments:\n  d: {provider: systemone, endpoint: 'http://h/v1/systemone', model: m, api_key_env: VSR_EMPTY}\n" +
		"listeners:\n  - {name: a, address: ':1', api_keys_env: VSR_EMPTY}\n"
	_, err := Load("keys.yaml", []byte(doc), builtin())
	var le *LoadError
	if !errors.As(err, &le) || len(le.Problems) != 2 ||
		!strings.Contains(err.Error(), "deployments.d.api_key_env: the environment variable VSR_EMPTY is empty") ||
		!strings.Contains(err.Error(), "listeners[0].api_keys_env: the environment variable VSR_EMPTY holds no key") {
		t.Fatalf("got %v", err)
	}
}
