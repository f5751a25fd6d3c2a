package main

import (
	"strings"
	"testing"
)

// A command run without its FILE, or with two, says which argument it
// takes, on one line, instead of cobra's "accepts 1 arg(s), received 0".
func TestCommandsNameTheirMissingArgument(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"config", "check"}, "vllm-sr config check needs FILE, the Router configuration to read"},
		{[]string{"config", "migrate"}, "vllm-sr config migrate needs FILE, the Router configuration to read"},
		{[]string{"config", "envoy"}, "vllm-sr config envoy needs FILE, the Router configuration to read"},
		{[]string{"config", "check", "a.yaml", "b.yaml"}, "vllm-sr config check takes one FILE, got 2 arguments: a.yaml b.yaml"},
	} {
		_, _, err := runCmd(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") ||
			strings.Contains(err.Error(), "arg(s)") {
			t.Errorf("%v: got %v, want one line containing %q", c.args, err, c.want)
		}
	}
}
