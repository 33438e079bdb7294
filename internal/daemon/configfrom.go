package daemon

import (
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/mailer"
)

// The daemon's settings come from pbem's configuration, whose defaults
// (config.Default) are the one source of every default: Config and
// OutboxConfig take values and fill in none of their own, and New and
// RunOutbox refuse a value that means nothing.
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
		Limits:          Limits{AnswersPerDay: c.Limits.AnswersPerDay, LobbyPerHour: c.Limits.LobbyPerHour, LoopPerMinute: c.Limits.LoopPerMinute},
		TrustAuthServID: c.Service.TrustAuthenticationResults,
		RetainMail:      c.Retention.MailBodies.Duration, RetentionEvery: c.Retention.Every.Duration,
		WebURL: c.Web.URL,
	}
}

// OutboxFrom is the sender loop's configuration for c. A send error is
// permanent when the SMTP server said so (mailer.IsPermanent), and says
// the server is unreachable when no session could be opened
// (mailer.IsUnreachable).
func OutboxFrom(c config.Config) OutboxConfig {
	return OutboxConfig{
		Poll: c.Outbox.PollInterval.Duration, Batch: c.Outbox.Batch, MaxAttempts: c.Outbox.MaxAttempts,
		RetryMin: c.Outbox.RetryMin.Duration, RetryMax: c.Outbox.RetryMax.Duration,
		Permanent:   mailer.IsPermanent,
		Unreachable: mailer.IsUnreachable,
	}
}
