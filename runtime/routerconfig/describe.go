package routerconfig

import (
	"fmt"
	"strconv"
	"strings"
)

// Describe writes what a loaded configuration serves and calls, one fact
// per line, in a fixed order: what `vllm-sr config check` prints for a
// configuration it accepts.
func Describe(c *Config) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	for _, l := range c.Listeners {
		how := "default APIs"
		if l.Listed {
			how = "listed APIs"
		}
		line("listener %s %s (%s)", l.Name, l.Address, how)
		for _, a := range l.APIs {
			line("  %s %s models=%s%s", a.API.Name, a.Schema, models(a.Models), settings(a.Settings))
		}
	}
	for _, u := range c.Upstreams {
		line("upstream %s %s %s %s models=%s", u.Name, u.API, u.Schema, u.Endpoint, models(u.Models))
	}
	for _, d := range c.Deployments {
		card := "declared"
		switch {
		case d.Card != nil:
			card = "card" //vocab:not-spec describe output word: the capabilities come from the card
		case d.Declared == nil:
			card = "schema"
		}
		line("deployment %s %s %s model=%s max_concurrency=%d deviations=[%s] capabilities(%s)=[%s]",
			d.Name, d.Schema, d.Endpoint, strconv.Quote(d.Model), d.MaxConcurrency,
			strings.Join(d.DeviationIDs, ","), card, strings.Join(capNames(d.Capabilities), ","))
	}
	for _, p := range c.Pools {
		line("pool %s [%s]", p.Name, strings.Join(p.Members, ","))
	}
	for _, r := range c.Rules {
		line("rule %s deployment=%s input=[%s] timeout=%s on_unknown=%s", r.Name, r.Deployment, strings.Join(r.Input, ","), r.Timeout, r.OnUnknown)
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
