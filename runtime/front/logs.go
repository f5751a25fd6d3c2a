package front

import (
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
)

// The log formats and levels `serve` takes (--log-format, --log-level).
var (
	LogFormats = []string{"json", "text"}                   //vocab:not-spec log formats
	LogLevels  = []string{"debug", "info", "warn", "error"} //vocab:not-spec log levels
)

// NewLogger returns the structured logger of a server writing to out in
// format (json or text) at level and above (debug, info, warn, error),
// through a LogWriter the caller closes when the server has stopped. An
// unknown format or level is a one-line error listing the supported ones.
func NewLogger(out io.Writer, format, level string) (*slog.Logger, *LogWriter, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil || !slices.Contains(LogLevels, strings.ToLower(level)) {
		return nil, nil, fmt.Errorf("unknown --log-level %q; supported: %s", level, strings.Join(LogLevels, ", "))
	}
	w := NewLogWriter(out)
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), w, nil
	case "text": //vocab:not-spec a log format
		return slog.New(slog.NewTextHandler(w, opts)), w, nil
	}
	_ = w.Close()
	return nil, nil, fmt.Errorf("unknown --log-format %q; supported: %s", format, strings.Join(LogFormats, ", "))
}

// Buffering bounds of a LogWriter.
const (
	// logFlushEvery is how long a line waits at most before it is written.
	logFlushEvery = 100 * time.Millisecond
	// logFlushAt is the buffered size that wakes the flusher early.
	logFlushAt = 64 << 10
	// logBlockAt is the buffered size past which Write writes itself: when
	// the output cannot keep up, logging slows the server rather than
	// growing without bound or dropping lines.
	logBlockAt = 4 << 20
)

// LogWriter buffers log lines in memory and writes them to its output
// from one goroutine, at most logFlushEvery after they were logged: a
// request's log line costs a copy, not a write system call on the request
// path. Lines keep their order. Close writes what is buffered and stops
// the goroutine; later writes go straight to the output.
type LogWriter struct {
	// mu guards buf and closed; outMu serialises writes to out and is
	// always taken under mu, then mu is released, so lines reach out in
	// the order they were buffered.
	mu     sync.Mutex
	outMu  sync.Mutex
	buf    []byte
	spare  []byte
	closed bool
	out    io.Writer
	kick   chan struct{}
	done   chan struct{}
}

// NewLogWriter starts a LogWriter in front of out.
func NewLogWriter(out io.Writer) *LogWriter {
	w := &LogWriter{out: out, kick: make(chan struct{}, 1), done: make(chan struct{})}
	go w.loop()
	return w
}

// Write buffers p (one log line, as slog handlers write them).
func (w *LogWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if w.closed || len(w.buf)+len(p) > logBlockAt {
		w.buf = append(w.buf, p...)
		return len(p), w.flushLocked()
	}
	w.buf = append(w.buf, p...)
	full := len(w.buf) >= logFlushAt
	w.mu.Unlock()
	if full {
		select {
		case w.kick <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

// flushLocked writes the buffer; it is called with mu held and releases
// it.
func (w *LogWriter) flushLocked() error {
	if len(w.buf) == 0 {
		w.mu.Unlock()
		return nil
	}
	out := w.buf
	w.buf, w.spare = w.spare[:0], nil
	w.outMu.Lock()
	w.mu.Unlock()
	_, err := w.out.Write(out)
	w.outMu.Unlock()
	w.mu.Lock()
	if w.spare == nil && cap(out) <= logFlushAt*2 {
		w.spare = out[:0]
	}
	w.mu.Unlock()
	return err
}

func (w *LogWriter) loop() {
	t := time.NewTicker(logFlushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-w.kick:
		case <-w.done:
			return
		}
		w.mu.Lock()
		_ = w.flushLocked()
	}
}

// Flush writes what is buffered now.
func (w *LogWriter) Flush() error {
	w.mu.Lock()
	return w.flushLocked()
}

// Close writes what is buffered and stops the writing goroutine.
func (w *LogWriter) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	close(w.done)
	return w.flushLocked()
}
