package parser

import (
	"strings"
	"testing"
)

// The tests of this file are the shapes of issue 36: attributions in
// languages no word list had, with the reply below the quote; invisible
// direction marks before a command; phone footers and sign-offs in
// other languages. Each is read as a player's mail is read: normalised,
// cut to his own text, then read in Felix's language, and must give its
// commands with no complaint.

// ring3Options are those of a mail of game g42 answered by Alice.
var ring3Options = cutOptions{
	markers: []string{"pbem game g42"},
	service: serviceRegexp("game@pbem.example"),
	name:    "pbem",
	sender:  senderNames("Alice Example", "alice@x.test"),
	signer:  signerNames("Alice Example"),
}

// pbemQuote is the quote of pbem's mail a reply carries.
const pbemQuote = "> Felix #12: your turn to bid (round 2)\n>\n> Raise your stake to N mice:\n>     bid 5\n"

// readAsMail reads a body as the daemon reads a mail's text part.
func readAsMail(body string, o cutOptions) ([]Command, *Problem) {
	return Read(ownText(normalize(body), o), felixLang())
}

func commandTexts(cmds []Command) string {
	var out []string
	for _, c := range cmds {
		out = append(out, c.Text)
	}
	return strings.Join(out, "; ")
}

// TestRing3Attributions: Thunderbird set to "start my reply below the
// quote" writes its localised attribution, the quote, then the reply.
// The attribution stayed as line 1, and "did not understand line 1"
// stopped the reading before the command.
func TestRing3Attributions(t *testing.T) {
	for _, attribution := range []string{
		"21.11.2026 17:00, pbem пишет:",          // Russian
		"W dniu 21.11.2026 o 17:00, pbem pisze:", // Polish
		"21.11.2026 17:00 tarihinde pbem yazdı:", // Turkish
		"كتب pbem:",                                                  // Arabic: the verb before the name
		"21.11.2026 17:00, pbem пише:",                               // Ukrainian
		"Στις 21/11/2026 17:00, ο/η pbem έγραψε:",                    // Greek
		"ב-21.11.2026 בשעה 17:00, pbem כתב:",                         // Hebrew
		"Vào 21/11/2026 lúc 17:00, pbem đã viết:",                    // Vietnamese
		"เมื่อ 21/11/2026 17:00 pbem เขียน:",                         // Thai
		"Dne 21. 11. 2026 v 17:00 pbem napsal(a):",                   // Czech
		"На 21.11.2026 в 17:00, pbem написа:",                        // Bulgarian
		"٢١/١١/٢٠٢٦ ١٧:٠٠، pbem:",                                    // Arabic-Indic digits, no verb
		"2026. 11. 21. 17:00 keltezéssel, pbem <game@pbem.example>:", // an address, no known verb
	} {
		for _, shape := range []struct{ name, body string }{
			{"below the quote", attribution + "\n" + pbemQuote + "\nbid 7\n"},
			{"below, blank line", attribution + "\n\n" + pbemQuote + "\nbid 7\n"},
			{"on top", "bid 7\n\n" + attribution + "\n" + pbemQuote},
		} {
			cmds, prob := readAsMail(shape.body, ring3Options)
			if commandTexts(cmds) != "bid 7" || prob != nil {
				t.Errorf("%s, %s: read %q, problem %v; want bid 7 and no problem", attribution, shape.name, commandTexts(cmds), prob)
			}
		}
	}
}

// TestRing3OwnColonLine: a line of the player's that merely ends in a
// colon is his, above a quote as anywhere.
func TestRing3OwnColonLine(t *testing.T) {
	for _, body := range []string{
		"My move:\n" + pbemQuote + "\nbid 7\n",
		"bid 7\nMy move:\n" + pbemQuote,
	} {
		if got := ownText(normalize(body), ring3Options); !strings.Contains(got, "My move:") {
			t.Errorf("ownText(%q) = %q: the player's own line is gone", body, got)
		}
	}
}

// TestRing3DirectionMarks: a plain part written from a right-to-left
// paragraph starts the line with U+200F; the command is read through it,
// and through every other invisible format character.
func TestRing3DirectionMarks(t *testing.T) {
	for _, mark := range []string{"\u200f", "\u200e", "\u061c", "\u202b", "\u202c", "\u2067", "\u2069", "\u2066", "\u2068", "\u202a", "\u202d", "\u202e", "\u2061", "\U000e0001"} {
		for _, body := range []string{mark + "bid 3", "bid" + mark + " 3", mark + "bid 3" + mark + "\n\n" + mark + "pass"} {
			cmds, prob := readAsMail(body, ring3Options)
			if len(cmds) == 0 || cmds[0].Text != "bid 3" || prob != nil {
				t.Errorf("%q: read %q, problem %v", body, commandTexts(cmds), prob)
			}
		}
	}
	// An Arabic number sign is seen: it is no invisible mark.
	if isInvisible('\u0600') || !isInvisible('\u200f') || !isInvisible('\u00ad') {
		t.Error("isInvisible: U+0600 is a sign a reader sees, U+200F and U+00AD are not")
	}
}

// TestRing3Footers: phones' "sent from" footers in other languages end
// the text quietly.
func TestRing3Footers(t *testing.T) {
	for _, footer := range []string{"发自我的iPhone", "iPhoneから送信", "Verstuurd vanaf mijn iPhone", "Scarica Outlook per Android"} {
		for _, body := range []string{"bid 7\n\n" + footer, "bid 7\n" + footer + "\n\n" + "21.11.2026 17:00, pbem пишет:\n" + pbemQuote} {
			cmds, prob := readAsMail(body, ring3Options)
			if commandTexts(cmds) != "bid 7" || prob != nil {
				t.Errorf("%q: read %q, problem %v; want bid 7 and no problem", body, commandTexts(cmds), prob)
			}
		}
	}
}

// TestRing3SignOffs: a sign-off with nothing but a name below it ends
// the commands without a complaint.
func TestRing3SignOffs(t *testing.T) {
	for _, signoff := range []string{"S pozdravem", "Pozdrawiam,", "С уважением,", "Saygılarımla"} {
		for _, body := range []string{"bid 7\n" + signoff, "bid 7\n\n" + signoff + "\nJan", "bid 7\n" + signoff + "\nJan Novák\n"} {
			cmds, prob := readAsMail(body, ring3Options)
			if commandTexts(cmds) != "bid 7" || prob != nil {
				t.Errorf("%q: read %q, problem %v; want bid 7 and no problem", body, commandTexts(cmds), prob)
			}
		}
	}
}

// TestRing3DeviceFooters: a phone's footer in a language no table has
// is known by the device it names, ends the commands quietly, and hides
// no command below it.
func TestRing3DeviceFooters(t *testing.T) {
	for _, footer := range []string{
		"Отправлено с iPhone", "Wysłane z iPhone'a", "iPhone'umdan gönderildi", "Odesláno z iPhonu", "Lähetetty iPhonesta",
		"iPhone에서 보냄", "Στάλθηκε από το iPhone μου", "Надіслано з iPhone", "Trimis de pe iPhone-ul meu", "Elküldve az iPhone-omról",
		"נשלח מה-iPhone שלי", "أُرسلت من الـ iPhone", "ส่งจาก iPhone ของฉัน", "Được gửi từ iPhone của tôi", "मेरे iPhone से भेजा गया",
		"Dikirim dari iPhone saya", "Samsung Galaxy cihazımdan gönderildi", "Получить Outlook для Android",
	} {
		for _, body := range []string{"bid 7\n\n" + footer, "bid 7\n" + footer, "bid 7\n" + footer + "\n\n21.11.2026 17:00, pbem:\n" + pbemQuote} {
			cmds, prob := readAsMail(body, ring3Options)
			if commandTexts(cmds) != "bid 7" || prob != nil {
				t.Errorf("%q: read %q, problem %v; want bid 7 and no problem", body, commandTexts(cmds), prob)
			}
		}
		cmds, prob := readAsMail("bid 7\n"+footer+"\npass", ring3Options)
		if commandTexts(cmds) != "bid 7; pass" || prob != nil {
			t.Errorf("a command right below %q: read %q, problem %v; want both", footer, commandTexts(cmds), prob)
		}
		cmds, prob = readAsMail("bid 7\n"+footer+"\nJan\npass", ring3Options)
		if commandTexts(cmds) != "bid 7" || prob == nil {
			t.Errorf("a command two lines below %q: read %q, problem %v; want bid 7 and a problem", footer, commandTexts(cmds), prob)
		}
	}
}
