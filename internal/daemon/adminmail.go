package daemon

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// adminActDoc is one row of the admin's command table.
type adminActDoc struct {
	act     AdminAct
	args    string // what follows the act's word: "PLAYER DURATION", "[REASON]"
	need    int    // how many words of args it must have
	example string // the example's words after GAME ACT: "bob 24h", or ""
	help    string // what the example does
}

// adminActs is the admin's command language, by mail and on the command
// line alike, in the order AdminUsage lists it: the one table of the
// acts' words, their arguments and their help.
var adminActs = []adminActDoc{
	{AdminExtend, templates.Say.PlayerDuration(), 2, "bob 24h", templates.Say.MoveBobDeadlineHours()},
	{AdminMove, templates.Say.PlayerCommand(), 2, "bob pass", templates.Say.MakeMoveBob()},
	{AdminReplace, templates.Say.PlayerAddress(), 2, "bob rob@example.org", templates.Say.GiveBobSeatAnother()},
	{AdminPause, "[REASON]", 0, "", templates.Say.StopMovesDeadlines()},
	{AdminResume, "[REASON]", 0, "", templates.Say.StartAgainWithFresh()},
	{AdminAbort, "[REASON]", 0, "", templates.Say.EndGameGood()},
	{AdminRetry, "", 0, "", templates.Say.TakeUpGameSet()},
	{AdminUndo, "PLAYER", 1, "bob", templates.Say.TakeBackBobLast()},
	{AdminUnrate, "", 0, "", templates.Say.TakeFinishedGameOut()},
}

// adminHelp is the word that asks for AdminUsage alone: a line of it in
// an admin's mail is skipped, as every answer ends with the usage.
const adminHelp AdminAct = "help"

// AdminUsage is the admin's command language, by mail and on the command
// line alike: GAME is the game's number, as in the examples. It is shown
// as written, not through the players' help (which would take GAME for a
// game's name).
var AdminUsage = adminUsage()

func adminUsage() []string {
	var out []string
	for _, d := range adminActs {
		out = append(out, strings.TrimSpace("GAME "+d.form()), templates.Say.AdminActExample(strings.TrimSpace(string(d.act)+" "+d.example), d.help))
	}
	return out
}

// form is the act as the admin writes it after the game's number.
func (d adminActDoc) form() string { return strings.TrimSpace(string(d.act) + " " + d.args) }

// adminActList names the acts, "extend, move, ... and unrate".
func adminActList() string {
	var names []string
	for _, d := range adminActs {
		names = append(names, string(d.act))
	}
	return templates.Say.JoinAnd(names)
}

// adminCommand reads one admin act: the act's name and its words.
func (s *Service) adminCommand(ctx context.Context, gameID int64, act AdminAct, params []string, actor string) (detail string, a adminFunc, err error) {
	for _, d := range adminActs {
		if d.act == act && len(params) < d.need {
			return "", nil, adminErr("%s", templates.Say.WriteGame(d.form()))
		}
	}
	switch act {
	case AdminExtend:
		d, err := time.ParseDuration(params[1])
		if err != nil {
			return "", nil, adminErr("%s", templates.Say.NotDurationSuchAs(params[1]))
		}
		return fmt.Sprintf("%s by %s", params[0], d), extendAct(gameID, params[0], d), nil
	case AdminMove:
		cmd := strings.Join(params[1:], " ")
		return params[0] + ": " + cmd, moveAct(gameID, params[0], cmd, actor), nil
	case AdminReplace:
		return params[0] + " -> " + params[1], replaceAct(gameID, params[0], params[1]), nil
	case AdminPause, AdminResume, AdminAbort:
		reason := strings.Join(params, " ")
		return reason, statusAct(gameID, act, reason), nil
	case AdminRetry:
		return "", retryAct(gameID), nil
	case AdminUndo:
		return params[0], undoAct(gameID, params[0], actor), nil
	case AdminUnrate:
		return "", unrateAct(gameID), nil
	}
	return "", nil, adminErr("%s", templates.Say.NotAdminActActs(string(act), adminActList()))
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
func (w *work) adminMail() error {
	var done []string
	w.outcome = OutcomeAnswered
	for _, line := range strings.Split(w.msg.Text, "\n") {
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		if AdminAct(strings.ToLower(words[0])) == adminHelp {
			continue
		}
		id, err := strconv.ParseInt(strings.TrimPrefix(words[0], "#"), 10, 64)
		if err != nil || len(words) < 2 {
			done = append(done, templates.Say.NotReadWriteGame(line))
			break
		}
		act := AdminAct(strings.ToLower(words[1]))
		detail, a, err := w.adminCommand(w.ctx, id, act, words[2:], w.from)
		if err == nil {
			err = w.adminIn(id, w.from, act, detail, a)
		}
		switch {
		case errors.Is(err, ErrAdmin):
			done = append(done, templates.Say.AdminLineNotDone(line, strings.TrimPrefix(err.Error(), "refused: ")))
		case err != nil:
			return err
		default:
			done = append(done, templates.Say.AdminLineDone(line))
			w.outcome = OutcomeApplied
		}
	}
	lines := append(done, "", templates.Say.AdminActsOnePer())
	for _, u := range AdminUsage {
		lines = append(lines, "  "+u)
	}
	return w.adminNotice(w.from, templates.Say.WhatDone(), lines...)
}
