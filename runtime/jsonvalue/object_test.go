package jsonvalue

import (
	"math"
	"testing"
)

func TestObjectWriter(t *testing.T) {
	o := OpenObject([]byte("x"))
	o.Name("a")
	o.Dst = AppendString(o.Dst, "é\"\x01")
	o.RawName([]byte(`"\u0062"`))
	o.Dst = AppendFloat(o.Dst, 0.1)
	o.Name("c\n")
	o.Dst = AppendCompact(o.Dst, Null())
	if got, want := string(o.Close()), `x{"a":"é\"\u0001","\u0062":0.1,"c\n":null}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if o.Len() != 3 {
		t.Errorf("Len %d, want 3", o.Len())
	}
	empty := OpenObject(nil)
	if got := string(empty.Close()); got != "{}" {
		t.Errorf("empty object %s", got)
	}
}

// AppendString writes what String does, for every string, valid UTF-8 or
// not, and AppendFloat what Float does for finite numbers.
func TestAppendStringAndFloatMatchTheirValues(t *testing.T) {
	for _, s := range []string{"", "plain", "tab\there", "\xff\xfe bad", "emoji 😀", "quote\"back\\"} {
		if got, want := string(AppendString(nil, s)), string(Compact(String(s))); got != want {
			t.Errorf("AppendString(%q) = %s, String gives %s", s, got, want)
		}
	}
	for _, f := range []float64{0, -0.5, 1e21, 1e-7, math.MaxFloat64, 123456789} {
		if got, want := string(AppendFloat(nil, f)), string(Compact(Float(f))); got != want {
			t.Errorf("AppendFloat(%g) = %s, Float gives %s", f, got, want)
		}
	}
}
