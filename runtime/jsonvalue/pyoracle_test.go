package jsonvalue

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// pythonScript reads one hex-encoded document per line (hex keeps every
// byte, whitespace and newlines included) and writes "=" and
// json.dumps(json.loads(text), ensure_ascii=False) in UTF-8, or "!" and the
// exception's class. The int digit limit of Python 3.11+ is lifted: the
// encoder prints any integer exactly (see AppendPython).
const pythonScript = `
import json, sys
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    try:
        text = bytes.fromhex(line.strip().decode("ascii")).decode("utf-8")
        out.write(b"=" + json.dumps(json.loads(text), ensure_ascii=False).encode("utf-8") + b"\n")
    except Exception as e:
        out.write(b"!" + type(e).__name__.encode("ascii") + b"\n")
    out.flush()
`

// pythonOracle is one python3 process answering documents in turn.
type pythonOracle struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// startPythonOracle starts python3, or returns an error saying why not.
func startPythonOracle() (*pythonOracle, error) {
	path, err := exec.LookPath("python3")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, "-c", pythonScript)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &pythonOracle{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// Dumps returns Python's json.dumps(json.loads(doc), ensure_ascii=False),
// or an error naming the exception Python raised.
func (p *pythonOracle) Dumps(doc []byte) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := io.WriteString(p.in, hex.EncodeToString(doc)+"\n"); err != nil {
		return "", err
	}
	line, err := p.out.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimSuffix(line, "\n")
	if strings.HasPrefix(line, "!") {
		return "", fmt.Errorf("python raised %s", line[1:])
	}
	return strings.TrimPrefix(line, "="), nil
}

func (p *pythonOracle) Close() {
	p.in.Close()
	p.cmd.Wait()
}

var (
	sharedOracle     *pythonOracle
	sharedOracleErr  error
	sharedOracleOnce sync.Once
)

// oracle returns the process-wide python3 oracle (one process for the whole
// test binary; each fuzz worker process keeps its own for its whole run),
// skipping the test only if python3 is not installed.
func oracle(tb testing.TB) *pythonOracle {
	sharedOracleOnce.Do(func() {
		sharedOracle, sharedOracleErr = startPythonOracle()
	})
	if errors.Is(sharedOracleErr, exec.ErrNotFound) {
		tb.Skipf("python3 is not installed, so Python parity cannot be checked: %v", sharedOracleErr)
	}
	if sharedOracleErr != nil {
		tb.Fatalf("starting python3: %v", sharedOracleErr)
	}
	return sharedOracle
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedOracle != nil {
		sharedOracle.Close()
	}
	os.Exit(code)
}
