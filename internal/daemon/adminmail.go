package daemon

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/store"
)

// AdminUsage is the admin's command language, by mail and on the command
// line alike: GAME is the game's number, as in the examples. It is shown
// as written, not through the players' help (which would take GAME for a
// game's name).
var AdminUsage = []string{
	"GAME extend PLAYER DURATION",
	"  e.g. 12 extend bob 24h: move bob's deadline 24 hours later",
	"GAME move PLAYER COMMAND",
	"  e.g. 12 move bob pass: make a move for bob",
	"GAME replace PLAYER ADDRESS",
	"  e.g. 12 replace bob rob@example.org: give bob's seat to another address",
	"GAME pause [REASON]",
	"  e.g. 12 pause: stop moves and deadlines",
	"GAME resume [REASON]",
	"  e.g. 12 resume: start again, with fresh deadlines",
	"GAME abort [REASON]",
	"  e.g. 12 abort: end the game for good",
	"GAME retry",
	"  e.g. 12 retry: take up a game set aside as broken, after the repair",
	"GAME undo PLAYER",
	"  e.g. 12 undo bob: take back bob's last command, if nothing was revealed and nobody moved since",
	"GAME unrate",
	"  e.g. 12 unrate: take a finished game out of the ratings; its kind's ratings are computed again without it",
}

// adminCommand reads one admin act: the act's name and its words.
func (s *Service) adminCommand(ctx context.Context, gameID int64, act AdminAct, params []string, actor string) (detail string, a adminFunc, err error) {
	need := func(n int, form string) error {
		if len(params) < n {
			return adminErr("write: GAME %s", form)
		}
		return nil
	}
	switch act {
	case AdminExtend:
		if err := need(2, "extend PLAYER DURATION"); err != nil {
			return "", nil, err
		}
		d, err := time.ParseDuration(params[1])
		if err != nil {
			return "", nil, adminErr("%q is not a duration such as 24h", params[1])
		}
		return fmt.Sprintf("%s by %s", params[0], d), s.extendAct(ctx, gameID, params[0], d), nil
	case AdminMove:
		if err := need(2, "move PLAYER COMMAND"); err != nil {
			return "", nil, err
		}
		cmd := strings.Join(params[1:], " ")
		return params[0] + ": " + cmd, s.moveAct(ctx, gameID, params[0], cmd, actor), nil
	case AdminReplace:
		if err := need(2, "replace PLAYER ADDRESS"); err != nil {
			return "", nil, err
		}
		return params[0] + " -> " + params[1], s.replaceAct(ctx, gameID, params[0], params[1]), nil
	case AdminPause, AdminResume, AdminAbort:
		reason := strings.Join(params, " ")
		return reason, s.statusAct(ctx, gameID, act, reason), nil
	case AdminRetry:
		return "", s.retryAct(ctx, gameID), nil
	case AdminUndo:
		if err := need(1, "undo PLAYER"); err != nil {
			return "", nil, err
		}
		return params[0], s.undoAct(ctx, gameID, params[0], actor), nil
	case AdminUnrate:
		return "", s.unrateAct(ctx, gameID), nil
	}
	return "", nil, adminErr("%q is not an admin act; the acts are extend, move, replace, pause, resume, abort, retry, undo and unrate", act)
}

// Admin runs one admin act given as words, as `pbem admin` does.
func (s *Service) Admin(ctx context.Context, gameID int64, act string, params []string, actor string) error {
	detail, a, err := s.adminCommand(ctx, gameID, AdminAct(act), params, actor)
	if err != nil {
		return err
	}
	return s.admin(ctx, gameID, actor, AdminAct(act), detail, a)
}

// isAdmin reports whether addr is one of the configured admins.
func (s *Service) isAdmin(addr string) bool {
	for _, a := range strings.Split(s.cfg.Admins, ",") {
		if a = store.NormalizeAddress(a); a != "" && a == addr {
			return true
		}
	}
	return false
}

// adminMail carries out an admin's mail to the admin address: one act per
// line, "GAME ACT ...", in the same transaction as the mail's record. It
// answers with what it did, line by line.
func (s *Service) adminMail(ctx context.Context, tx *store.Tx, t *turn) error {
	var done []string
	t.outcome = OutcomeAnswered
	for _, line := range strings.Split(t.msg.Text, "\n") {
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		if strings.EqualFold(words[0], "help") {
			continue
		}
		id, err := strconv.ParseInt(strings.TrimPrefix(words[0], "#"), 10, 64)
		if err != nil || len(words) < 2 {
			done = append(done, fmt.Sprintf("%q: not read; write GAME ACT ... (the rest of your mail was ignored)", line))
			break
		}
		act := AdminAct(strings.ToLower(words[1]))
		detail, a, err := s.adminCommand(ctx, id, act, words[2:], t.from)
		if err == nil {
			err = s.adminIn(ctx, tx, t, id, t.from, act, detail, a)
		}
		switch {
		case errors.Is(err, ErrAdmin):
			done = append(done, fmt.Sprintf("%q: not done: %s", line, strings.TrimPrefix(err.Error(), "refused: ")))
		case err != nil:
			return err
		default:
			done = append(done, fmt.Sprintf("%q: done.", line))
			t.outcome = OutcomeApplied
		}
	}
	lines := append(done, "", "Admin acts, one per line (GAME is the game's number):")
	for _, u := range AdminUsage {
		lines = append(lines, "  "+u)
	}
	return s.adminNotice(t, t.from, "what was done", lines...)
}
