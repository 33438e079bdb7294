package felix

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// Felix's text part is Go (engine.TextParts), as its HTML part is: the
// renderer calls these for a mail, and felix.text.tmpl's game.headline,
// game.table, game.aim and game.waiting call the same Go for what
// renders them by name.

var _ engine.TextParts = Rules{}

// HeadlineText is the mail's first line (headlineText).
func (Rules) HeadlineText(say engine.Say, h engine.Headline) (string, error) {
	v, err := engine.ViewOf[View](h.PartData)
	if err != nil {
		return "", err
	}
	return headlineText(say, h, v), nil
}

// TableText is the table as the reader may see it (tableText): his card
// set aside at the start is shown in the first mail and the status.
func (Rules) TableText(say engine.Say, d engine.PartData) (string, error) {
	v, err := engine.ViewOf[View](d)
	if err != nil || v == nil {
		return "", err
	}
	return tableText(say, *v, d.Reader, d.Aborted, d.Kind == "start" || d.Kind == "status"), nil
}

// AimText is what the reader plays for (aimText).
func (Rules) AimText(say engine.Say, _ engine.PartData) string { return aimText(say) }

// WaitingText is where the reader stands (waitingText); nothing for a
// mail without a view of Felix's (its table says what is wrong).
func (Rules) WaitingText(say engine.Say, d engine.PartData) (string, bool) {
	v, err := engine.ViewOf[View](d)
	if err != nil || v == nil {
		return "", true
	}
	return waitingText(say, *v, d.ReaderWaits), true
}

// headlineText is the mail's first line (felix.text.tmpl's
// game.headline), which mail clients show as its preview: the game, and
// who won, or what the round asks of the reader or whom it waits for;
// only the game for a mail without a view.
func headlineText(say engine.Say, h engine.Headline, v *View) string {
	ref := h.Name + " #" + strconv.FormatInt(h.GameID, 10) + ":"
	switch {
	case h.Finished:
		return ref + " " + say("game over — %s", h.Winners)
	case v == nil:
		return ref
	}
	var b strings.Builder
	b.WriteString(ref)
	if h.Kind == "start" {
		b.WriteString(" " + say("new game,"))
	}
	switch {
	case !h.YourTurn:
		b.WriteString(" " + say("waiting for %s", h.Waiting))
	case v.Phase == "placing":
		b.WriteString(" " + say("your turn to place a card"))
	case v.Phase == "buying":
		b.WriteString(" " + say("your turn to buy the row or pass"))
	default:
		b.WriteString(" " + say("your turn to bid"))
	}
	b.WriteString(" " + say("(round %d)", v.Round))
	return b.String()
}

// aimText is one line on what the reader plays for (game.aim).
func aimText(say engine.Say) string {
	return say("Aim: the most points at the end, your cats' values plus your mice.") + "\n"
}

// waitingText is where the reader stands when the game asks no move of
// him (felix.text.tmpl's game.waiting), as waitingHTML says it in the
// HTML part: he passed, his standing order and what he may send ahead,
// his card is in the row, or he waits. readerWaits says that the game
// waits on him all the same.
func waitingText(say engine.Say, v View, readerWaits bool) string {
	switch {
	case youPassed(v) && v.Round < v.Rounds:
		return say("You passed: you are out of this auction; the next one starts in round %d.", v.Round+1)
	case youPassed(v):
		return say("You passed: you are out of this auction; it is the game's last.")
	case v.Limit != 0:
		return say("Not your turn yet. You let pbem bid for you in this auction up to a total stake of %d (only you know it). You may send these now:", v.Limit) +
			"\n" + aheadText(say, v)
	case v.StandingPass:
		return say("Not your turn yet. pbem will pass for you when the auction comes to you (only you know it). You may send this now:") +
			"\n" + aheadText(say, v)
	case v.Ahead:
		return say("Not your turn yet; you may send these now:") + "\n" + aheadText(say, v)
	case v.Phase == "placing" && youPlaced(v):
		return say("Your card is in the row; the auction starts when every card is in.")
	case readerWaits:
		return say("Nothing to send for now.")
	}
	return say("Not your turn yet.")
}

// aheadText is what the reader may send ahead of his turn, each on an
// indented line: a limit to bid up to, with an example, when he can
// outbid the highest stake; and pass, unless he has told pbem to pass
// already (the last line without its line break).
func aheadText(say engine.Say, v View) string {
	var b strings.Builder
	if ex := aheadLimit(v); ex != 0 {
		b.WriteString("  " + say("%s, e.g. %s", Rules{}.CommandIn("bid up to N", say), Rules{}.CommandIn(fmt.Sprintf("bid up to %d", ex), say)) + "\n")
	}
	if !v.StandingPass {
		b.WriteString("  " + Rules{}.CommandIn("pass", say))
	}
	return b.String()
}

// tableText is the table of the text part (felix.text.tmpl's
// game.table), as reader's view v shows it: the round, the row and the
// mouse cards, a line for each player, and the reader's own hand and
// money. aborted says the host ended the game, so that no one is asked
// to act; setAside that the mail shows the card the reader set aside
// (his start and status mails).
//
// It is Go rather than template actions (issue 40): the table is most
// of a mail's text, and as a template every one of its fifty-odd
// actions was a call through reflect. TestFelixTablesAreTheTemplates
// (package templates) renders every reader's mail at every position of
// every transcript with it and with the template it replaced.
func tableText(say engine.Say, v View, reader string, aborted, setAside bool) string {
	var b strings.Builder
	b.Grow(512)
	b.WriteString("\n" + say("Round %d of %d", v.Round, v.Rounds) + " · " + say("start player %s", v.Start) + " · " + say("bank %s", say("%d mice", v.Bank)))
	if v.DummyLeft != 0 {
		b.WriteString(" · " + say("dummy pile %d", v.DummyLeft))
	}
	b.WriteByte('\n')
	b.WriteString(phaseText(say, v, reader, aborted))
	b.WriteString(say("Row:") + " ")
	for i, c := range v.Row {
		if i > 0 {
			b.WriteString(" · ")
		}
		b.WriteString(ownerIn(say, c.Owner) + " " + rowCardShort(say, reader, c))
	}
	b.WriteString("\n" + say("Mouse cards: %s", mouseCardsIn(say, v.MouseCards)) + "\n")
	for _, p := range v.Players {
		b.WriteString(playerText(say, v, p, reader))
	}
	if v.You != "" {
		b.WriteString("\n" + say("Hand: %s", cardsIn(say, v.Hand)) + "\n" + say("Money: %s", ownMoney(say, v)) + "\n")
		if setAside && v.SetAside != "" {
			b.WriteString(say("Set aside at the start: %s (only you know it)", cardIn(say, v.SetAside)) + "\n")
		}
		if c := v.CannotRaise; c != nil {
			b.WriteString(say("Only pass is left: a bid must be at least %d, and you own %s.", c.Next, say("%d mice", c.Owned)) + "\n")
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// phaseText is the line of the text table on what the round waits for:
// the cards placed, the auction, the row bought; nothing in a game the
// host ended.
func phaseText(say engine.Say, v View, reader string, aborted bool) string {
	switch {
	case aborted:
	case v.Phase == "placing":
		return say("Everyone puts a card face down into the row.") + "\n"
	case v.Phase == "bidding":
		who := say("%s to bid", v.Turn)
		if v.Turn == reader {
			who = say("your turn to bid")
		}
		high := say("no stake yet")
		if v.HighStake != 0 {
			high = say("highest stake %d, held by %s", v.HighStake, highHolders(say, v))
		}
		return say("Auction: %s; %s.", who, high) + "\n"
	case v.Phase == "buying":
		if v.Turn == reader {
			return say("Nobody bid: you may buy the row for 1 mouse, or pass.") + "\n"
		}
		return say("Nobody bid: %s may buy the row for 1 mouse, or pass.", v.Turn) + "\n"
	}
	return ""
}

// playerText is p's line of the text table in reader's mail: his
// cards, stake, money (another's, once the view has it), whether the
// auction waits on him, and the cards he won.
func playerText(say engine.Say, v View, p PlayerView, reader string) string {
	var b strings.Builder
	b.WriteString("- " + p.Name)
	if p.Name == reader {
		b.WriteString(" " + say("(you)"))
	}
	if p.StartPlayer {
		b.WriteString(", " + say("start"))
	}
	b.WriteString(": " + say("%d cards", p.HandCount))
	if p.Stake != 0 {
		b.WriteString(", " + say("stake %d", p.Stake))
	}
	if p.Passed {
		b.WriteString(", " + say("passed"))
	}
	if p.Name != reader && p.Money != nil {
		b.WriteString(", " + say("money %d", *p.Money))
	}
	if p.Name == v.Turn && v.Phase != "placing" {
		if v.Phase == "buying" {
			b.WriteString(", " + say("to buy or pass"))
		} else {
			b.WriteString(", " + say("to bid"))
		}
	}
	if len(p.Won) > 0 {
		b.WriteString("; " + say("won %s (cats %d)", cardsIn(say, p.Won), p.Cats))
	}
	b.WriteByte('\n')
	return b.String()
}
