// Package wiring builds each part's configuration from pbem's: the turn
// loop's (daemon.Config), the sender's (outbox.Config), the LMTP
// server's (mailer.LMTPConfig) and the reader lease's (lease.Config).
// It is the one place that reads internal/config for them, for the two
// programs that build a whole service: `pbem serve` and `pbem admin`
// (cmd/pbem), and the demo's (internal/demo).
//
// pbem's configuration, whose defaults (config.Default) are the one
// source of every default, is read here and nowhere below: daemon.Config
// and outbox.Config take values and fill in none of their own, and
// daemon.New and outbox.New refuse a value that means nothing. So the
// daemon and its parts do not import internal/config
// (templates/layering_test.go), and config imports no pbem package but
// two leaves: store/dbsetting, and parser, whose words for a duration
// (parser.ParseDuration) the configuration's durations are read with.
package wiring

import (
	"log/slog"
	"time"

	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/internal/lease"
	"github.com/pbem/pbem/internal/mailbox"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/mailer"
)

// ConfigFrom is the turn loop's configuration for c: what `pbem serve`
// and `pbem admin` run with.
func ConfigFrom(c config.Config) daemon.Config {
	return daemon.Config{
		Name: c.Service.Name, Address: c.ServiceAddress(), Separator: c.Service.Separator, Mailbox: c.IMAP.Mailbox,
		MaxMessageBytes: c.Service.MaxMessageBytes, TurnTime: c.Service.TurnTime.Duration, Reminders: remindersFrom(c.Service.Reminders),
		AutopilotAfter: c.Service.AutopilotAfter, VacationDays: c.Service.VacationDays, DefaultPlayer: defaultPlayerFrom(c.Service.DefaultPlayer),
		RefusalWindow: c.Service.RefusalWindow.Duration, RefusalMax: c.Service.RefusalMax,
		Admins: c.Service.Admins, AdminToken: c.Service.AdminToken,
		Limits: daemon.Limits{AnswersPerDay: c.Limits.AnswersPerDay, LobbyPerHour: c.Limits.LobbyPerHour, LoopPerMinute: c.Limits.LoopPerMinute,
			Mailbox: mailbox.Rule{Separators: c.Limits.SubaddressSeparators}},
		Invitations: daemon.InviteLimits{PerWeek: c.Limits.InvitationsPerWeek, PerInviter: c.Limits.NewInvitationsPerInviter,
			PerDay: c.Limits.NewInvitationsPerDay},
		TrustAuthServID: c.Service.TrustAuthenticationResults,
		RetainMail:      c.Retention.MailBodies.Duration, RetentionEvery: c.Retention.Every.Duration,
		WebURL: c.Web.URL,
	}
}

// remindersFrom is the turn loop's reminder steps for the configured
// ones; none stays none.
func remindersFrom(rs config.Reminders) []daemon.Reminder {
	if rs == nil {
		return nil
	}
	out := make([]daemon.Reminder, len(rs))
	for i, r := range rs {
		out[i] = daemon.Reminder{Before: r.Before, Percent: r.Percent}
	}
	return out
}

// defaultPlayerFrom is who moves for a player who does not: the bot only
// when configured so, as the turn loop read it before (anything else is
// the game's fixed default move).
func defaultPlayerFrom(p config.DefaultPlayer) daemon.DefaultPlayer {
	if p == config.DefaultPlayerBot {
		return daemon.DefaultPlayerBot
	}
	return daemon.DefaultPlayerSimple
}

// OutboxFrom is the sender loop's configuration for c. A send error is
// permanent when the SMTP server said so (mailer.IsPermanent), and says
// the server is unreachable when no session could be opened
// (mailer.IsUnreachable).
func OutboxFrom(c config.Config) outbox.Config {
	return outbox.Config{
		Poll: c.Outbox.PollInterval.Duration, Batch: c.Outbox.Batch, MaxAttempts: c.Outbox.MaxAttempts,
		RetryMin: c.Outbox.RetryMin.Duration, RetryMax: c.Outbox.RetryMax.Duration,
		Permanent:   mailer.IsPermanent,
		Unreachable: mailer.IsUnreachable,
		// pbem serve's sender keeps mailer's default timeout.
		SendTimeout: mailer.DefaultSendTimeout,
	}
}

// The LMTP server's bounds (docs/operations.md, "Mail delivered by
// LMTP"). They are not settings: they keep what one client can make pbem
// do bounded, and a mail server delivers well within them (Postfix opens
// at most 20 connections to one destination, with at most 50 recipients
// a mail, and gives a mail 10 minutes).
const (
	// lmtpHardLimitTimes: a mail over this many times
	// service.max_message_bytes is refused (552; the sender's mail
	// server tells him); one over max_message_bytes and under it is read
	// for its header and answered, as over IMAP.
	lmtpHardLimitTimes = 32
	lmtpMaxRecipients  = 50
	lmtpMaxConns       = 32
	lmtpMailsPerConn   = 1000
	lmtpTimeout        = 2 * time.Minute
	// lmtpMaxBatch: mails delivered while a batch commits are committed
	// together, at most this many, as the IMAP inbox hands over 32.
	lmtpMaxBatch = 32
)

// LMTPFrom is the LMTP server's configuration for c, taking mail for s's
// addresses.
func LMTPFrom(c config.Config, s *daemon.Service, log *slog.Logger) mailer.LMTPConfig {
	return mailer.LMTPConfig{
		Addr: c.LMTP.Addr, Accept: s.Accepts, Separator: c.Service.Separator,
		MaxSize: c.Service.MaxMessageBytes, HardLimit: lmtpHardLimitTimes * c.Service.MaxMessageBytes,
		MaxRecipients: lmtpMaxRecipients, MaxConns: lmtpMaxConns, MailsPerConn: lmtpMailsPerConn,
		Timeout: lmtpTimeout, MaxBatch: lmtpMaxBatch, Logger: log,
	}
}

// LeaseFrom is the reader lease of c: node.name, or the host's name and
// the process id, and lease.ttl.
func LeaseFrom(c config.Config) lease.Config {
	node := c.Node.Name
	if node == "" {
		node = lease.DefaultNodeName()
	}
	return lease.Config{Node: node, TTL: c.Lease.TTL.Duration}
}
