package daemon

import (
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// A player's name is what the others see of him in a game and what they
// write to mean him ("give bob"). It is one word, as the games' command
// language and the transcripts need: a letter, then letters, digits, - or
// _, lower-case. `name NEW` changes it in every game of his that is not
// over, and for the games he starts or joins later; a finished game keeps
// the name it was played under. In a game that runs, the change rewrites
// the game's set-up and the command lines that name him, so that the game
// and its transcript speak of him by his new name from its start; the
// events already told keep the old one (they were true when told), and
// the table is told of the change.

// maxNameLen bounds a name: it stands in subjects and tables.
const maxNameLen = 16

// reservedNames are words that may not be names besides the commands':
// pbem's mails use them for other things.
var reservedNames = []string{"you", "pbem", "everyone", "nobody", "bot", "admin", "me", "all", "none"}

// rename handles `name NEW`. It returns what to tell the player; a name
// pbem cannot give is refused in those words, with no change at all.
func (w *work) rename(written string) (string, error) {
	name := strings.ToLower(strings.TrimSpace(written))
	if reason := w.badName(name); reason != "" {
		return w.words.NameNotChanged(reason), nil
	}
	games, err := w.tx.GamesOf(w.ctx, w.from)
	if err != nil {
		return "", err
	}
	type change struct {
		game store.Game
		seat store.Seat
	}
	var changes []change
	for _, g := range games {
		if !renamable(g.Status) {
			continue
		}
		if g.Aside != "" {
			// Its set-up cannot be rewritten while it does not load; a
			// rename that left one game behind would make two names.
			return w.words.NameNotChangedGameAside(w.title(g.Kind), g.ID), nil
		}
		seats, err := w.tx.Seats(w.ctx, g.ID)
		if err != nil {
			return "", err
		}
		mine := -1
		for _, st := range seats {
			if st.Address == w.from {
				mine = st.Seat
			}
		}
		for _, st := range seats {
			if st.Seat != mine && st.Name == name {
				return w.words.NameTakenInGame(name, w.title(g.Kind), g.ID), nil
			}
		}
		if mine >= 0 && seats[mine].Name != name {
			changes = append(changes, change{g, seats[mine]})
		}
	}
	// Every rename is told at each of his tables: a few a day are
	// enough for a player, and bound what he can add to the others'
	// mails (bounds.go).
	ok, err := w.tx.Spend(w.ctx, w.post.MailboxOf(w.from), bucketRename, w.now(), boundsWindow, renamesPerDay)
	if err != nil {
		return "", err
	}
	if !ok {
		w.detail = "rename refused: daily limit"
		return w.words.RenameLimitReached(renamesPerDay), nil
	}
	if err := w.tx.SetPlayerName(w.ctx, w.from, name); err != nil {
		return "", err
	}
	for _, c := range changes {
		if err := w.renameSeat(c.game.ID, c.seat, name); err != nil {
			return "", err
		}
	}
	return w.words.NameChanged(name), nil
}

// renamable tells the games whose players a rename reaches: those not
// over.
func renamable(st store.Status) bool {
	return st == store.StatusInviting || st == store.StatusActive || st == store.StatusPaused
}

// badName says why a name cannot be given, or "".
func (w *work) badName(name string) string {
	switch {
	case name == "":
		return w.words.NameMissing()
	case strings.ContainsAny(name, " \t"):
		return w.words.NameNotOneWord()
	case len(name) > maxNameLen || !engine.ValidName(name):
		return w.words.NameNotValid(maxNameLen)
	case w.commandWord(name):
		return w.words.NameIsCommandWord(name)
	}
	return ""
}

// commandWord reports whether w is a word of any command pbem reads (a
// keyword, a card or colour, a lobby command or one of its settings, a
// game's name), or a word the mails use for something else. A player of
// that name could not be told from the command.
func (s *Service) commandWord(w string) bool {
	for _, r := range reservedNames {
		if w == r {
			return true
		}
	}
	words := map[string]bool{}
	add := func(text string) {
		for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '|' }) {
			// Upper-case words are placeholders (N, ADDRESS...).
			if f != strings.ToUpper(f) || strings.ContainsAny(f, "abcdefghijklmnopqrstuvwxyz") {
				words[engine.Fold(strings.ToLower(f))] = true
			}
		}
	}
	for _, u := range (parser.Grammar{Games: s.names}).Usages() {
		add(u)
	}
	for _, g := range parser.GermanWords() {
		add(g)
	}
	for _, g := range s.names {
		add(g)
		rules, ok := s.games(g)
		if !ok {
			continue
		}
		for _, sp := range rules.Specs() {
			add(sp.Name)
			for _, wd := range sp.Words {
				switch wd.Kind {
				case engine.Literal:
					add(wd.Text)
					add(strings.Join(wd.Also, " "))
				case engine.Choice:
					for _, c := range wd.Choices {
						add(c.Value)
						for _, a := range c.Aliases {
							add(a)
						}
					}
				}
			}
		}
	}
	return words[engine.Fold(w)]
}

// renameSeat renames a seat's player in one game: the seat, the set-up,
// the command lines that name him, and the saved state, all rebuilt from
// the renamed set-up and log so that they agree; then the table is told.
func (w *work) renameSeat(gameID int64, seat store.Seat, name string) error {
	lg, err := w.loadGame(gameID)
	if err != nil {
		return err
	}
	old := seat.Name
	if err := lg.Rename(w.ctx, w.tx, old, name); err != nil {
		return err
	}
	if err := w.tx.SetSeatName(w.ctx, gameID, seat.Seat, name); err != nil {
		return err
	}
	if _, err := w.tx.AppendAudit(w.ctx, gameID, seat.Address, "rename", old+" -> "+name, w.now()); err != nil {
		return err
	}
	ev := []store.Event{storeSaid(engine.Public, EventRename, templates.Say.NowCalled(old, name), templates.Phrases.NowCalled(old, name))}
	err = w.tx.AppendEvents(w.ctx, gameID, lg.Row.LastSeq, ev)
	return err
}
