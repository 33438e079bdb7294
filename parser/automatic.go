package parser

import "strings"

// Automatic returns why a message was sent by a program rather than a
// person, or "" for a person's mail. pbem never answers automatic mail:
// two programs answering each other loop for ever.
//
// The markers, the first that applies winning:
//   - Auto-Submitted with any value but "no" (RFC 3834);
//   - X-Autoreply and X-Autorespond, with any value;
//   - Precedence or X-Precedence of bulk, junk, list or auto_reply;
//   - X-Loop (procmail, ticket systems and lists set it on what they
//     send on);
//   - List-Id and List-Unsubscribe (list and bulk mail);
//   - Return-Path <>, the null sender of bounces and notifications;
//   - a multipart/report body, or a bare delivery-status or
//     disposition-notification one (delivery and read notifications);
//   - a sender whose local part is one of the usual automatic ones:
//     mailer-daemon, postmaster, noreply, no-reply, donotreply,
//     do-not-reply, bounce(s), auto-reply and their spellings, also
//     with a +tag or a -suffix (bounces+123@, noreply-alerts@).
//
// Two headers are deliberately not markers. X-Auto-Response-Suppress is
// a request to others not to answer automatically, which Outlook also
// puts on mail a person writes (meeting answers, some corporate
// setups); pbem's answer is the service the person asked for. Feedback-ID
// is set by bulk-sending platforms on all they send, the transactional
// mail of people's own tools too, and bulk mail that pbem must ignore
// carries List-Unsubscribe anyway (the big providers require it); it is
// kept in Message.FeedbackID for the record.
func Automatic(m Message) string {
	if a := strings.ToLower(strings.TrimSpace(m.AutoSubmitted)); a != "" && a != "no" {
		return "Auto-Submitted: " + a
	}
	switch {
	case strings.TrimSpace(m.XAutoreply) != "":
		return "X-Autoreply"
	case strings.TrimSpace(m.XAutorespond) != "":
		return "X-Autorespond"
	}
	for _, p := range []struct{ name, value string }{{"Precedence", m.Precedence}, {"X-Precedence", m.XPrecedence}} {
		switch v := strings.ToLower(strings.TrimSpace(p.value)); v {
		case "bulk", "junk", "list", "auto_reply":
			return p.name + ": " + v
		}
	}
	switch {
	case strings.TrimSpace(m.XLoop) != "":
		return "X-Loop"
	case strings.TrimSpace(m.ListID) != "":
		return "List-Id"
	case strings.TrimSpace(m.ListUnsubscribe) != "":
		return "List-Unsubscribe"
	case m.NullSender:
		return "Return-Path: <>"
	}
	switch ct := strings.ToLower(m.ContentType); ct {
	case "multipart/report", "message/delivery-status", "message/disposition-notification",
		"message/global-delivery-status", "message/global-disposition-notification":
		return "Content-Type: " + ct
	}
	if local := automaticLocal(m.FromAddress); local != "" {
		return "sender " + local + "@"
	}
	return ""
}

// automaticLocal returns the local part of addr if it is one programs
// send from, "" otherwise.
func automaticLocal(addr string) string {
	local, _, ok := strings.Cut(strings.ToLower(addr), "@")
	if !ok {
		return ""
	}
	base, _, _ := strings.Cut(local, "+")
	// The local parts of automatic senders.
	locals := [...]string{
		"mailer-daemon", "mailerdaemon", "postmaster",
		"noreply", "no-reply", "no_reply", "donotreply", "do-not-reply", "do_not_reply",
		"bounce", "bounces", "auto-reply", "autoreply", "auto_reply", "auto-responder", "autoresponder",
	}
	for _, l := range locals {
		if base == l || strings.HasPrefix(base, l+"-") || strings.HasPrefix(base, l+"_") || strings.HasPrefix(base, l+".") {
			return local
		}
	}
	return ""
}
