package srun

import "testing"

func TestConfigDefaultsAndRefusals(t *testing.T) {
	c, err := Config{Model: "m"}.withDefaults()
	if err != nil || c.Schema != "vllm-sr/5.0" || c.Device != "cpu" || c.MaxInFlight != DefaultMaxInFlight || c.Logger == nil {
		t.Fatalf("defaults: %+v, %v", c, err)
	}
	for _, bad := range []Config{{Schema: "vllm-sr/3.0"}, {Device: "tpu"}, {MaxInFlight: -1}} {
		if _, err := bad.withDefaults(); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
}
