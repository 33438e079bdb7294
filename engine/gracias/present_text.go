package gracias

import (
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// Gracias' text part is Go (engine.TextParts), as its HTML part is: the
// renderer calls these for a mail, and gracias.text.tmpl's
// game.headline, game.table and game.aim call the same Go for what
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

// TableText is the table as the reader may see it (tableText): the
// triplet he took, until the mail has told it.
func (Rules) TableText(say engine.Say, d engine.PartData) (string, error) {
	v, err := engine.ViewOf[View](d)
	if err != nil || v == nil {
		return "", err
	}
	return tableText(say, *v, d.Reader, d.Aborted, d.Told("peek")), nil
}

// AimText is what the reader plays for (aimText).
func (Rules) AimText(say engine.Say, _ engine.PartData) string { return aimText(say) }

// WaitingText leaves where the reader stands to the renderer: Gracias
// says no more than it does.
func (Rules) WaitingText(engine.Say, engine.PartData) (string, bool) { return "", false }

// headlineText is the mail's first line (gracias.text.tmpl's
// game.headline), which mail clients show as its preview: the game, and
// who won, or that a session was scored since the reader's last mail
// and what the round asks of him or whom it waits for; only the game
// for a mail without a view.
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
	if h.Told("score") && v.Session > 1 {
		b.WriteString(" " + say("session %d scored,", v.Session-1))
	}
	switch {
	case h.YourTurn && v.Pending != nil:
		b.WriteString(" " + say("keep one card, give the other"))
	case h.YourTurn:
		b.WriteString(" " + say("your turn (session %d, round %d)", v.Session, v.Round))
	default:
		b.WriteString(" " + say("waiting for %s (session %d, round %d)", h.Waiting, v.Session, v.Round))
	}
	return b.String()
}

// aimText is one line on what the reader plays for (game.aim).
func aimText(say engine.Say) string {
	return say("Aim: 1 point a stack of 5, 1 a face-up card not discarded; most wins.") + "\n"
}
