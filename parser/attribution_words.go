package parser

import "strings"

// The words of attributions, lower-case, as mail programs write them in
// their own translations: Thunderbird's, Evolution's, Claws Mail's,
// Geary's, mutt's and KMail's language files (Debian 12), K-9 Mail's, and
// the forms public reply parsers collected from Gmail, Apple Mail and
// Outlook. parser/testdata/l10n holds every form with its source
// (docs/l10n-sources.md), and TestAttributionTableEveryForm reads them
// all. See isAttribution for how each list is used.
var (
	// attributionEnds end the last field before the colon, in the
	// scripts that write no space before the verb ("pbem 写道:",
	// "pbemさんは書きました:"), and English's verb.
	attributionEnds = []string{
		"wrote", "writes", "écrit", "geschrieben", "geschreven", "escribió", "scritto", "escreveu", "kirjoitti", "írta",
		"写道", "寫道", "寫下", "寫到", "提到", "작성", "書きました", "書き込みました", "のメッセージ", "のメール", "より", "เขียน", "เขียนว่า",
	}
	// attributionStems take a short ending: "napisał(a):".
	attributionStems = []string{"napisał", "написал", "napsal", "napísal"}
	// attributionLast are verbs that end an attribution, as its last
	// word: "pbem írta:", "pbem ने लिखा:".
	attributionLast = wordSet(
		"लिखा", "글", "씀", "작성함", "작성하였습니다",
	)
	// attributionAnywhere are verbs that may stand before the name or
	// the date as well as last, so they are found anywhere before the
	// colon: "Am ... schrieb Alice:", "كتب pbem:", "pbem napsal(a) dne
	// ...:", "pbem 写于 ...:". English's "wrote" is not among them: an
	// English player's own "I wrote this down:" stays his.
	attributionAnywhere = wordSet(
		"كتب", "كَتَب", "كتبت", // ar
		"написа", "написахте", // bg, sr
		"escrit", "escriure", // ca
		"napsal", "napsala", "napsali", "píše", // cs
		"skrev", "skreiv", // da, nb, sv; nn
		"schrieb", "schrieben", // de
		"έγραψε", "γράψατε", // el
		"escribió", "escribio", // es
		"kirjoitti", "kirjoitit", // fi
		"écrit",         // fr
		"نوشت", "نوشته", // fa
		"כתב", "כתבה", "נכתב", // he
		"napisao", "napisala", "piše", "napisa", "napisaste", // hr, sr-Latn
		"írta",                                    // hu
		"menulis",                                 // id
		"scritto",                                 // it
		"쓴",                                       // ko
		"schreef",                                 // nl
		"napisał", "napisała", "pisze", "piszesz", // pl
		"escreveu",                                 // pt
		"scris",                                    // ro
		"написал", "написала", "написали", "пишет", // ru
		"napísal", "napísala", "napísali", // sk
		"пише", "написасте", // sr, uk
		"yazdı", "yazdınız", // tr
		"написав", "написано", // uk
		"viết",       // vi
		"写于",         // zh-CN
		"เขียนเมื่อ", // th
	)
)

// wordSet makes a set of words, normalised as the text they are looked
// for in is.
func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[strings.ToLower(normalize(w))] = true
	}
	return m
}
