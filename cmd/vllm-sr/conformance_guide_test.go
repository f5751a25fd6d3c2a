package main

import (
	"net"
	"os"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/docsite"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// conformanceGuide is the guide whose commands this file runs.
const conformanceGuide = "docs/conformance.md"

// closedPort is a loopback URL where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	return url
}

// Every vllm-sr conformance command of the conformance guide, run with
// the set-up the guide names for its URL: make run's runtime (8100), the
// Router guide's session (18080), the kit's broken test server (8200),
// and no server at all (8731). A shell block's command passes; a console
// example prints what the guide shows ("..." elides lines), its error
// line as main prints it. Only the vendor gateway's, which no test can
// reach, is left to TestGuideCommands' parse check.
func TestConformanceGuideCommands(t *testing.T) {
	data, err := os.ReadFile("../../" + conformanceGuide)
	if err != nil {
		t.Fatal(err)
	}
	session, _ := startRouterSession(t)
	servers := map[string]string{
		"http://127.0.0.1:8100":  startRuntime(t),
		"http://127.0.0.1:18080": session.URL("public"),
		"http://127.0.0.1:8200":  testkit.NewConformanceServer(t, testkit.ConformanceFaults{NoulOutOfRange: true, DropProbability: true, AcceptUnknown: true}).URL,
		"http://127.0.0.1:8731":  closedPort(t),
	}
	doc := docsite.Scan(data)
	shown := map[int][]string{} // a console example's output by its line
	examples, errs := docsite.ConsoleExamples(conformanceGuide, doc)
	cmds, errs2 := docsite.Commands(conformanceGuide, doc)
	if len(errs)+len(errs2) > 0 {
		t.Fatal(errs, errs2)
	}
	for _, ex := range examples {
		shown[ex.Line] = ex.Output
	}
	ran := map[string]bool{}
	for _, c := range cmds {
		prog, args, _ := docsite.Program(c.Args)
		if prog != "vllm-sr" || len(args) == 0 || args[0] != "conformance" {
			continue
		}
		guideURL := ""
		for i, a := range args {
			if a == "--url" && i+1 < len(args) {
				guideURL = args[i+1]
			}
		}
		server, ok := servers[guideURL]
		if !ok {
			continue // the vendor gateway
		}
		ran[guideURL] = true
		run := strings.Split(strings.ReplaceAll(strings.Join(args, "\x00"), guideURL, server), "\x00")
		if !strings.Contains(strings.Join(run, " "), "--timeout") {
			run = append(run, "--timeout", "10s")
		}
		stdout, _, err := runConformance(t, run[1:]...)
		printed := strings.ReplaceAll(stdout, server, guideURL)
		if err != nil {
			printed += "vllm-sr: " + strings.ReplaceAll(err.Error(), server, guideURL) + "\n"
		}
		want, example := shown[c.Line]
		switch {
		case example && !testkit.MatchElided(strings.Join(want, "\n"), strings.TrimSuffix(printed, "\n")):
			t.Errorf("%s printed\n%s\nthe guide shows\n%s", c, printed, strings.Join(want, "\n"))
		case !example && err != nil:
			t.Errorf("%s: %v\n%s", c, err, stdout)
		}
	}
	if len(ran) != len(servers) {
		t.Errorf("ran the guide's commands for %v; its set-ups are %v", ran, servers)
	}
}
