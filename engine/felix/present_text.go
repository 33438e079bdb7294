package felix

import (
	"strings"

	"github.com/pbem/pbem/engine"
)

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
