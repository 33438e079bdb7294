package parser

import (
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// The tests of this file are the shapes of issue 24: replies from the
// second ring of mail programs (SOGo, Claws Mail, Horde, Outlook in
// other languages, phones), and the decorations people and their
// software put around a command. The corpus holds a whole mail of each
// (testdata/corpus/*-ring2-*.eml, see docs/client-replies.md).

// ownCopy is a copy of one of pbem's game mails as Outlook puts it below
// "-----Original Message-----", unquoted: marker, headline, table,
// options, and the footer, whose last line ends pbem's mail.
const ownCopy = `--- pbem: write your commands above this line ---

Felix #12: your turn to bid (round 2)

Felix: The Cat in the Sack, game #12, mail for alice

What you can do now
-------------------
Raise your stake to N mice:
    bid 5
    bid 6
Leave the auction:
    pass

Reply with one of these commands on the first line of your mail.

-- 
You can send these at any time, as a reply to a mail of this game:
  help      all commands
  status    the table as it is now
  history   everything that happened so far
  notify digest             one mail a day at most (help: other choices)
  timezone Europe/Berlin    the zone your deadlines are shown in`

func TestOwnTextSecondRing(t *testing.T) {
	opts := cutOptions{
		markers: []string{"pbem game g42", "Felix #"},
		service: serviceRegexp("game@pbem.example"),
		sender:  senderNames("Alice Example", "alice@x.test"),
		signer:  signerNames("Alice Example"),
	}
	tests := []struct {
		name, body, want string
	}{
		// 2. Attributions in the forms that are not "On ... wrote:".
		{"claws: date and wrote split", "On Sun, 22 Nov 2026 21:06:13 +0000\npbem <game+g42@pbem.example> wrote:\n\n> Your turn\n> bid 5..12\n\nbid 7", "bid 7"},
		{"claws: split, other sender", "On Sun, 22 Nov 2026 21:06:13 +0000\nBob <bob@y.test> wrote:\n\n> Your turn\n\nbid 7", "bid 7"},
		{"claws: command above", "bid 7\n\nOn Sun, 22 Nov 2026 21:06:13 +0000\npbem <game+g42@pbem.example> wrote:\n\n> Your turn", "bid 7"},
		{"horde: quoting", "Quoting pbem <game+g42@pbem.example>:\n\n> Your turn\n\npass", "pass"},
		{"horde: quoting a player", "Quoting Bob Builder <bob@y.test>:\n\n> I pass\n\npass", "pass"},
		{"horde: german", "Zitat von pbem <game@pbem.example>:\n\n> Dein Zug\n\npass", "pass"},
		{"schrieb alone", "Bob schrieb:\n> Dein Zug\n\nbid 7", "bid 7"},
		{"le a écrit below", "Le dim. 22 nov. 2026 à 21:06, Bob <bob@y.test> a écrit :\n> Ton tour\n\nbid 7", "bid 7"},
		{"el escribió below", "El dom, 22 nov 2026 a las 21:06, Bob (<bob@y.test>) escribió:\n> Tu turno\n\nbid 7", "bid 7"},
		{"op schreef below", "Op zo 22 nov. 2026 om 21:06 schreef Bob <bob@y.test>:\n> Jouw beurt\n\nbid 7", "bid 7"},
		{"japanese thunderbird", "bid 7\n\n2026/11/22 21:06 Bob さんは書きました:\n> あなたの番です", "bid 7"},
		{"japanese thunderbird below", "2026/11/22 21:06, Bob wrote:\n> x\n\nBob さんは書きました:\n> あなたの番です\n\nbid 7", "bid 7"},
		{"japanese apple mail", "bid 7\n\n2026/11/22 21:06、Bob <bob@y.test>のメール:\n\n> あなたの番です", "bid 7"},
		{"japanese message", "bid 7\n\nBob のメッセージ:\n> あなたの番です", "bid 7"},
		// An attribution with no quote below it still cuts.
		{"quoting without quote cuts", "pass\n\nQuoting Bob <bob@y.test>:\nYour turn, bid 5", "pass"},
		{"split attribution without quote cuts", "pass\n\nOn Sun, 22 Nov 2026 21:06:13 +0000\nBob <bob@y.test> wrote:\nYour turn\nbid 5", "pass"},
		// Outlook's header block in other languages.
		{"outlook french", "bid 7\n\nDe : pbem <game@pbem.example>\nEnvoyé : dimanche 22 novembre 2026 21:06\nÀ : alice@x.test\nObjet : Felix #12\n\nbid 5..12", "bid 7"},
		{"outlook spanish", "bid 7\n\nDe: pbem <game@pbem.example>\nEnviado el: domingo, 22 de noviembre de 2026 21:06\nPara: alice@x.test\nAsunto: Felix #12\n\nbid 5..12", "bid 7"},
		{"outlook dutch", "bid 7\n\nVan: pbem <game@pbem.example>\nVerzonden: zondag 22 november 2026 21:06\nAan: alice@x.test\nOnderwerp: Felix #12\n\nbid 5..12", "bid 7"},
		{"outlook german", "bid 7\n\nVon: pbem <game@pbem.example>\nGesendet: Sonntag, 22. November 2026 21:06\nAn: alice@x.test\nBetreff: Felix #12\n\nbid 5..12", "bid 7"},
		{"outlook japanese", "bid 7\n\n差出人: Bob <bob@y.test>\n送信日時: 2026年11月22日 21:06\n宛先: alice@x.test\n件名: Felix #12\n\nbid 5..12", "bid 7"},
		// 5. Labels and disclaimers.
		{"classification label above", "Classification: Internal\n\nbid 7", "bid 7"},
		{"sensitivity label below", "bid 7\n\nSensitivity: Confidential", "bid 7"},
		{"bracketed label", "[Internal]\nbid 7", "bid 7"},
		{"label line alone", "INTERNAL USE ONLY\n\nbid 7", "bid 7"},
		{"external banner", "CAUTION: This email originated from outside of the organization. Do not click links or open attachments unless you recognize the sender and know the content is safe.\n\nbid 7", "bid 7"},
		{"disclaimer cuts", "bid 7\n\nThis e-mail and any attachments are confidential and intended solely for the addressee.\nIf you are not the intended recipient, bid 9.", "bid 7"},
		{"confidentiality notice cuts", "bid 7\n\nCONFIDENTIALITY NOTICE: the information in this message is privileged.\npass", "bid 7"},
		{"german disclaimer cuts", "bid 7\n\nDiese E-Mail enthält vertrauliche und/oder rechtlich geschützte Informationen.\npass", "bid 7"},
		{"unknown label is kept", "Classification: bid 7", "Classification: bid 7"},
		{"wrapped banner", "CAUTION: This email originated from outside of the organization. Do not click links or open\nattachments unless you recognize the sender and know the content is safe.\nbid 7", "bid 7"},
		{"a player's warning is kept", "Warning: I am outside all week\nbid 7", "Warning: I am outside all week\nbid 7"},
		{"important is the player's", "Important: bid 7\npass", "Important: bid 7\npass"},
		{"quoting without an address is the player's", "Quoting the rules:\nbid 7", "Quoting the rules:\nbid 7"},
		{"label word in a sentence is kept", "bid 7\nthis is internal", "bid 7\nthis is internal"},
		// 7. A copy of pbem's mail ends with its footer: what follows is
		// the player's.
		{"outlook original below", "\n-----Original Message-----\nFrom: pbem <game+g42@pbem.example>\nSent: Sunday, November 22, 2026 9:06 PM\nTo: Alice Example <alice@x.test>\nSubject: Felix #12: your turn to bid (round 2)\n\n" + ownCopy + "\n\nbid 7\n\nAlice", "bid 7"},
		{"outlook header block below", "\nFrom: pbem <game+g42@pbem.example>\nSent: Sunday, November 22, 2026 9:06 PM\nTo: Alice Example <alice@x.test>\nSubject: Felix #12\n\n" + ownCopy + "\n\nbid 7", "bid 7"},
		{"outlook original above and below", "play rabbit\n\n-----Original Message-----\nFrom: pbem <game+g42@pbem.example>\nSent: Sunday\n\n" + ownCopy + "\n\nbid 7", "play rabbit\n\n\nbid 7"},
		{"copy without a header below", ownCopy + "\nbid 7", "bid 7"},
		{"notice footer ends the copy", "-----Original Message-----\nFrom: pbem <game@pbem.example>\nSent: Sunday\n\nYour mail could not be read.\n\n-- \npbem: send `help` for the commands, `games` for your games.\n\nhelp", "help"},
		{"copy with no footer still cuts", "pass\n\n-----Original Message-----\nFrom: pbem <game@pbem.example>\nSent: Sunday\n\nYou may: bid 5..12\nbid 7", "pass"},
		{"copy of the copy only", "\n-----Original Message-----\nFrom: pbem <game+g42@pbem.example>\nSent: Sunday\n\n" + ownCopy, ""},
		{"other mail after a copy still cuts", "-----Original Message-----\nFrom: pbem <game@pbem.example>\nSent: Sunday\n\n" + ownCopy + "\n-----Original Message-----\nFrom: Bob <bob@y.test>\nSent: Saturday\n\nbid 9", ""},
		{"a footer line of a quote is not the end", "bid 7\n\n-----Original Message-----\nFrom: Bob <bob@y.test>\nSent: Sunday\n\n> timezone Europe/Berlin    the zone your deadlines are shown in\npass", "bid 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ownText(tt.body, opts); got != tt.want {
				t.Errorf("ownText(%q)\n got %q\nwant %q", tt.body, got, tt.want)
			}
		})
	}
}

// TestHTMLReplyBelowQuote: web mail that writes an attribution line and
// then the quote in a <blockquote> (SOGo, Roundcube, Zimbra, Horde) with
// the player's text below it: the attribution and the quote go, the text
// below stays.
func TestHTMLReplyBelowQuote(t *testing.T) {
	tests := []struct {
		name, html, want string
	}{
		{"sogo", `<html><body>On Sunday, November 22, 2026 21:06 CET, "pbem" &lt;game+g42@pbem.example&gt; wrote:<br /><blockquote type="cite"><p>Your turn</p><p>bid 5..12</p></blockquote><br />bid 7<br /></body></html>`, "bid 7"},
		{"sogo, other sender", `<html><body>On Sunday, November 22, 2026 21:06 CET, "Bob" &lt;bob@y.test&gt; wrote:<br /><blockquote type="cite">I pass</blockquote><br />bid 7</body></html>`, "bid 7"},
		{"roundcube", `<html><body><p>Am 22.11.2026 21:06, schrieb pbem:</p><blockquote type="cite" style="padding: 0 0.4em; border-left: #1010ff 2px solid; margin: 0"><div>Dein Zug</div></blockquote><p>pass</p></body></html>`, "pass"},
		{"top and bottom", `<div>play rabbit</div><div>On Sun, pbem wrote:</div><blockquote>Your turn</blockquote><div>bid 7</div>`, "play rabbit\n\n\nbid 7"},
		{"quote without attribution", `<blockquote>Your turn</blockquote><div>bid 7</div>`, "bid 7"},
		{"attribution then nothing", `<div>pass</div><div>On Sun, pbem wrote:</div><blockquote>Your turn</blockquote>`, "pass"},
		{"attribution without blockquote cuts", `<div>pass</div><div>On Sun, pbem wrote:</div><div>Your turn</div><div>bid 5</div>`, "pass"},
	}
	opts := cutOptions{service: serviceRegexp("game@pbem.example"), markers: []string{"Felix #"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := htmlToText(tt.html, ExtractOptions{}.limits(), &work{})
			got := ownText(normalize(text), opts)
			if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(tt.want), " ") {
				t.Errorf("got %q, want %q; text:\n%s", got, tt.want, text)
			}
		})
	}
}

func TestReadDecorations(t *testing.T) {
	tests := []struct {
		name    string
		grammar Grammar
		text    string
		want    []string
		prob    string // substring of the problem; "" for none
	}{
		// 3. Emoji around a command.
		{"emoji after", felixLang(), "pass 👍", []string{"pass"}, ""},
		{"emoji with skin tone", felixLang(), "bid 6 👍🏽", []string{"bid 6"}, ""},
		{"emoji before", felixLang(), "🎲 play rabbit", []string{"play rabbit"}, ""},
		{"emoji stuck to the word", felixLang(), "pass👍", []string{"pass"}, ""},
		{"emoji and exclamation", felixLang(), "Bid 6! 🤞", []string{"bid 6"}, ""},
		{"emoji between commands", felixLang(), "play rabbit 🐇\nbid 4 🙏", []string{"play rabbit", "bid 4"}, ""},
		{"emoji alone is no command", felixLang(), "👍", nil, "no command"},
		{"heart and variation selector", felixLang(), "pass ❤️", []string{"pass"}, ""},
		// 4. List markers.
		{"numbered list", felixLang(), "1. play rabbit\n2. bid up to 7", []string{"play rabbit", "bid up to 7"}, ""},
		{"numbered with parenthesis", felixLang(), "1) play rabbit\n2) bid 4", []string{"play rabbit", "bid 4"}, ""},
		{"dash list", felixLang(), "- play rabbit\n- bid 4", []string{"play rabbit", "bid 4"}, ""},
		{"star list", felixLang(), "* play rabbit\n* bid 4", []string{"play rabbit", "bid 4"}, ""},
		{"bullet list", felixLang(), "• play rabbit\n• bid 4", []string{"play rabbit", "bid 4"}, ""},
		{"gracias list", graciasLang(), "1. take 2\n2. keep red give bob", []string{"take 2", "keep red give bob"}, ""},
		{"negative card is no marker", felixLang(), "play -8", []string{"play -8"}, ""},
		{"a number alone is not a marker", felixLang(), "4", nil, `did you mean "bid 4"`},
		// 6. Filler from a closed list around a command.
		{"this time", felixLang(), "I'll bid 7 this time.", []string{"bid 7"}, ""},
		{"please before", felixLang(), "Please pass", []string{"pass"}, ""},
		{"thanks after", felixLang(), "bid 7 thanks", []string{"bid 7"}, ""},
		{"thank you after", felixLang(), "pass, thank you", []string{"pass"}, ""},
		{"for now", felixLang(), "pass for now", []string{"pass"}, ""},
		{"ok before", felixLang(), "OK, bid 7", []string{"bid 7"}, ""},
		{"this round", graciasLang(), "take 2 this round please", []string{"take 2"}, ""},
		// Words that change a command's meaning are never dropped.
		{"not", felixLang(), "bid 7 not", nil, "is not part of the command"},
		{"don't", felixLang(), "don't pass", nil, "is not a command"},
		{"next time", felixLang(), "play rabbit next time", nil, "is not part of the command"},
		{"maybe", felixLang(), "bid 7 maybe", nil, "is not part of the command"},
		{"more", felixLang(), "bid 7 more", nil, "is not part of the command"},
		{"or", felixLang(), "bid 7 or 8", nil, ""},
		{"up to stays", felixLang(), "bid up to 7 this time", []string{"bid up to 7"}, ""},
		{"instead", felixLang(), "pass instead", nil, "is not part of the command"},
		{"later", felixLang(), "bid 7 later", nil, "is not part of the command"},
		{"never", felixLang(), "never pass", nil, ""},
		// A Japanese sign-off ends the commands like "Thanks!".
		{"japanese sign-off", felixLang(), "bid 7\n\nよろしくお願いします。\nボブ", []string{"bid 7"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, prob := Read(tt.text, tt.grammar)
			var got []string
			for _, c := range cmds {
				got = append(got, c.Text)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Read(%q) = %q, want %q (problem %v)", tt.text, got, tt.want, prob)
			}
			switch {
			case tt.want != nil && tt.prob == "" && prob != nil:
				t.Errorf("Read(%q): unexpected problem %v", tt.text, prob)
			case tt.want == nil && prob == nil:
				t.Errorf("Read(%q): no problem", tt.text)
			case tt.prob != "" && !strings.Contains(problemText(prob), tt.prob):
				t.Errorf("Read(%q): problem %q lacks %q", tt.text, problemText(prob), tt.prob)
			}
		})
	}
}

// TestAmbiguousNoneLegal: "play dog" when neither dog may be played now
// does not say the word could be either, as if both were possible: it
// says neither is, and suggests neither (issue 24). With one of them
// legal, that one is suggested.
func TestAmbiguousNoneLegal(t *testing.T) {
	grammar := func(cmds ...string) Grammar {
		l := felixLang()
		l.Legal = func() []engine.Option { return []engine.Option{{Spec: "play", Text: "play CARD", Commands: cmds}} }
		return l
	}
	_, prob := Read("play dog", grammar("play rabbit", "play 8"))
	if prob == nil || strings.Contains(prob.Told(), "could be") || prob.Told() != `neither "play large-dog" nor "play small-dog" is possible now` || len(prob.DidYouMean) != 0 {
		t.Errorf("neither legal: %+v", prob)
	}
	// What he may play is his hand: never in Error, which logs keep.
	if prob != nil && (strings.Contains(prob.Error(), "possible") || strings.Contains(prob.Error(), "neither")) {
		t.Errorf("Error tells what is legal now: %s", prob.Error())
	}
	if prob != nil && !strings.Contains(prob.Explain(), "is possible now") {
		t.Errorf("Explain does not tell the player:\n%s", prob.Explain())
	}
	_, prob = Read("play dog", grammar("play rabbit", "play small-dog"))
	if prob == nil || !slices.Equal(prob.DidYouMean, []string{"play small-dog"}) {
		t.Errorf("one legal: %+v", prob)
	}
	_, prob = Read("play dog", felixLang())
	if prob == nil || prob.NotNow != "" || !strings.Contains(prob.Told(), "could be large-dog or small-dog") {
		t.Errorf("no legality known: %+v", prob)
	}
}
