package daemon

import (
	"context"
	"fmt"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// The player's language (issue 39): the language pbem writes to him in.
// His first mail sets it, German when it shows German (parser.LanguageOf:
// its Content-Language, a German quote header, German words), English
// otherwise, and `language english|german` changes it. Commands are read
// in both, whatever it is.

// meetLanguage sets w.words to the sender's words, and the sender's
// language from this mail when it is his first.
func (w *work) meetLanguage(p store.Player) error {
	lang := p.Language
	if lang == "" {
		lang = parser.LanguageOf(w.msg)
		if lang == "" {
			lang = parser.LangEnglish
		}
		if err := w.tx.SetPlayerLanguage(w.ctx, p.Address, lang); err != nil {
			return err
		}
		// The first German mail says why, and how to switch
		// (firstAnswerNote).
		w.languageNote = lang == parser.LangGerman
	}
	w.words = templates.For(lang)
	return nil
}

// setLanguage applies `language english|german`, and answers in the
// language chosen.
func (w *work) setLanguage(c parser.Command) (string, error) {
	lang := parser.LangOfChoice(c.Args[0])
	if lang == "" {
		return "", fmt.Errorf("daemon: %q is not a language", c.Args[0])
	}
	if err := w.tx.SetPlayerLanguage(w.ctx, w.from, lang); err != nil {
		return "", err
	}
	w.words = templates.For(lang)
	w.languageNote = false // he chose: nothing to explain
	return w.words.LanguageSet(lang == parser.LangGerman), nil
}

// wordsOf is pbem's words for the player at addr: his language's, or
// English when pbem has not met him.
func (w *work) wordsOf(addr string) (templates.Words, error) {
	if addr == w.from {
		return w.words, nil
	}
	p, err := w.tx.Player(w.ctx, addr)
	if err != nil {
		return templates.Say, fmt.Errorf("daemon: the language of %s: %w", addr, err)
	}
	return templates.For(p.Language), nil
}

// languageOf is the language the store keeps for the player at addr, ""
// when pbem has not met him or cannot tell: for a page that answers no
// mail (an address confirmation's, an unsubscribe's).
func (s *Service) languageOf(ctx context.Context, addr string) string {
	p, err := s.store.Player(ctx, addr)
	if err != nil {
		return ""
	}
	return p.Language
}

// commandIn is cmd, a command of lg's game as its text is kept
// ("play rabbit"), in the sender's language ("spiele Hase"), for what
// his answer echoes: the game writes it (engine.CommandTranslator), and
// reads it back as the same command.
func (w *work) commandIn(lg *loaded.Game, cmd string) string {
	tr, ok := lg.Rules.(engine.CommandTranslator)
	if !ok || w.words.Language() == parser.LangEnglish {
		return cmd
	}
	return tr.CommandIn(cmd, w.render.Words(w.words.Language()).T)
}
