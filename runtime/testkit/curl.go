package testkit

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
)

// GuideCurl sends what a guide's curl command sends (its words after
// "curl": -s, -i, -H, -d and -X, and one URL) to base instead of the
// guide's host and port, which must be guideHost ("localhost:8100"), and
// returns the answer as curl -s prints it: the body without its final
// newline, after the status line and headers under -i. An option it
// does not read fails the test, so a guide's command is replayed as
// written or not at all.
func GuideCurl(t testing.TB, base, guideHost string, args []string) (status int, printed string) {
	t.Helper()
	method, header, body, target, withHead := http.MethodGet, http.Header{}, "", "", false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-s":
		case a == "-i":
			withHead = true
		case (a == "-H" || a == "-d" || a == "-X") && i+1 < len(args):
			i++
			switch a {
			case "-H":
				k, v, _ := strings.Cut(args[i], ":")
				header.Set(k, strings.TrimSpace(v))
			case "-d":
				body, method = args[i], http.MethodPost
				if header.Get(vocab.HeaderContentType) == "" {
					header.Set(vocab.HeaderContentType, "application/x-www-form-urlencoded") // as curl -d sends
				}
			case "-X":
				method = args[i]
			}
		case !strings.HasPrefix(a, "-") && target == "":
			target = a
		default:
			t.Fatalf("curl %s: the replay reads no option %q", strings.Join(args, " "), a)
		}
	}
	u, err := url.Parse("http://" + strings.TrimPrefix(target, "http://"))
	if err != nil || u.Host != guideHost {
		t.Fatalf("curl %s: %q is not a URL on %s", strings.Join(args, " "), target, guideHost)
	}
	server, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = server.Host
	req, err := http.NewRequest(method, u.String(), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("curl %s: %v", strings.Join(args, " "), err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("curl %s: reading the answer: %v", strings.Join(args, " "), err)
	}
	out := string(bytes.TrimSuffix(answer, []byte("\n")))
	if withHead {
		out = fmt.Sprintf("%s %s\n", resp.Proto, resp.Status) + out
	}
	return resp.StatusCode, out
}

// MatchElided reports whether got is what a guide shows as want, where
// want may elide parts of the answer with "...": the text around each
// "..." must appear in got in order, the first piece at its start and the
// last at its end.
func MatchElided(want, got string) bool {
	pieces := strings.Split(want, "...")
	if len(pieces) == 1 {
		return want == got
	}
	first, last := pieces[0], pieces[len(pieces)-1]
	if len(first)+len(last) > len(got) || !strings.HasPrefix(got, first) || !strings.HasSuffix(got, last) {
		return false
	}
	rest := got[len(first) : len(got)-len(last)]
	for _, p := range pieces[1 : len(pieces)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return true
}
