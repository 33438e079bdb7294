package daemon

import (
	"log/slog"
	"time"

	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/mailbox"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/mailer"
)

// The daemon's settings come from pbem's configuration, whose defaults
// (config.Default) are the one source of every default: Config and
// outbox.Config take values and fill in none of their own, and New and
// outbox.New refuse a value that means nothing.
//
// The dependency points down: config imports no other pbem package, so
// daemon may read it; config must never import daemon (nor anything that
// does), or the two would form a cycle.

// ConfigFrom is the turn loop's configuration for c: what `pbem serve`
// and `pbem admin` run with, and what the daemon's tests start from.
func ConfigFrom(c config.Config) Config {
	return Config{
		Name: c.Service.Name, Address: c.ServiceAddress(), Separator: c.Service.Separator, Mailbox: c.IMAP.Mailbox,
		MaxMessageBytes: c.Service.MaxMessageBytes, TurnTime: c.Service.TurnTime.Duration, Reminders: c.Service.Reminders,
		AutopilotAfter: c.Service.AutopilotAfter, VacationDays: c.Service.VacationDays, DefaultPlayer: c.Service.DefaultPlayer,
		RefusalWindow: c.Service.RefusalWindow.Duration, RefusalMax: c.Service.RefusalMax,
		Admins: c.Service.Admins, AdminToken: c.Service.AdminToken,
		Limits: Limits{AnswersPerDay: c.Limits.AnswersPerDay, LobbyPerHour: c.Limits.LobbyPerHour, LoopPerMinute: c.Limits.LoopPerMinute,
			Mailbox: mailbox.Rule{Separators: c.Limits.SubaddressSeparators}},
		Invitations: InviteLimits{PerWeek: c.Limits.InvitationsPerWeek, PerInviter: c.Limits.NewInvitationsPerInviter,
			PerDay: c.Limits.NewInvitationsPerDay},
		TrustAuthServID: c.Service.TrustAuthenticationResults,
		RetainMail:      c.Retention.MailBodies.Duration, RetentionEvery: c.Retention.Every.Duration,
		WebURL: c.Web.URL,
	}
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
func LMTPFrom(c config.Config, s *Service, log *slog.Logger) mailer.LMTPConfig {
	return mailer.LMTPConfig{
		Addr: c.LMTP.Addr, Accept: s.Accepts, Separator: c.Service.Separator,
		MaxSize: c.Service.MaxMessageBytes, HardLimit: lmtpHardLimitTimes * c.Service.MaxMessageBytes,
		MaxRecipients: lmtpMaxRecipients, MaxConns: lmtpMaxConns, MailsPerConn: lmtpMailsPerConn,
		Timeout: lmtpTimeout, MaxBatch: lmtpMaxBatch, Logger: log,
	}
}
