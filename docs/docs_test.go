// Package docs holds no code: its test keeps the repository
// self-contained. A clone has nothing beside it, so no file may point at
// material outside the repository, every relative link in the Markdown
// documentation must lead to a file the repository holds, and the
// transcript examples in the documentation must replay.
package docs

import (
	"bytes"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

// root is the repository's top directory, seen from this package.
const root = ".."

// outside are the spellings of the pointers at material outside the
// repository (the rulings, the transcript format, the mail-stack notes
// and the original rule books that the project was started from), which
// docs/felix.md, docs/gracias.md, docs/transcripts.md and docs/mail.md now
// hold. They are put together here so that this file does not match
// itself.
var outside = []string{
	".." + "/shared",
	"shared" + "/seeds",
	"MAILSTACK" + "-NOTES",
	"RULES" + ".md",      // the rulings: docs/felix.md, docs/gracias.md
	"TRANSCRIPT" + ".md", // the format: docs/transcripts.md
}

// repoFiles lists the repository's files, slash-separated and relative to
// root: the files git tracks plus new ones it does not ignore, or, without
// git, every file of the tree outside .git.
func repoFiles(t *testing.T) []string {
	t.Helper()
	if _, err := exec.LookPath("git"); err == nil {
		cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
		cmd.Dir = root
		if out, err := cmd.Output(); err == nil {
			var files []string
			seen := map[string]bool{}
			for _, f := range strings.Split(string(out), "\x00") {
				if f != "" && !seen[f] {
					seen[f] = true
					files = append(files, f)
				}
			}
			if len(files) > 0 {
				sort.Strings(files)
				return files
			}
		}
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking the repository: %v", err)
	}
	sort.Strings(files)
	return files
}

// readText reads a repository file, or reports ok false for a file that is
// gone (deleted in the work tree but not yet in the index) or binary.
func readText(t *testing.T, f string) (string, bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
	if err != nil {
		if os.IsNotExist(err) {
			return "", false
		}
		t.Fatalf("%s: %v", f, err)
	}
	head := data
	if len(head) > 8000 {
		head = head[:8000]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "", false
	}
	return string(data), true
}

// TestNothingPointsOutside fails on any file that mentions material
// outside the repository.
func TestNothingPointsOutside(t *testing.T) {
	t.Parallel()
	files := repoFiles(t)
	if len(files) == 0 {
		t.Fatal("found no files in the repository")
	}
	// A file name that the repository itself holds one day is no longer
	// a pointer outside it.
	held := map[string]bool{}
	for _, f := range files {
		held[path.Base(f)] = true
	}
	var check []string
	for _, o := range outside {
		if !held[o] {
			check = append(check, o)
		}
	}
	for _, f := range files {
		text, ok := readText(t, f)
		if !ok {
			continue
		}
		for i, line := range strings.Split(text, "\n") {
			for _, o := range check {
				if strings.Contains(line, o) {
					t.Errorf("%s:%d points outside the repository (%q): %s", f, i+1, o, strings.TrimSpace(line))
				}
			}
		}
	}
}

// mdLink is an inline Markdown link or image: [text](target "title").
var mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

// codeSpan is inline code, where brackets are not links.
var codeSpan = regexp.MustCompile("`+[^`]*`+")

// links returns the targets of a Markdown text's inline links with their
// line numbers, leaving out fenced code blocks and code spans.
func links(text string) (targets []string, lines []int) {
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			targets = append(targets, m[1])
			lines = append(lines, i+1)
		}
	}
	return targets, lines
}

// anchors are the fragment names GitHub gives a Markdown file's headings:
// lower case, punctuation dropped, spaces made hyphens, and -1, -2 ...
// after repeats.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	count := map[string]int{}
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		if !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := count[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		count[slug]++
	}
	return out
}

// TestMarkdownLinks checks that every relative link in README.md and
// docs/*.md leads to a file (or folder) of the repository, and that a
// fragment names a heading of the Markdown file it points into.
func TestMarkdownLinks(t *testing.T) {
	t.Parallel()
	files := repoFiles(t)
	have := map[string]bool{}
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err != nil {
			continue // deleted in the work tree
		}
		have[f] = true
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			have[d] = true
		}
	}
	checked := 0
	for _, f := range files {
		if f != "README.md" && !(path.Dir(f) == "docs" && strings.HasSuffix(f, ".md")) {
			continue
		}
		text, ok := readText(t, f)
		if !ok {
			continue
		}
		checked++
		targets, lines := links(text)
		for i, target := range targets {
			where := f + ":" + strconv.Itoa(lines[i])
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			dest := f
			if file != "" {
				if strings.HasPrefix(file, "/") {
					t.Errorf("%s: link %q is absolute; write it relative to %s", where, target, f)
					continue
				}
				dest = path.Clean(path.Join(path.Dir(f), file))
				if dest == ".." || strings.HasPrefix(dest, "../") {
					t.Errorf("%s: link %q leaves the repository", where, target)
					continue
				}
				if !have[dest] {
					t.Errorf("%s: link %q points at %s, which the repository does not hold", where, target, dest)
					continue
				}
			}
			if frag == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			destText, ok := readText(t, dest)
			if !ok {
				continue
			}
			if !anchors(destText)[frag] {
				t.Errorf("%s: link %q: %s has no heading #%s", where, target, dest, frag)
			}
		}
	}
	if checked == 0 {
		t.Fatal("found neither README.md nor docs/*.md")
	}
}

// TestLinkParsing pins down what counts as a link, so that the checks
// above neither miss links nor invent them.
func TestLinkParsing(t *testing.T) {
	t.Parallel()
	text := "See [a](a.md), [b](../b.md#x \"title\") and ![c](img/c.png).\n" +
		"Code `[d](d.md)` is not a link.\n" +
		"```\n[e](e.md)\n```\n" +
		"[f](https://example.com/f) [g](#h)\n"
	got, _ := links(text)
	want := []string{"a.md", "../b.md#x", "img/c.png", "https://example.com/f", "#h"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("links = %q, want %q", got, want)
	}
	a := anchors("# Mail: running pbem\n## IMAP (incoming): `mailer.InboxConfig`\n## Poll and IDLE\n## Poll and IDLE\n```\n# not a heading\n```\n")
	for _, want := range []string{"mail-running-pbem", "imap-incoming-mailerinboxconfig", "poll-and-idle", "poll-and-idle-1"} {
		if !a[want] {
			t.Errorf("anchors lack %q: %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Errorf("a line in a code block counted as a heading")
	}
}

// TestTranscriptExamples replays every ```transcript block of the
// documentation, and checks its bots' lines, so that the examples stay
// true to the engine and the bots.
func TestTranscriptExamples(t *testing.T) {
	t.Parallel()
	found := 0
	for _, f := range repoFiles(t) {
		if f != "README.md" && !(path.Dir(f) == "docs" && strings.HasSuffix(f, ".md")) {
			continue
		}
		text, ok := readText(t, f)
		if !ok {
			continue
		}
		var block []string
		start, in := 0, false
		for i, line := range strings.Split(text, "\n") {
			trimmed := strings.TrimSpace(line)
			switch {
			case !in && trimmed == "```transcript":
				in, start, block = true, i+1, nil
			case in && strings.HasPrefix(trimmed, "```"):
				in = false
				found++
				where := f + ":" + strconv.Itoa(start)
				tr, err := transcript.Read(strings.NewReader(strings.Join(block, "\n")), games.Lookup)
				if err != nil {
					t.Errorf("%s: the example does not read: %v", where, err)
					continue
				}
				if _, _, err := tr.Replay(); err != nil {
					t.Errorf("%s: the example does not replay: %v", where, err)
				} else if err := tr.CheckBots(); err != nil {
					t.Errorf("%s: a bot line of the example is not the bot's move: %v", where, err)
				}
			case in:
				block = append(block, line)
			}
		}
	}
	if found == 0 {
		t.Error("no ```transcript example in README.md or docs/*.md")
	}
}

// readmeMaxLines bounds README.md: it is the front door (what pbem is,
// how to run it and its tests, a first game, and links), and the guides
// it links hold the rest (issue 34).
const readmeMaxLines = 200

// frontDoorLinks are the guides README.md must link directly, so that a
// newcomer finds each in one click.
var frontDoorLinks = []string{
	"docs/playing.md",
	"docs/configuration.md",
	"docs/mail-server.md",
	"docs/web.md",
	"docs/admin.md",
	"docs/operations.md",
	"docs/security.md",
	"docs/architecture.md",
	"docs/testing.md",
}

// TestReadmeFrontDoor keeps README.md short and one click from each
// guide; TestMarkdownLinks checks that those links lead to files.
func TestReadmeFrontDoor(t *testing.T) {
	t.Parallel()
	text, ok := readText(t, "README.md")
	if !ok {
		t.Fatal("README.md is missing")
	}
	if n := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1; n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail into docs/ and link it", n, readmeMaxLines)
	}
	targets, _ := links(text)
	linked := map[string]bool{}
	for _, target := range targets {
		file, _, _ := strings.Cut(target, "#")
		linked[path.Clean(file)] = true
	}
	for _, want := range frontDoorLinks {
		if !linked[want] {
			t.Errorf("README.md does not link %s", want)
		}
	}
}
