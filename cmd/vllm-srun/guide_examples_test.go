package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/gen/docsite"
	"github.com/vllm-sr/systemone/runtime/srun"
)

// guidePort is the port the guides' examples send to: make run's.
const guidePort = "8100"

// startGuideRuntime serves vllm-sr/vela3-fast as make run does, on a free
// loopback port, and returns its root URL once its self-test passed.
func startGuideRuntime(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	run, err := srun.Start(ctx, srun.Config{Model: "vllm-sr/vela3-fast", Addr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	if err := run.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	return run.URL()
}

// example is one command of a guide's console block and the line it
// prints: the last line before the next prompt or the block's end.
type example struct {
	cmd    docsite.Command
	output string
}

// consoleExamples are the commands of a guide's console blocks whose
// program is prog, each with its printed line.
func consoleExamples(t *testing.T, file, prog string) []example {
	t.Helper()
	data, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	for _, b := range docsite.Scan(data).Blocks {
		if b.Lang != "console" {
			continue
		}
		cmds, errs := docsite.Commands(file, docsite.Doc{Blocks: []docsite.Block{b}})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		lines := strings.Split(strings.TrimSuffix(b.Text, "\n"), "\n")
		for i, c := range cmds {
			if c.Args[0] != prog {
				continue
			}
			end := len(lines)
			if i+1 < len(cmds) {
				end = cmds[i+1].Line - b.Line
			}
			out = append(out, example{cmd: c, output: lines[end-1]})
		}
	}
	return out
}

// curlCall is what a guide's curl command sends: -s, -H, -d and -X, and
// a URL on localhost:8100, whose host the test replaces with base's.
func curlCall(t *testing.T, base string, c docsite.Command) (int, string) {
	t.Helper()
	method, header, body, target := http.MethodGet, http.Header{}, "", ""
	for i := 1; i < len(c.Args); i++ {
		switch a := c.Args[i]; {
		case a == "-s":
		case (a == "-H" || a == "-d" || a == "-X") && i+1 < len(c.Args):
			i++
			switch a {
			case "-H":
				k, v, _ := strings.Cut(c.Args[i], ":")
				header.Set(k, strings.TrimSpace(v))
			case "-d":
				body, method = c.Args[i], http.MethodPost
			case "-X":
				method = c.Args[i]
			}
		case !strings.HasPrefix(a, "-") && target == "":
			target = a
		default:
			t.Fatalf("%s: the test reads no curl option %q", c, a)
		}
	}
	u, err := url.Parse("http://" + strings.TrimPrefix(target, "http://"))
	if err != nil || u.Port() != guidePort {
		t.Fatalf("%s: %q is not a URL on port %s", c, target, guidePort)
	}
	server, _ := url.Parse(base)
	u.Host = server.Host
	req, err := http.NewRequest(method, u.String(), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(bytes.TrimSuffix(answer, []byte("\n")))
}

// codeBlock is the guide's one block of language lang.
func codeBlock(t *testing.T, file, lang string) docsite.Block {
	t.Helper()
	data, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	var found []docsite.Block
	for _, b := range docsite.Scan(data).Blocks {
		if b.Lang == lang {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s has %d %s blocks, want 1", file, len(found), lang)
	}
	return found[0]
}

// sendTo is the block's text with the guide's server address replaced by
// base's; the address must be in it.
func sendTo(t *testing.T, text, guideURL, base string) string {
	t.Helper()
	if !strings.Contains(text, guideURL) {
		t.Fatalf("the example does not send to %s", guideURL)
	}
	return strings.ReplaceAll(text, guideURL, base)
}

// status is a line as the Python example prints it.
func statusLine(status int, answer string) string { return fmt.Sprintf("%d %s", status, answer) }
