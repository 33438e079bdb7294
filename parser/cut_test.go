package parser

import (
	"strings"
	"testing"
)

func TestOwnText(t *testing.T) {
	t.Parallel()
	opts := cutOptions{
		markers: []string{"pbem game g42"},
		service: serviceRegexp("game@pbem.example"),
		sender:  senderNames("Alice Example", "alice@x.test"),
		signer:  signerNames("Alice Example"),
	}
	tests := []struct {
		name, body, want string
	}{
		{"plain", "bid 4", "bid 4"},
		{"quote skipped", "bid 4\n\n> pbem game g42\n> You may: bid 5..12", "bid 4"},
		{"top posting", "pass\n\nOn Sat, 21 Nov 2026 at 10:02, pbem <game+g42@pbem.example> wrote:\n\n> Your turn", "pass"},
		{"bottom posting", "On Sat, 21 Nov 2026 at 10:02, pbem <game+g42@pbem.example> wrote:\n> Your turn\n\nbid 6", "bid 6"},
		{"interleaved", "> Play a card\nplay 3\n> You hold ...", "play 3"},
		{"wrapped attribution", "pass\n\nOn Sat, 21 Nov 2026 at 10:02, pbem <game+g42@pbem.example>\nwrote:\n\n> Your turn", "pass"},
		{"attribution without quote cuts", "pass\n\nOn Sat, 21 Nov 2026, pbem wrote:\nYour turn, alice.\nbid 5..12", "pass"},
		{"french", "play 3\n\nLe sam. 21 nov. 2026 à 10:02, pbem <game@pbem.example> a écrit :\nVotre tour", "play 3"},
		{"german", "play 3\n\nAm Sa., 21. Nov. 2026 um 10:02 Uhr schrieb pbem <game@pbem.example>:\nDein Zug", "play 3"},
		{"spanish", "play 3\n\nEl sáb, 21 nov 2026 a las 10:02, pbem (<game@pbem.example>) escribió:\nTu turno", "play 3"},
		{"dutch", "play 3\n\nOp za 21 nov. 2026 om 10:02 schreef pbem <game@pbem.example>:\nJouw beurt", "play 3"},
		{"service address line", "bid 5\n\npbem <game+g42@pbem.example> on 21/11:\nYour turn", "bid 5"},
		{"original message", "pass\n\n-----Original Message-----\nFrom: pbem\nbid 9", "pass"},
		{"german original", "pass\n-----Ursprüngliche Nachricht-----\nVon: pbem", "pass"},
		{"forwarded gmail", "pass\n---------- Forwarded message ---------\nFrom: x", "pass"},
		{"forwarded apple", "pass\n\nBegin forwarded message:\n\nFrom: x", "pass"},
		{"outlook header block", "bid 7\n\nFrom: pbem <game@pbem.example>\nSent: Saturday\nTo: alice\nSubject: turn\n\nbid 5..12", "bid 7"},
		{"outlook bold header block", "bid 7\n*From:* pbem\n*Sent:* Saturday\n*To:* alice", "bid 7"},
		{"header block in other order", "bid 4\n*Gesendet:* Samstag\n*Von:* pbem", "bid 4"},
		{"underscore rule", "bid 7\n________________________________\nFrom: pbem", "bid 7"},
		{"signature", "play 8\n-- \nDave\nhttps://dave.example", "play 8"},
		{"signature without space", "play 8\n--\nDave", "play 8"},
		{"signature above the quote", "\n-- \nCarol\n\nOn Mon, 23 Nov 2026, pbem wrote:\n> Your turn\n\ntake 1", "take 1"},
		{"signature above the quote without header", "-- \nCarol\n> Your turn\nplay 8", "play 8"},
		{"signature first without quote cuts", "-- \nCarol\n\nplay 8", ""},
		{"qp signature", "play 8\n--=20\nDave", "play 8"},
		{"underscore signature", "pass\n__\nBob", "pass"},
		{"iphone", "Bid 11\n\nSent from my iPhone\n\n> On 21 Nov", "Bid 11"},
		{"german iphone", "pass\n\nVon meinem iPhone gesendet", "pass"},
		{"outlook mobile", "pass\n\nGet Outlook for Android", "pass"},
		{"own marker", "bid 10\n\n\npbem game g42 (Felix), round 3\nYou may: bid 5..12", "bid 10"},
		{"reply marker", "pass\n--- pbem: write your commands above this line ---\nYou may: pass", "pass"},
		{"sender name", "play 11\n\nAlice", "play 11"},
		{"sender first name with dash", "play 11\n-Alice", "play 11"},
		{"sender local part", "play 11\n\nalice", "play 11"},
		{"other name kept", "play 11\n\nBob", "play 11\n\nBob"},
		// Signatures with no "-- " line.
		{"signature block by name", "bid 6\n\nAlice\nAcme Sack Company", "bid 6"},
		{"signature block by full name", "bid 6\n\nAlice Example\nHead of Cats\n+44 20 7946 0000", "bid 6"},
		{"signature line with title", "bid 6\n\nAlice Example | Head of Cats\nAcme", "bid 6"},
		{"signature line with company", "bid 6\nAlice Example, Acme Sack Company", "bid 6"},
		{"name alone first is not a signature", "Alice\nbid 6", "Alice\nbid 6"},
		{"name inside a line is kept", "bid 6\nAlice Examples rule\npass", "bid 6\nAlice Examples rule\npass"},
		{"only a quote", "On Sat, pbem wrote:\n> Your turn", ""},
		{"command mentioning wrote is kept", "bid 4\nI wrote this myself", "bid 4\nI wrote this myself"},
		// mutt and neomutt put the cursor right above the attribution,
		// with no blank line: the lines above it are the player's.
		{"command right above attribution", "play rabbit\nOn Sun, Nov 22, 2026 at 09:06:06PM +0000, pbem wrote:\n> Your turn", "play rabbit"},
		{"sign-off right above attribution", "play rabbit\nThanks!\nOn Sun, Nov 22, 2026 at 09:06:06PM +0000, pbem wrote:\n> Your turn", "play rabbit\nThanks!"},
		{"greeting and command above attribution", "Hi,\nbid 6\nOn Sun, Nov 22, 2026 at 09:06:06PM +0000, pbem wrote:\n> Your turn", "Hi,\nbid 6"},
		{"three commands above attribution", "play rabbit\nbid 2\nbid 3\nOn Sun, Nov 22, 2026 at 09:06:06PM +0000, pbem wrote:\n> Your turn", "play rabbit\nbid 2\nbid 3"},
		{"command above attribution without quote", "bid 3\nOn Sun, Nov 22, 2026 at 09:06:06PM +0000, pbem wrote:\nYour turn", "bid 3"},
		{"command above name-only attribution", "pass\npbem wrote:\n> Your turn", "pass"},
		{"invitation above attribution", "new felix with bob@y.test, carol@z.test\nOn Sun, Nov 22, 2026 at 09:06:06PM +0000, pbem wrote:\n> Your turn", "new felix with bob@y.test, carol@z.test"},
		{"command above wrapped attribution", "bid 3\nOn Sat, 21 Nov 2026 at 10:02, pbem <game+g42@pbem.example>\nwrote:\n> Your turn", "bid 3"},
		{"command above gmail split address", "pass\nOn Sat, Nov 21, 2026 at 10:02 AM pbem via the game host for Felix <\ngame+g42@pbem.example> wrote:\n> Your turn", "pass"},
		{"command above three-line attribution", "pass\nOn Saturday, 21 November 2026 at 10:02:11 Central European Standard\nTime, Alexander Maximilian von Humboldt-Schmidt <alexander@example.com>\nwrote:\n> Your turn", "pass"},
		{"dated prose, command, attribution", "Back on 24.11.2026, so here is my move for the whole week:\nbid 3\nBob wrote:\n> Your turn", "Back on 24.11.2026, so here is my move for the whole week:\nbid 3"},
		{"dated command right above attribution", "bid 3, see you at 10:30 tonight when we meet at the club again\nOn Sun, Nov 22, 2026 at 09:06:06PM +0000, pbem wrote:\n> Your turn", "bid 3, see you at 10:30 tonight when we meet at the club again"},
		{"wrapped german attribution", "pass\nAm Sa., 21. Nov. 2026 um 10:02 Uhr schrieb pbem via the game host <\ngame+g42@pbem.example>:\n> Dein Zug", "pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ownText(tt.body, opts); got != tt.want {
				t.Errorf("ownText(%q)\n got %q\nwant %q", tt.body, got, tt.want)
			}
		})
	}
}

// TestSignatureNotByLocalPart: the address's local part may be any word,
// even a command's; only the display name starts a signature mid-text.
func TestSignatureNotByLocalPart(t *testing.T) {
	t.Parallel()
	opts := cutOptions{sender: senderNames("", "pass@x.test"), signer: signerNames("")}
	if got, want := ownText("bid 6\npass\nbid 7", opts), "bid 6\npass\nbid 7"; got != want {
		t.Errorf("ownText = %q, want %q", got, want)
	}
}

func TestUnflow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		delSp    bool
		want     string
	}{
		{"soft break", "I would like to bid 8 \nmice please", false, "I would like to bid 8 mice please"},
		{"delsp", "large-d \nog", true, "large-dog"},
		{"quoted soft break", "> a long \n> line\nbid 4", false, "> a long line\nbid 4"},
		{"depth change ends paragraph", "> quoted \nbid 4", false, "> quoted \nbid 4"},
		{"signature separator is not flowed", "pass\n-- \nBob", false, "pass\n-- \nBob"},
		{"space stuffing", " From here\n >not a quote", false, "From here\n>not a quote"},
		// RFC 3676: an empty line is a fixed line that ends the
		// paragraph; it is not joined to the flowed line above it.
		{"flowed line before empty line", "bid 3 \n\nOn Sun, Nov 22, 2026, pbem wrote:\n> x", false, "bid 3 \n\nOn Sun, Nov 22, 2026, pbem wrote:\n> x"},
		{"flowed line before empty line, delsp", "bid 3 \n\nOn Sun wrote:", true, "bid 3\n\nOn Sun wrote:"},
		{"quoted flowed line before empty quoted line", "> a \n>\n> b", false, "> a \n> \n> b"},
		{"flowed paragraph before empty line", "I bid \n3 \n\npass", false, "I bid 3 \n\npass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unflow(tt.in, tt.delSp); got != tt.want {
				t.Errorf("unflow(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"bid\u00a04", "bid 4"},
		{"pa\u200bss\ufeff", "pass"},
		{"I\u2019ll pass", "I'll pass"},
		{"\u201cpass\u201d", `"pass"`},
		{"play \u22128", "play -8"},
		{"play \u20138", "play -8"},
		{"bid \uff14", "bid 4"}, // full-width digit
		{"pass\r\nbid 4\r", "pass\nbid 4\n"},
		{"pass   \t", "pass"},
		{"-- ", "-- "},
		{"bid\u202f4", "bid 4"},
	}
	for _, tt := range tests {
		if got := normalize(tt.in); got != tt.want {
			t.Errorf("normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHTMLToText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, html string
		want       []string // lines that must be there
		not        []string // words that must not
	}{
		{"gmail", `<div dir="ltr">bid 4</div><br><div class="gmail_quote"><div class="gmail_attr">On Sat, pbem wrote:</div><blockquote class="gmail_quote">Your turn</blockquote></div>`,
			[]string{"bid 4"}, []string{"Your turn", "wrote"}},
		{"outlook web", `<div>Pass</div><div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>From:</b> pbem</div><div>Your turn</div>`,
			[]string{"Pass"}, []string{"From", "Your turn"}},
		{"thunderbird", `<p>play 3</p><div class="moz-cite-prefix">On 21/11, pbem wrote:</div><blockquote type="cite">Your turn</blockquote><div class="moz-signature">-- Dave</div>`,
			[]string{"play 3"}, []string{"wrote", "Your turn", "Dave"}},
		{"bold command", `<p><b>pass</b></p>`, []string{"*pass*"}, nil},
		{"nested quotes", strings.Repeat("<div>", 200) + "bid 4" + strings.Repeat("<blockquote>x", 100), []string{"bid 4"}, []string{"x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := htmlToText(tt.html, ExtractOptions{}.limits(), &work{})
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("htmlToText: %q lacks %q", got, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("htmlToText: %q has %q", got, n)
				}
			}
		})
	}
}

// TestOwnTextHostileLines: lines that each look like the start of a
// wrapped attribution, signature separators and names, many times over:
// cutting stays linear (each line looks at most three lines ahead, a
// separator at most maxSigLines), which workGrowth checks in work, not in
// the time a loaded machine takes.
func TestOwnTextHostileLines(t *testing.T) {
	block := "bid 4\n" + "On Sun, 22 Nov 2026 at 21:06, " + strings.Repeat("pbem ", 20) + "\n" +
		"On Sun, 22 Nov 2026 at 21:07, " + strings.Repeat("wrote ", 20) + "\n" +
		"Alice Example | " + strings.Repeat("x", 50) + "\n" + strings.Repeat("1999 ", 80) + "wrote:\n"
	opts := cutOptions{service: serviceRegexp("game@pbem.example"), sender: senderNames("Alice Example", "alice@x.test"), signer: signerNames("Alice Example")}
	small, large := strings.Repeat(block, 50), strings.Repeat(block, 800)
	cut := func(body string) func() { return func() { ownText(body, opts) } }
	g := workGrowth(t, cut(small), cut(large))
	t.Logf("growth %+v", g)
	if !g.linear() {
		t.Fatalf("ownText did %+v times the work on 800 blocks as on 50, want at most %d times the bytes and %d the CPU (linear)", g, linearAllocGrowth, linearCPUGrowth)
	}
	body := strings.Repeat(block, 20_000)
	got := ownText(body, opts)
	if !strings.HasPrefix(got, "bid 4\n") {
		t.Errorf("ownText lost the first command: %.80q", got)
	}
	smallSig, largeSig := strings.Repeat("-- \nCarol\n", 2500)+"> quote\nbid 4", strings.Repeat("-- \nCarol\n", 40_000)+"> quote\nbid 4"
	g = workGrowth(t, cut(smallSig), cut(largeSig))
	t.Logf("growth %+v", g)
	if !g.linear() {
		t.Fatalf("ownText did %+v times the work on 40000 signatures as on 2500, want at most %d times the bytes and %d the CPU (linear)", g, linearAllocGrowth, linearCPUGrowth)
	}
	sig := strings.Repeat("-- \nCarol\n", 50_000) + "> quote\nbid 4"
	if got := ownText(sig, opts); got != "" && got != "bid 4" {
		t.Errorf("signatures: got %.80q", got)
	}
}
