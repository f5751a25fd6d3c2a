package model

import (
	"github.com/vllm-sr/systemone/runtime/table"
)

// WriteOrder is the order vllm-sr's writers (the canonical vllm-sr/5.0
// form, and the internal form where a request recorded none) give one
// level's members: Members first, in this order, then every other member
// of the level in message order.
type WriteOrder struct {
	Level   table.Level `json:"level"`
	Members []string    `json:"members"`
	Reason  string      `json:"reason"`
	Pos     Position    `json:"-"`
}

// checkPassive: a passive member has no runtime semantics, so nothing may
// depend on the runtime acting on it. A refused_at_load member does (the
// Router refuses a rule that uses it for a systemone/0.2 target, which
// needs its IR field), a type level's entries are no members, and on the
// request side a systemone/0.2 target must get a passive member stripped:
// never_sent describes what a server sends, not what a client may. (That
// two specs agree on it, checkCrossSpecMeaning checks.)
func (b *builder) checkPassive() {
	for _, f := range b.m.Fields {
		if !f.Passive {
			continue
		}
		switch {
		case typeLevels[f.Level]:
			b.problems.Add(f.Pos, "field %s.%s: a %s entry is a type, not a member, and cannot be passive", f.Level, f.Name, f.Level)
		case f.Disposition == table.DispositionRefusedAtLoad:
			b.problems.Add(f.Pos, "field %s.%s is passive but refused_at_load: a member the Router refuses rules for has runtime semantics", f.Level, f.Name)
		case f.Disposition == table.DispositionNeverSent && requestSide(f.Level):
			b.problems.Add(f.Pos, "field %s.%s is a passive request member with never_sent: a systemone/0.2 target strips it, so say stripped", f.Level, f.Name)
		}
	}
}

// requestSide reports whether level is part of a request body: LevelOrder
// puts every request level before the answer.
func requestSide(level table.Level) bool {
	return indexOf(LevelOrder, level) < indexOf(LevelOrder, table.LevelAnswer)
}

// buildWriteOrder checks the extension spec's write orders against the
// schemas' messages: each names a level some schema has a message at, once,
// and only members some schema defines there, each once.
func (b *builder) buildWriteOrder() {
	seen := map[table.Level]bool{}
	for _, e := range b.raw.Extensions.WriteOrder {
		level := table.Level(e.Level)
		if seen[level] {
			b.problems.Add(e.Pos, "write_order lists level %q twice", e.Level)
			continue
		}
		seen[level] = true
		defined := b.levelMembers(level)
		if defined == nil {
			b.problems.Add(e.Pos, "write_order: no schema has a message at level %q", e.Level)
			continue
		}
		named := map[string]bool{}
		for _, name := range e.Members {
			switch {
			case named[name]:
				b.problems.Add(e.Pos, "write_order of %s names %q twice", e.Level, name)
			case !defined[name]:
				b.problems.Add(e.Pos, "write_order of %s names %q, which no schema defines at that level", e.Level, name)
			}
			named[name] = true
		}
		b.m.WriteOrder = append(b.m.WriteOrder, WriteOrder{Level: level, Members: e.Members, Reason: e.Reason, Pos: e.Pos})
	}
}

// levelMembers are the member names any schema defines at level; nil when
// none has a message there.
func (b *builder) levelMembers(level table.Level) map[string]bool {
	var out map[string]bool
	for _, s := range b.m.Schemas {
		for _, msg := range s.Messages {
			if msg.Level != level {
				continue
			}
			if out == nil {
				out = map[string]bool{}
			}
			for _, mem := range msg.Members {
				out[mem.Name] = true
			}
		}
	}
	return out
}
