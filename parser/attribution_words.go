package parser

// The words of attributions, lower-case, in the forms the mail programs
// write (see isAttribution, and docs/client-replies.md for where each
// comes from).
var (
	// attributionEnds end the last field of an attribution in the
	// scripts that write no space before the verb: "pbem 写道:".
	attributionEnds = []string{"wrote", "writes", "écrit", "geschrieben", "escribió", "scritto", "escreveu", "kirjoitti", "írta", "写道", "寫道", "작성", "書きました", "書き込みました", "のメッセージ", "のメール"}
	// attributionStems take a short ending: "napisał(a):".
	attributionStems = []string{"napisał", "написал", "napsal"}
	// attributionLast are verbs as the last word before the colon:
	// "pbem пишет:".
	attributionLast = wordSet("пишет", "pisze", "yazdı")
	// attributionAnywhere are verbs that stand before the name, anywhere
	// before the colon: "schrieb Alice:", "كتب pbem:".
	attributionAnywhere = wordSet("schrieb", "schreef", "skrev", "كتب")
)

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
