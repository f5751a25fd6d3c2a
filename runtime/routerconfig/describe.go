package routerconfig

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Describe writes what a loaded configuration serves and calls, one fact
// per line, in a fixed order: what `vllm-sr config check` prints for a
// configuration it accepts.
func Describe(c *Config) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	if c.AdminAddress != "" {
		line("admin %s (/health, /ready and /metrics)", c.AdminAddress)
	}
	for _, l := range c.Listeners {
		how := "default APIs"
		if l.Listed {
			how = "listed APIs"
		}
		bound := ""
		if l.MaxInFlight != DefaultMaxInFlight {
			bound = fmt.Sprintf(" %s=%d", keyMaxInFlight, l.MaxInFlight)
		}
		line("listener %s %s (%s)%s%s%s%s", l.Name, l.Address, how, bound, keyed(keyAPIKeysEnv, l.APIKeysEnv), keyed(keyAPIKeysFile, l.APIKeysFile), ruleList(l.Rules))
		for _, a := range l.APIs {
			line("  %s %s models=%s%s%s", a.API.Name, a.Schema, models(a.Models), settings(a.Settings), ruleList(a.Rules))
		}
	}
	for _, u := range c.Upstreams {
		line("upstream %s %s %s %s models=%s%s%s", u.Name, u.API, u.Schema, u.Endpoint, models(u.Models), keyed(keyAPIKeyEnv, u.APIKeyEnv), keyed(keyAPIKeyFile, u.APIKeyFile))
	}
	for _, d := range c.Deployments {
		card := "declared"
		switch {
		case d.Card != nil:
			card = "card" //vocab:not-spec describe output word: the capabilities come from the card
		case d.Declared == nil:
			card = "schema" //vocab:not-spec describe output word: the capabilities come from the schema
		}
		line("deployment %s %s %s model=%s max_concurrency=%d deviations=[%s] capabilities(%s)=[%s]%s%s%s",
			d.Name, d.Schema, d.Endpoint, strconv.Quote(d.Model), d.MaxConcurrency,
			strings.Join(d.DeviationIDs, ","), card, strings.Join(capNames(d.Capabilities), ","), keyed(keyAPIKeyEnv, d.APIKeyEnv), keyed(keyAPIKeyFile, d.APIKeyFile),
			fleetText(d.Fleet))
	}
	for _, p := range c.Pools {
		line("pool %s [%s]", p.Name, strings.Join(p.Members, ","))
	}
	if c.Tracing.On() {
		line("tracing %s sample_ratio=%s", c.Tracing.OTLPEndpoint, strconv.FormatFloat(c.Tracing.SampleRatio, 'g', -1, 64))
	}
	for _, r := range c.Rules {
		input := slices.Clone(r.Input)
		for _, m := range r.Media {
			input = append(input, string(m))
		}
		line("rule %s deployment=%s input=[%s] timeout=%s on_unknown=%s match=[%s]%s", r.Name, r.Deployment,
			strings.Join(input, ","), r.Timeout, r.OnUnknown, matchText(r.Match), actionText(&r))
		for _, q := range r.Questions {
			preset := ""
			if q.Preset != nil {
				preset = " preset=" + *q.Preset
			}
			line("  question %s %s%s", q.Name, q.Type, preset)
		}
	}
	return b.String()
}

// keyed is " key=NAME" for an environment variable's name or a key
// file's path (never a key), "" for none.
func keyed(key, name string) string {
	if name == "" {
		return ""
	}
	return " " + key + "=" + name
}

func ruleList(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " rules=[" + strings.Join(names, ",") + "]"
}

// matchText writes the conditions, such as urgent>=0.5 or topic=billing|other.
func matchText(m []Condition) string {
	parts := make([]string, len(m))
	for i, c := range m {
		if c.AtLeast != nil {
			parts[i] = c.Question + ">=" + strconv.FormatFloat(*c.AtLeast, 'g', -1, 64)
		} else {
			parts[i] = c.Question + "=" + strings.Join(c.Choices, "|")
		}
	}
	return strings.Join(parts, ",")
}

func actionText(r *Rule) string {
	switch {
	case r.Action == ActionNone:
		return ""
	case r.Route != nil:
		return " action=route upstream=" + cmp.Or(r.Route.Upstream, "-") + " model=" + cmp.Or(r.Route.Model, "-")
	}
	return " action=" + string(r.Action)
}

func models(m []string) string {
	if m == nil {
		return "all"
	}
	return "[" + strings.Join(m, ",") + "]"
}

func settings(s []SettingValue) string {
	var b strings.Builder
	for _, v := range s {
		fmt.Fprintf(&b, " %s=%d", v.Name, v.Value)
	}
	return b.String()
}
