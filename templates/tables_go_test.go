package templates

import (
	"bytes"
	"io/fs"
	"regexp"
	"testing"
	"testing/fstest"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
)

// oldFelixTableHTML and oldFelixTableText are Felix's tables as
// templates, before they were Go (engine/felix's tableHTML and
// tableText): what a mail held then is what it must hold now.
const oldFelixTableHTML = `{{define "game.table"}}{{$v := .View}}{{with .View}}
<p style="margin:14px 0 6px;">{{felixT "Round %d of %d" (felixBold .Round) .Rounds}} · {{felixT "start player %s" (felixBold .Start)}} · {{felixT "bank %s" (mice .Bank)}}{{if .DummyLeft}} · {{felixT "dummy pile %d" .DummyLeft}}{{end}}
{{if $.Aborted}}{{else if eq .Phase "placing"}}<br>{{felixT "Everyone puts a card face down into the row."}}
{{else if eq .Phase "bidding"}}{{$who := felixT "%s to bid" (felixBold .Turn)}}{{if eq .Turn $.Reader}}{{$who = felixT "<b>your turn</b> to bid"}}{{end}}
{{- $high := felixT "no stake yet"}}{{if .HighStake}}{{$high = felixT "highest stake %d, held by %s" (felixBold .HighStake) (highHolders $.View)}}{{end -}}
<br>{{felixT "Auction: %s; %s." $who $high}}
{{else if eq .Phase "buying"}}<br>{{if eq .Turn $.Reader}}{{felixT "Nobody bid: <b>you</b> may buy the row for 1 mouse, or pass."}}{{else}}{{felixT "Nobody bid: %s may buy the row for 1 mouse, or pass." (felixBold .Turn)}}{{end}}
{{end}}</p>
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;">
<tr><th colspan="3" style="padding:0 0 2px;text-align:left;font-size:13px;">{{felixT "The row:"}}</th></tr>
{{range .Row}}<tr><td class="pb-muted" style="padding:1px 8px 1px 0;vertical-align:middle;color:#6b7075;">{{.Position}}.</td><td style="padding:1px 10px 1px 0;vertical-align:middle;">{{owner .Owner}}</td><td style="padding:1px 0;vertical-align:middle;">
{{- if not .Placed}}{{template "tile" (emptyTile (felixS "not placed yet"))}}
{{- else if and .FaceUp .Card}}{{template "tile" (sayTile (tile .Card))}}
{{- else if and .Card (eq .Owner $.Reader)}}{{template "tile" (faceDownTile (card .Card) (felixS "yours, face down") (tile .Card).Bg)}}
{{- else if .Card}}{{/* a view gives a face-down card only to its owner: show a wrong one, for the tests */}}{{template "tile" (faceDownTile (card .Card) (felixS "face down") "")}}
{{- else}}{{template "tile" (faceDownTile (felixS "face down") "" "")}}{{end -}}
</td></tr>
{{end}}</table>
<p style="margin:8px 0 0;font-size:14px;">{{felixT "Mouse cards: %s" (mouseCards .MouseCards)}}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 0;border-collapse:collapse;">
<tr><th colspan="2" style="padding:0 0 2px;text-align:left;font-size:13px;">{{felixT "Players:"}}</th></tr>
{{range .Players}}{{fragment "felix.player.fresh" (playerLine $.View . $.Reader)}}
{{end}}</table>
{{if not (anyWon $.View)}}<p class="pb-muted" style="margin:4px 0 0;font-size:13px;color:#6b7075;">{{felixT "Nobody has won a card yet."}}</p>{{end}}

{{if .You}}
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:12px 0 0;border-collapse:collapse;">
<tr><td style="padding:2px 10px 2px 0;vertical-align:middle;white-space:nowrap;">{{felixT "Hand:"}}</td><td style="padding:2px 0;">{{template "tiles" (sayTiles (tiles .Hand))}}</td></tr>
<tr><td style="padding:2px 10px 2px 0;vertical-align:middle;white-space:nowrap;">{{felixT "Money:"}}</td><td style="padding:2px 0;"><b>{{ownMoney $.View}}</b></td></tr>
{{if or (eq $.Kind "start") (eq $.Kind "status")}}{{with .SetAside}}<tr><td style="padding:2px 10px 2px 0;vertical-align:middle;">{{felixT "Set aside at the start:"}}</td><td style="padding:2px 0;">{{template "tile" (sayTile (tile .))}} {{felixT "(only you know it)"}}</td></tr>{{end}}{{end}}
</table>
{{with .CannotRaise}}<p style="margin:8px 0 0;">{{with felixParts "Only %s is left: a bid must be at least %d, and you own %s." felixSlot .Next (mice .Owned)}}{{index . 0}}{{code (felixCommand "pass")}}{{index . 1}}{{end}}</p>
{{end}}{{end}}
{{end}}{{end}}`

// oldFelixPlayerLine is a line of Felix's players' table as the
// fragment template it was, before it was Go (engine/felix's
// htmlPage.playerLine): oldFelixTableHTML renders it.
const oldFelixPlayerLine = `{{define "felix.player.fresh"}}<tr><td class="pb-line" style="padding:4px 8px 4px 0;border-top:1px solid #e3e6e9;vertical-align:top;white-space:nowrap;"><b>{{.Name}}</b>{{if .You}} {{felixT "(you)"}}{{end}}{{if .StartPlayer}}<br><span class="pb-muted" style="font-size:13px;color:#6b7075;">{{felixT "start"}}</span>{{end}}</td>
<td class="pb-line" style="padding:4px 0;border-top:1px solid #e3e6e9;vertical-align:top;">{{felixT "%d cards" .HandCount}}
{{- if .Placing}}, {{if .Placed}}{{felixT "placed"}}{{else}}{{felixT "not placed yet"}}{{end}}{{end}}
{{- if .Stake}}, {{felixT "stake %d" .Stake}}{{end}}
{{- if .Passed}}, {{felixT "passed"}}{{end}}
{{- if .ShowMoney}}, {{felixT "money %d" .Money}}{{end}}
{{- with .ToAct}}, <b>{{if eq . "buy"}}{{felixT "to buy or pass"}}{{else}}{{felixT "to bid"}}{{end}}</b>{{end}}
{{- with .Won}}<br>{{felixT "won"}} {{template "chips" (sayTiles (tiles (wonCards .)))}}({{felixT "cats %d" $.Cats}}){{end}}</td></tr>{{end}}`

// oldFelixWaiting is where the reader stands in Felix's HTML part, as
// the templates were before they were Go (engine/felix's waitingHTML).
const oldFelixWaiting = `{{define "game.waiting"}}{{with .View}}
{{- if youPassed $.View}}{{if lt .Round .Rounds}}{{felixT "You passed: you are out of this auction; the next one starts in round %d." (next .Round)}}{{else}}{{felixT "You passed: you are out of this auction; it is the game's last."}}{{end}}
{{- else if .Limit}}{{felixT "Not your turn yet. You let pbem bid for you in this auction up to a total stake of %d (only you know it). You may send these now:" (felixBold .Limit)}}{{template "felix.ahead" $}}
{{- else if .StandingPass}}{{felixT "Not your turn yet. pbem will pass for you when the auction comes to you (only you know it). You may send this now:"}}{{template "felix.ahead" $}}
{{- else if .Ahead}}{{felixT "Not your turn yet; you may send these now:"}}{{template "felix.ahead" $}}
{{- else if and (eq .Phase "placing") (youPlaced $.View)}}{{felixT "Your card is in the row; the auction starts when every card is in."}}
{{- else if $.ReaderWaits}}{{felixT "Nothing to send for now."}}
{{- else}}{{felixT "Not your turn yet."}}{{end}}
{{- end}}{{end}}

{{define "felix.ahead"}}
{{- with aheadLimit $.View}}{{$ex := .}}{{with felixParts "%s, e.g. %s" felixSlot felixSlot}}<br>{{index . 0}}{{code (felixCommand "bid up to N")}}{{index . 1}}{{option ($.Link (felixCommand (printf "bid up to %d" $ex)))}}{{index . 2}}{{end}}{{end}}
{{- if not $.View.StandingPass}}<br>{{option ($.Link (felixCommand "pass"))}}{{end}}
{{- end}}`

// oldFelixAim, oldGraciasAim and oldWaiting are the games' aims and
// the renderer's own game.waiting as the templates were before they
// were Go (engine/felix's and engine/gracias's aimHTML, and
// Words.waitingHTML).
const (
	oldFelixAim   = `{{define "game.aim"}}<p class="pb-muted" style="margin:14px 0 0;font-size:13px;color:#6b7075;">{{felixT "Aim: the most points at the end, your cats' values plus your mice."}}</p>{{end}}`
	oldGraciasAim = `{{define "game.aim"}}<p class="pb-muted" style="margin:14px 0 0;font-size:13px;color:#6b7075;">{{T "Aim: 1 point a stack of 5, 1 a face-up card not discarded; most wins."}}</p>{{end}}`
	oldWaiting    = `{{define "game.waiting"}}{{if .ReaderWaits}}{{T "Nothing to send for now."}}{{else}}{{T "Not your turn yet."}}{{end}}{{end}}`
)

// oldFelixHeadline, oldFelixAimText and oldFelixWaitingText are Felix's
// headline, aim and where the reader stands in the text part, as the
// templates were before they were Go (engine/felix's headlineText,
// aimText and waitingText).
const oldFelixHeadline = `{{define "game.headline"}}
{{- .Name}} #{{.GameID}}:
{{- if .Finished}} {{T "game over — %s" .WinnersText}}
{{- else}}{{with .View}}
{{- if eq $.Kind "start"}} {{T "new game,"}}{{end}}
{{- if $.YourTurn}}
{{- if eq .Phase "placing"}} {{T "your turn to place a card"}}
{{- else if eq .Phase "buying"}} {{T "your turn to buy the row or pass"}}
{{- else}} {{T "your turn to bid"}}{{end}}
{{- else}} {{T "waiting for %s" $.WaitingText}}{{end}} {{T "(round %d)" .Round}}
{{- end}}{{end}}
{{- end}}`

const oldFelixAimText = `{{define "game.aim"}}{{T "Aim: the most points at the end, your cats' values plus your mice."}}
{{end}}`

const oldFelixWaitingText = `{{define "game.waiting"}}{{with .View}}
{{- if youPassed $.View}}{{if lt .Round .Rounds}}{{T "You passed: you are out of this auction; the next one starts in round %d." (next .Round)}}{{else}}{{T "You passed: you are out of this auction; it is the game's last."}}{{end}}
{{- else if .Limit}}{{T "Not your turn yet. You let pbem bid for you in this auction up to a total stake of %d (only you know it). You may send these now:" .Limit}}
{{template "felix.ahead" $.View}}
{{- else if .StandingPass}}{{T "Not your turn yet. pbem will pass for you when the auction comes to you (only you know it). You may send this now:"}}
{{template "felix.ahead" $.View}}
{{- else if .Ahead}}{{T "Not your turn yet; you may send these now:"}}
{{template "felix.ahead" $.View}}
{{- else if and (eq .Phase "placing") (youPlaced $.View)}}{{T "Your card is in the row; the auction starts when every card is in."}}
{{- else if $.ReaderWaits}}{{T "Nothing to send for now."}}
{{- else}}{{T "Not your turn yet."}}{{end}}
{{- end}}{{end}}

{{define "felix.ahead"}}
{{- with aheadLimit .}}  {{T "%s, e.g. %s" (felixCommand "bid up to N") (felixCommand (printf "bid up to %d" .))}}
{{end}}
{{- if not .StandingPass}}  {{felixCommand "pass"}}{{end}}
{{- end}}`

// oldGraciasHeadline and oldGraciasAimText are Gracias' headline and
// aim in the text part, and oldWaitingText the renderer's own
// game.waiting there, as the templates were before they were Go
// (engine/gracias's headlineText and aimText, and Words.waitingText).
const (
	oldGraciasHeadline = `{{define "game.headline"}}
{{- .Name}} #{{.GameID}}:
{{- if .Finished}} {{T "game over — %s" .WinnersText}}
{{- else}}{{with .View}}
{{- if eq $.Kind "start"}} {{T "new game,"}}{{end}}
{{- if and ($.Told "score") (gt .Session 1)}} {{T "session %d scored," (before .Session)}}{{end}}
{{- if and $.YourTurn .Pending}} {{T "keep one card, give the other"}}
{{- else if $.YourTurn}} {{T "your turn (session %d, round %d)" .Session .Round}}
{{- else}} {{T "waiting for %s (session %d, round %d)" $.WaitingText .Session .Round}}{{end}}
{{- end}}{{end}}
{{- end}}`
	oldGraciasAimText = `{{define "game.aim"}}{{T "Aim: 1 point a stack of 5, 1 a face-up card not discarded; most wins."}}
{{end}}`
	oldWaitingText = `{{define "game.waiting"}}{{if .ReaderWaits}}{{T "Nothing to send for now."}}{{else}}{{T "Not your turn yet."}}{{end}}{{end}}`
)

const oldFelixTableText = `{{define "game.table"}}{{$v := .View}}{{with .View}}
{{T "Round %d of %d" .Round .Rounds}} · {{T "start player %s" .Start}} · {{T "bank %s" (mice .Bank)}}{{if .DummyLeft}} · {{T "dummy pile %d" .DummyLeft}}{{end}}
{{if $.Aborted}}{{else if eq .Phase "placing"}}{{T "Everyone puts a card face down into the row."}}
{{else if eq .Phase "bidding"}}{{$who := T "%s to bid" .Turn}}{{if eq .Turn $.Reader}}{{$who = T "your turn to bid"}}{{end}}
{{- $high := T "no stake yet"}}{{if .HighStake}}{{$high = T "highest stake %d, held by %s" .HighStake (highHolders $.View)}}{{end}}
{{- T "Auction: %s; %s." $who $high}}
{{else if eq .Phase "buying"}}{{if eq .Turn $.Reader}}{{T "Nobody bid: you may buy the row for 1 mouse, or pass."}}{{else}}{{T "Nobody bid: %s may buy the row for 1 mouse, or pass." .Turn}}{{end}}
{{end}}{{T "Row:"}} {{range $i, $c := .Row}}{{if $i}} · {{end}}{{owner $c.Owner}} {{rowCardShort $.Reader $c}}{{end}}
{{T "Mouse cards: %s" (mouseCards .MouseCards)}}
{{range .Players}}- {{.Name}}{{if eq .Name $.Reader}} {{T "(you)"}}{{end}}{{if .StartPlayer}}, {{T "start"}}{{end}}: {{T "%d cards" .HandCount}}
{{- if .Stake}}, {{T "stake %d" .Stake}}{{end}}
{{- if .Passed}}, {{T "passed"}}{{end}}
{{- if ne .Name $.Reader}}{{with .Money}}, {{T "money %d" (deref .)}}{{end}}{{end}}
{{- if and (eq .Name $v.Turn) (ne $v.Phase "placing")}}, {{if eq $v.Phase "buying"}}{{T "to buy or pass"}}{{else}}{{T "to bid"}}{{end}}{{end}}
{{- if .Won}}; {{T "won %s (cats %d)" (cards .Won) .Cats}}{{end}}
{{end}}
{{- if .You}}
{{T "Hand: %s" (cards .Hand)}}
{{T "Money: %s" (ownMoney $.View)}}
{{if or (eq $.Kind "start") (eq $.Kind "status")}}{{with .SetAside}}{{T "Set aside at the start: %s (only you know it)" (card .)}}
{{end}}{{end}}{{with .CannotRaise}}{{T "Only pass is left: a bid must be at least %d, and you own %s." .Next (mice .Owned)}}
{{end}}
{{- end}}
{{end}}{{end}}`

// oldGraciasTableHTML and oldGraciasTableText are Gracias' tables as
// templates, before they were Go (engine/gracias's present_table.go).
const oldGraciasTableHTML = `{{define "game.table"}}{{with .View}}
{{if .Pending}}{{if not ($.Told "peek")}}{{with .Pending}}{{$up := sayTiles (tiles .FaceUp)}}
<p class="pb-note" style="margin:14px 0 0;padding:6px 10px;background:#fff7d6;border:1px solid #e9d68a;border-radius:6px;">{{Th "You took triplet %d: %s face up." .Number (htmlJoin (fragment "tile.fresh" (index $up 0)) (fragment "tile.fresh" (index $up 1)))}}
<br>{{Th "Its face-down card is %s; it is now face down in your area." (fragment "tile.fresh" (sayTile (tile .FaceDown)))}}</p>
{{end}}{{end}}{{end}}
<p style="margin:14px 0 6px;">{{Th "Session %d of %d, round %d of %d" (bold .Session) .Sessions (bold .Round) .Rounds}} · {{if eq .Large .Small}}{{T "start cards: %s (both)" .Large}}{{else}}{{T "start cards: %s (large), %s (small)" .Large .Small}}{{end}}
{{if not $.Aborted}}{{with .Turn}}<br>{{Th "Now: %s" (bold (nowDoing $.View $.Reader))}} ({{laidOut $.View $.Reader}}).{{end}}{{end}}</p>

<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;">
<tr><th colspan="3" style="padding:0 0 2px;text-align:left;font-size:13px;">{{T "Triplets:"}}</th></tr>
{{range .Triplets}}<tr><td class="pb-muted" style="padding:1px 8px 1px 0;vertical-align:middle;color:#6b7075;">{{.Number}}.</td><td style="padding:1px 8px 1px 0;vertical-align:middle;white-space:nowrap;">{{template "tiles" (sayTiles (tiles .FaceUp))}}{{if not .Taken}}{{template "tile" (faceDownTile "?" "" "")}}{{end}}</td><td style="padding:1px 0;vertical-align:middle;">{{if .Taken}}{{T "taken by %s" .TakenBy}}{{end}}</td></tr>
{{end}}</table>

<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:10px 0 0;border-collapse:collapse;font-size:14px;">
{{fragment "gracias.areas.fresh" nil}}
{{range .Players}}{{fragment "gracias.area.fresh" (areaLine . $.Reader)}}
{{end}}</table>

{{if .History}}<p style="margin:8px 0 0;">{{T "Scores:"}} {{range $i, $p := .Players}}{{if $i}} · {{end}}{{$p.Name}} <b>{{$p.Total}}</b>{{end}}</p>{{end}}

{{if .You}}
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:12px 0 0;border-collapse:collapse;">
<tr><td style="padding:2px 10px 2px 0;vertical-align:middle;">{{T "Your face-down cards:"}}</td><td style="padding:2px 0;">{{if .FaceDown}}{{template "tiles" (sayTiles (tiles .FaceDown))}}{{else}}{{T "none yet"}}{{end}}</td></tr>
</table>
{{end}}
{{end}}{{end}}`

const oldGraciasTableText = `{{define "game.table"}}{{with .View}}
{{if .Pending}}{{if not ($.Told "peek")}}{{with .Pending}}{{T "You took triplet %d: %s face up." .Number (list (colourList .FaceUp))}}
{{T "Its face-down card is %s; it is now face down in your area." (colour .FaceDown)}}
{{end}}{{end}}{{end}}
{{T "Session %d of %d, round %d of %d" .Session .Sessions .Round .Rounds}} · {{if eq .Large .Small}}{{T "start cards: %s (both)" .Large}}{{else}}{{T "start cards: %s (large), %s (small)" .Large .Small}}{{end}}
{{if not $.Aborted}}{{with .Turn}}{{T "Now: %s" (nowDoing $.View $.Reader)}} ({{laidOut $.View $.Reader}}).{{end}}{{end}}
{{T "Triplets:"}}
{{range .Triplets}}  {{.Number}}. {{list (colourList .FaceUp)}}{{if .Taken}}, {{T "taken by %s" .TakenBy}}{{end}}
{{end}}{{T "Areas (face-up cards by colour; how many face down):"}}
{{range .Players}}- {{if eq .Name $.Reader}}{{T "%s (you)" .Name}}{{else}}{{.Name}}{{end}}: {{colours .FaceUp}}; {{T "%d down" .FaceDown}}
{{end}}{{if .History}}{{T "Scores:"}} {{range $i, $p := .Players}}{{if $i}} · {{end}}{{$p.Name}} {{$p.Total}}{{end}}
{{end}}
{{- if .You}}{{T "Your face-down cards:"}} {{if .FaceDown}}{{commas (colourList .FaceDown)}}{{else}}{{T "none yet"}}{{end}}
{{end}}
{{end}}{{end}}`

// oldFelix is Felix with its tables, the players' lines, its headline,
// its aim and where the reader stands as they were: templates.
type oldFelix struct{ templateGame }

func (o oldFelix) Templates() fs.FS {
	return oldTemplates(o.templateGame, "felix",
		map[string]string{"game.table": oldFelixTableHTML + oldFelixPlayerLine, "game.waiting": oldFelixWaiting, "game.aim": oldFelixAim},
		map[string]string{"game.table": oldFelixTableText, "game.headline": oldFelixHeadline, "game.aim": oldFelixAimText, "game.waiting": oldFelixWaitingText})
}

// oldGracias is Gracias with its tables, its headline and its aim as
// they were, and where the reader stands as the renderer's templates
// wrote it.
type oldGracias struct{ templateGame }

func (o oldGracias) Templates() fs.FS {
	return oldTemplates(o.templateGame, "gracias",
		map[string]string{"game.table": oldGraciasTableHTML, "game.aim": oldGraciasAim, "game.waiting": oldWaiting},
		map[string]string{"game.table": oldGraciasTableText, "game.headline": oldGraciasHeadline, "game.aim": oldGraciasAimText, "game.waiting": oldWaitingText})
}

// templateGame is a game as the renderer asks for it, but for its
// engine.HTMLParts and engine.TextParts: a game embedded as one has
// none, and the renderer executes its templates, as it did before its
// parts were Go.
type templateGame interface {
	engine.Rules
	engine.Presenter
	engine.Localizer
	engine.CommandTranslator
	engine.Addresser
	engine.Condenser
}

// asTemplateGame is the game name as a templateGame.
func asTemplateGame(name string) templateGame { return games.All()[name].(templateGame) }

// oldTemplates are the game's templates with parts as they were, in
// the HTML and the text part: each part html and text name, which the
// game's file now defines on one line (an action that calls the Go), is
// defined by the old text they give it instead; a part the file leaves
// to the renderer's own is added.
func oldTemplates(p engine.Presenter, game string, html, text map[string]string) fs.FS {
	files := fstest.MapFS{}
	for name, parts := range map[string]map[string]string{game + ".html.tmpl": html, game + ".text.tmpl": text, game + "-rules.tmpl": nil} {
		b, err := fs.ReadFile(p.Templates(), name)
		if err != nil {
			panic(err)
		}
		for part, old := range parts {
			definition := regexp.MustCompile(`\{\{define "` + regexp.QuoteMeta(part) + `"\}\}.*\n`)
			switch {
			case definition.Match(b):
				b = definition.ReplaceAllLiteral(b, []byte(old+"\n"))
			case bytes.Contains(b, []byte(`{{define "`+part+`"}}`)):
				panic(part + " in " + name + " is no one-line definition")
			default:
				b = append(b, "\n"+old+"\n"...)
			}
		}
		files[name] = &fstest.MapFile{Data: b}
	}
	return files
}

// TestFelixTablesAreTheTemplates renders every seat's mail after every
// move of every Felix transcript, in English and German, as a start,
// turn or status mail and in a game the host ended, once with Felix as
// it is and once with its parts as the templates they were (oldFelix):
// the same headline, text and HTML each time.
func TestFelixTablesAreTheTemplates(t *testing.T) {
	t.Parallel()
	compareTables(t, "felix", oldFelix{asTemplateGame("felix")}, "../engine/felix/testdata/*.txt")
}

// TestGraciasTablesAreTheTemplates is TestFelixTablesAreTheTemplates for
// Gracias, whose table also says, until the mail has told it, which
// triplet the reader took and its face-down card, and whose headline
// says when the mail tells a session's scores.
func TestGraciasTablesAreTheTemplates(t *testing.T) {
	t.Parallel()
	compareTables(t, "gracias", oldGracias{asTemplateGame("gracias")}, "../engine/gracias/testdata/*.txt", "../examples/gracias-3p.txt")
}

// compareTables renders the mails of every state of the game's
// transcripts with the renderer as it is and with old in the game's
// place, and fails on the first that differs.
func compareTables(t *testing.T, game string, old engine.Rules, patterns ...string) {
	if _, ok := old.(engine.HTMLParts); ok {
		t.Fatalf("the old %s writes its HTML parts in Go: nothing would compare the templates", game)
	}
	if _, ok := old.(engine.TextParts); ok {
		t.Fatalf("the old %s writes its text parts in Go: nothing would compare the templates", game)
	}
	now := newRenderer(t)
	all := games.All()
	all[game] = old
	then, err := New(all)
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	eachState(t, patterns, func(file string, m GameMail) {
		for _, lang := range []string{"", "de"} {
			for _, aborted := range []bool{false, true} {
				for _, told := range []bool{false, true} {
					kinds := []MailKind{m.Kind}
					if m.Kind == MailTurn {
						kinds = append(kinds, MailStatus)
					}
					for _, kind := range kinds {
						m := m
						m.Language, m.Aborted, m.Kind = lang, aborted, kind
						m.ReplyAddress, m.MessageID = "player+tok@pbem.example", "m1@pbem.example"
						if told {
							// What happened told the peek (and a round's laying out), and a
							// session's scores, which Gracias' headline says.
							m.Happened = []engine.Event{{To: engine.Public, Kind: "peek", Text: "you peeked"}, {To: engine.Public, Kind: "round", Text: "a round"},
								{To: engine.Public, Kind: "score", Text: "a session scored"}}
						}
						got, err := now.Game(m)
						if err != nil {
							t.Fatal(err)
						}
						want, err := then.Game(m)
						if err != nil {
							t.Fatal(err)
						}
						if got.Subject != want.Subject || got.Headline != want.Headline {
							t.Fatalf("%s, %s, %s mail, %q, aborted %v, told %v: the headline differs:\n got %q, %q\nwant %q, %q", file, m.Reader, kind, lang, aborted, told, got.Subject, got.Headline, want.Subject, want.Headline)
						}
						if got.Text != want.Text {
							t.Fatalf("%s, %s, %s mail, %q, aborted %v, told %v: the text differs:\n got %s\nwant %s", file, m.Reader, kind, lang, aborted, told, got.Text, want.Text)
						}
						if got.HTML != want.HTML {
							t.Fatalf("%s, %s, %s mail, %q, aborted %v, told %v: the HTML differs:\n got %s\nwant %s", file, m.Reader, kind, lang, aborted, told, got.HTML, want.HTML)
						}
						compared++
					}
				}
			}
		}
	})
	t.Logf("%d mails compared", compared)
}
