package parser

import "strings"

// unflow undoes format=flowed (RFC 3676): a line ending in a space
// continues on the next line of the same quote depth. Thunderbird and
// Apple Mail send it; unwrapping matters because a long attribution line
// ("On ..., pbem <...> wrote:") is otherwise split in two. With delSp the
// space that marks a soft break was added by the sender and is removed.
func unflow(text string, delSp bool) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var out []string
	var cur strings.Builder
	curDepth := -1 // quote depth of the paragraph being joined; -1: none
	flush := func() {
		if curDepth >= 0 {
			out = append(out, quotePrefix(curDepth)+cur.String())
			cur.Reset()
			curDepth = -1
		}
	}
	for _, line := range lines {
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		content := line[depth:]
		// Space-stuffing: one leading space was added by the sender.
		content = strings.TrimPrefix(content, " ")
		if curDepth >= 0 && depth != curDepth {
			flush() // a soft break never crosses quote depths
		}
		sigSep := content == "-- "
		if strings.HasSuffix(content, " ") && !sigSep {
			if delSp {
				content = content[:len(content)-1]
			}
			curDepth = depth
			cur.WriteString(content)
			continue
		}
		if curDepth >= 0 && content == "" {
			// RFC 3676: an empty line ends the paragraph above it and
			// stays a line of its own; joining it would glue the text
			// above to what follows ("bid 3 " + "" + "On ... wrote:").
			flush()
		}
		if curDepth >= 0 {
			cur.WriteString(content)
			content = cur.String()
			cur.Reset()
			curDepth = -1
		}
		out = append(out, quotePrefix(depth)+content)
	}
	flush()
	return strings.Join(out, "\n")
}

func quotePrefix(depth int) string {
	if depth == 0 {
		return ""
	}
	return strings.Repeat(">", depth) + " "
}
