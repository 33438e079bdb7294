package felix

import "strings"

// PlayerLine is one line of the players' table in the HTML part, holding
// exactly what the line shows (htmlPage.playerLine writes it from this
// and nothing else). It holds nothing the line does not show: a
// reader's own money, which his line leaves out, is not in it, so equal
// lines are equal data and no line carries what another reader may not
// see. (The line was a template, "felix.player.fresh", which the
// renderer kept by this data for every reader with the same line: lines
// change with every move, and the Go costs a tenth of what rendering the
// template anew did, issue 40.)
type PlayerLine struct {
	Name        string
	You         bool // the reader's own line
	StartPlayer bool
	HandCount   int
	Placing     bool // the round's cards are being placed: the line says whether he has
	Placed      bool
	Stake       int
	Passed      bool
	ShowMoney   bool // the line shows his money: another's, when the view has it (at the end)
	Money       int
	ToAct       string // the auction waits on him: "bid", or "buy" (buy or pass); else ""
	Won         string // the cards he won, wonSep between them; "" for none
	Cats        int
}

// wonSep joins a PlayerLine's won cards: no card's name holds it.
const wonSep = ","

// playerLine is p's line of the players' table as reader's view v shows
// it.
func playerLine(v View, p PlayerView, reader string) PlayerLine {
	l := PlayerLine{
		Name: p.Name, You: p.Name == reader, StartPlayer: p.StartPlayer, HandCount: p.HandCount,
		Placing: v.Phase == "placing", Placed: p.Placed, Stake: p.Stake, Passed: p.Passed,
		Won: strings.Join(p.Won, wonSep), Cats: p.Cats,
	}
	if p.Money != nil && p.Name != reader {
		l.ShowMoney, l.Money = true, *p.Money
	}
	if p.Name == v.Turn && v.Phase != "placing" {
		l.ToAct = "bid"
		if v.Phase == "buying" {
			l.ToAct = "buy"
		}
	}
	return l
}

// wonCards are a PlayerLine's won cards.
func wonCards(won string) []string {
	if won == "" {
		return nil
	}
	return strings.Split(won, wonSep)
}
