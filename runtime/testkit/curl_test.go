package testkit

import "testing"

func TestMatchElided(t *testing.T) {
	for _, c := range []struct {
		want, got string
		ok        bool
	}{
		{`{"a":1}`, `{"a":1}`, true},
		{`{"a":1}`, `{"a":2}`, false},
		{`{...,"r":{"x":1}}`, `{"a":1,"r":{"x":1}}`, true},
		{`{...,"r":{"x":1}}`, `{"a":1,"r":{"x":2}}`, false},
		{`{"d":"x",...,"e":{...}}`, `{"d":"x","c":1,"e":{"m":2}}`, true},
		{`{"d":"x",...,"e":{...}}`, `{"d":"x","e":{"m":2},"c":1}`, false},
		{`ab...ba`, `aba`, false},
	} {
		if got := MatchElided(c.want, c.got); got != c.ok {
			t.Errorf("MatchElided(%q, %q) = %v, want %v", c.want, c.got, got, c.ok)
		}
	}
}
