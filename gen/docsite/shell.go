package docsite

import (
	"fmt"
	"strings"
)

// Command is one simple command of a guide's shell block: its words, as
// sh would pass them, and where it is.
type Command struct {
	File string
	Line int
	Args []string
}

func (c Command) String() string {
	return fmt.Sprintf("%s:%d: %s", c.File, c.Line, strings.Join(c.Args, " "))
}

// shellLangs are the block languages whose commands are checked. In a
// console block only the lines after a "$ " prompt are commands, the rest
// is output; in the others every line is.
var shellLangs = map[string]bool{"sh": true, "bash": true, "shell": true, "console": true}

// Commands returns the commands of every sh, bash, shell and console block
// of a Markdown file. A block whose quotes never close, or a prompt in a
// block that is not console (its commands would be read as "$"), is an
// error: the check must not pass a command it could not read.
func Commands(file string, d Doc) ([]Command, []error) {
	var cmds []Command
	var errs []error
	for _, b := range d.Blocks {
		if !shellLangs[b.Lang] {
			continue
		}
		for _, src := range sources(b) {
			words, incomplete := splitShell(src.text)
			if incomplete {
				errs = append(errs, fmt.Errorf("%s:%d: unclosed quote or trailing backslash", file, src.line))
			}
			for _, w := range words {
				line := src.line + w.line
				if w.args[0] == "$" && b.Lang != "console" {
					errs = append(errs, fmt.Errorf("%s:%d: a \"$ \" prompt in a ```%s block; use ```console", file, line, b.Lang))
				}
				cmds = append(cmds, Command{File: file, Line: line, Args: w.args})
			}
		}
	}
	return cmds, errs
}

type source struct {
	text string
	line int
	// last is the index in the block of the source's last line.
	last int
}

// sources splits a block into the shell text each command starts in: the
// whole block, or in a console block each prompt line plus the lines it
// continues on (an open quote or a trailing backslash).
func sources(b Block) []source {
	lines := strings.Split(strings.TrimSuffix(b.Text, "\n"), "\n")
	if b.Lang != "console" {
		return []source{{b.Text, b.Line, len(lines) - 1}}
	}
	var out []source
	for i := 0; i < len(lines); i++ {
		cmd, ok := strings.CutPrefix(lines[i], "$ ")
		if !ok {
			continue
		}
		src := source{cmd, b.Line + i, i}
		for _, incomplete := splitShell(src.text); incomplete && i+1 < len(lines); _, incomplete = splitShell(src.text) {
			i++
			src.text += "\n" + lines[i]
		}
		src.last = i
		out = append(out, src)
	}
	return out
}

// Example is one prompt of a console block with what it printed: the
// lines after the command (and the lines it continues on) up to the next
// prompt or the block's end.
type Example struct {
	Command
	Output []string
	// Pipeline is true when the prompt runs more than this one command
	// (a pipe or a list): Output is the last one's.
	Pipeline bool
	// Then are the words of the prompt's other commands, in order.
	Then [][]string
}

// ConsoleExamples returns the first command of every prompt of a Markdown
// file's console blocks, with the lines it printed. A block the checks
// could not read is an error, as for Commands.
func ConsoleExamples(file string, d Doc) ([]Example, []error) {
	var out []Example
	var errs []error
	for _, b := range d.Blocks {
		if b.Lang != "console" {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(b.Text, "\n"), "\n")
		srcs := sources(b)
		for k, src := range srcs {
			words, incomplete := splitShell(src.text)
			if incomplete || len(words) == 0 {
				errs = append(errs, fmt.Errorf("%s:%d: a prompt with no complete command", file, src.line))
				continue
			}
			end := len(lines)
			if k+1 < len(srcs) {
				end = srcs[k+1].line - b.Line
			}
			ex := Example{
				Command:  Command{File: file, Line: src.line + words[0].line, Args: words[0].args},
				Output:   lines[src.last+1 : end],
				Pipeline: len(words) > 1,
			}
			for _, w := range words[1:] {
				ex.Then = append(ex.Then, w.args)
			}
			out = append(out, ex)
		}
	}
	return out, errs
}

// splitShell splits shell text into simple commands of words, as sh
// would: quotes are removed ('...' literally, "..." with \" \\ \$ \`
// escapes), backslash-newline joins lines, # at a word's start begins a
// comment, and a newline, ;, &, &&, | or || ends a command. A redirection
// (<, >, >>, 2>, >&, ...) is dropped with its target word, and leading
// NAME=value assignments are dropped. Each command says the line of s
// (from 0) its first word is on. incomplete is true when the text ends
// inside quotes or after a backslash.
func splitShell(s string) (cmds []shellCommand, incomplete bool) {
	l := shellLexer{src: s}
	for i := 0; i < len(s); i++ {
		c := s[i]
		l.pos = i
		switch {
		case c == '\\':
			if i+1 == len(s) {
				return l.done(), true
			}
			i++
			if s[i] != '\n' {
				l.add(s[i : i+1])
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return l.done(), true
			}
			l.add(s[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			n, ok := l.doubleQuoted(s[i+1:])
			if !ok {
				return l.done(), true
			}
			i += n // at the closing quote
		case c == '#' && !l.inWord:
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
		case c == '\n' || c == ';' || c == '&' || c == '|':
			l.endCommand()
		case c == '<' || c == '>':
			l.redirect()
			for i+1 < len(s) && strings.IndexByte("<>&", s[i+1]) >= 0 {
				i++
			}
		case c == ' ' || c == '\t':
			l.endWord()
		default:
			l.add(s[i : i+1])
		}
	}
	return l.done(), false
}

// shellCommand is one simple command's words and the line it starts on.
type shellCommand struct {
	args []string
	line int
}

type shellLexer struct {
	src  string
	cmds []shellCommand
	cur  shellCommand
	word strings.Builder
	// pos is where the lexer is in src; wordStart where the word began.
	pos, wordStart int
	inWord         bool
	// dropNext: the next word is a redirection's target.
	dropNext bool
}

func (l *shellLexer) add(s string) { l.startWord(); l.word.WriteString(s) }

func (l *shellLexer) startWord() {
	if !l.inWord {
		l.wordStart = l.pos
		l.inWord = true
	}
}

// doubleQuoted reads a "..." string's content from s (after the opening
// quote) and returns the closing quote's offset from the opening one.
func (l *shellLexer) doubleQuoted(s string) (int, bool) {
	l.startWord()
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			return i + 1, true
		case s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0:
			if s[i+1] != '\n' {
				l.word.WriteByte(s[i+1])
			}
			i++
		default:
			l.word.WriteByte(s[i])
		}
	}
	return len(s), false
}

func (l *shellLexer) endWord() {
	if !l.inWord {
		return
	}
	w := l.word.String()
	l.word.Reset()
	l.inWord = false
	switch {
	case l.dropNext:
		l.dropNext = false
	case len(l.cur.args) == 0 && isAssignment(w):
	case len(l.cur.args) == 0:
		l.cur = shellCommand{args: []string{w}, line: strings.Count(l.src[:l.wordStart], "\n")}
	default:
		l.cur.args = append(l.cur.args, w)
	}
}

// redirect starts a redirection: a file descriptor number just before it
// belongs to it, and the word after it is its target.
func (l *shellLexer) redirect() {
	if l.inWord && strings.Trim(l.word.String(), "0123456789") == "" {
		l.word.Reset()
		l.inWord = false
	}
	l.endWord()
	l.dropNext = true
}

func (l *shellLexer) endCommand() {
	l.endWord()
	l.dropNext = false
	if len(l.cur.args) > 0 {
		l.cmds = append(l.cmds, l.cur)
	}
	l.cur = shellCommand{}
}

func (l *shellLexer) done() []shellCommand { l.endCommand(); return l.cmds }

// isAssignment reports whether w is NAME=value.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
