package daemon

import (
	"errors"
	"strings"

	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/templates"
)

// adminMail carries out an admin's mail to the admin address: one act per
// line, "GAME ACT ...", in the same transaction as the mail's record. It
// answers with what it did, line by line.
func (w *work) adminMail() error {
	var done []string
	w.outcome = OutcomeAnswered
	for _, line := range strings.Split(w.msg.Text, "\n") {
		l, err := admin.ReadLine(line)
		if errors.Is(err, admin.ErrNoGame) {
			done = append(done, w.words.AdminLineNotRead(line))
			break
		}
		if err == nil && l.Act == nil {
			continue
		}
		if err == nil {
			err = w.adminIn(l.Game, w.from, l.Act)
		}
		switch {
		case errors.Is(err, admin.ErrRefused):
			done = append(done, w.words.AdminLineNotDone(line, strings.TrimPrefix(err.Error(), "refused: ")))
		case err != nil:
			return err
		default:
			done = append(done, w.words.AdminLineDone(line))
			w.outcome = OutcomeApplied
		}
	}
	lines := append(done, "", w.words.AdminActsHeading())
	for _, u := range admin.Usage() {
		lines = append(lines, "  "+u)
	}
	return w.adminNotice(w.from, templates.Say.WhatWasDone(), lines...)
}
