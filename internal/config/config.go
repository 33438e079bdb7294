// Package config reads pbem's configuration: defaults, then a TOML file,
// then PBEM_SECTION_KEY environment variables, each overriding the one
// before. With neither an [imap] nor an [lmtp] address pbem runs its
// embedded mail servers.
//
// Default is the one source of every default value pbem chooses: the
// packages it configures (daemon, and the mailer and metrics settings
// pbem sets) take values, not defaults of their own, and
// wiring.ConfigFrom and wiring.OutboxFrom (internal/wiring) translate a
// Config into them. The dependency points down: config imports no other
// pbem package but the leaf store/dbsetting (what store.database may be),
// so internal/wiring may read it, and config must never import what
// imports it. The daemon does not read it: it is handed the values.
package config

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store/dbsetting"
)

// Config is the whole configuration. Every key is documented in docs/configuration.md.
type Config struct {
	Service  Service  `toml:"service"`
	Store    Store    `toml:"store"`
	IMAP     IMAP     `toml:"imap"`
	LMTP     LMTP     `toml:"lmtp"`
	SMTP     SMTP     `toml:"smtp"`
	Embedded Embedded `toml:"embedded"`
	Limits   Limits   `toml:"limits"`
	Outbox   Outbox   `toml:"outbox"`
	Log      Log      `toml:"log"`
	Metrics  Metrics  `toml:"metrics"`
	Web      Web      `toml:"web"`
	// Retention: how long pbem keeps what it no longer needs (docs/store.md).
	Retention Retention `toml:"retention"`
	// Node and Lease: several nodes on one database (docs/operations.md,
	// "Several nodes on one database").
	Node  Node  `toml:"node"`
	Lease Lease `toml:"lease"`
	// Runtime: the garbage collector of pbem serve (docs/operations.md,
	// "Memory against CPU").
	Runtime Runtime `toml:"runtime"`
}

// Runtime sets Go's garbage collector for pbem serve. The environment's
// GOGC and GOMEMLIMIT, when set, take precedence (cmd/pbem's setGC
// leaves them alone), as they do for any Go program.
type Runtime struct {
	// GCPercent is GOGC: the heap may grow by this share of what the
	// last collection kept before the next one.
	GCPercent int `toml:"gc_percent"`
	// MemoryLimit is GOMEMLIMIT, a soft limit on the memory Go manages
	// ("96MiB"); empty for none.
	MemoryLimit string `toml:"memory_limit"`
}

// Node is this pbem serve among the nodes that share a database.
type Node struct {
	// Name must be unique among the running nodes; empty: the host's
	// name and the process id.
	Name string `toml:"name"`
}

// Lease times the reader lease: the node holding it reads the IMAP
// mailbox and runs retention, renewing it every ttl/3.
type Lease struct {
	TTL Duration `toml:"ttl"` // how long a lease lasts unless renewed
}

// Limits bound what one address can make pbem do (docs/security.md).
type Limits struct {
	AnswersPerDay int `toml:"answers_per_day"` // mails to an address about no running game of its own
	LobbyPerHour  int `toml:"lobby_per_hour"`  // commands read from one sender's mail to the bare address
	LoopPerMinute int `toml:"loop_per_minute"` // mails from one address answered at one of pbem's addresses in a minute before the loop breaker holds the answers
	// SubaddressSeparators holds the characters that begin a
	// sub-address (alice+games@): every limit counts the mailbox, not
	// the spelling (internal/mailbox). "" counts each spelling apart.
	SubaddressSeparators string `toml:"subaddress_separators"`
	// Invitations to a mailbox that never answered pbem (docs/security.md,
	// "One mailbox, one limit"): at most InvitationsPerWeek a week to
	// one such mailbox from everyone together, NewInvitationsPerInviter a
	// day from one inviter's mailbox to all such mailboxes, and
	// NewInvitationsPerDay a day from the whole service.
	InvitationsPerWeek       int `toml:"invitations_per_week"`
	NewInvitationsPerInviter int `toml:"new_invitations_per_inviter"`
	NewInvitationsPerDay     int `toml:"new_invitations_per_day"`
}

// Outbox tunes how pbem sends the mail it queued (outbox.Config, made by wiring.OutboxFrom).
type Outbox struct {
	PollInterval Duration `toml:"poll_interval"` // how often to look for due mail when none was queued meanwhile
	Batch        int      `toml:"batch"`         // mails taken per look
	MaxAttempts  int      `toml:"max_attempts"`  // attempts before a mail is given up
	RetryMin     Duration `toml:"retry_min"`     // wait after a mail's first failure, doubled per failure...
	RetryMax     Duration `toml:"retry_max"`     // ...up to this (with jitter)
}

// Service is about pbem itself.
type Service struct {
	Name      string   `toml:"name"`      // display name in mails
	Address   string   `toml:"address"`   // pbem's own address; empty with embedded servers: pbem@DOMAIN
	Separator string   `toml:"separator"` // plus-addressing separator
	TurnTime  Duration `toml:"turn_time"` // time for each decision; a game's own (new ... deadline 48h) overrides it
	// Reminders are the steps at which a player is reminded of a
	// deadline, each at most once per deadline; empty for none. It
	// replaces reminder_before, which Load refuses with the new form.
	Reminders      Reminders `toml:"reminders"`
	AutopilotAfter int       `toml:"autopilot_after"` // missed deadlines in a row that put a seat on autopilot; 0 for never
	VacationDays   int       `toml:"vacation_days"`   // days of vacation a player may take per calendar year; 0 for none
	// DefaultPlayer is who moves for a player who does not: at a
	// deadline, on autopilot and in a resigned seat.
	DefaultPlayer    DefaultPlayer `toml:"default_player"`
	MaxMessageBytes  int64         `toml:"max_message_bytes"` // larger inbound mail is refused
	RefusalWindow    Duration      `toml:"refusal_window"`    // refusals to one address per window...
	RefusalMax       int           `toml:"refusal_max"`       // ...at most this many
	DeadlineSchedule string        `toml:"deadline_schedule"` // cron spec of the deadline sweep
	Admins           string        `toml:"admins"`            // comma-separated addresses that may repair games by mail
	AdminToken       string        `toml:"admin_token"`       // secret: admins write to LOCAL+TOKEN@DOMAIN; empty turns admin mail off
	// TrustAuthenticationResults is the authserv-id of the receiving mail
	// server whose Authentication-Results pbem trusts; empty: none.
	TrustAuthenticationResults string `toml:"trust_authentication_results"`
}

// DefaultPlayer chooses who makes the moves of a player who does not
// make them himself (service.default_player).
type DefaultPlayer string

const (
	// DefaultPlayerBot: pbem's bot at level normal (engine/bot), which
	// plays the seat as well as it can from what the seat may see.
	DefaultPlayerBot DefaultPlayer = "bot"
	// DefaultPlayerSimple: each game's fixed default move (Game.Default),
	// the cheapest legal move, as pbem did before it had a bot.
	DefaultPlayerSimple DefaultPlayer = "simple"
)

// Store is the database.
type Store struct {
	// Database is the path of a SQLite file, or the URL of a PostgreSQL
	// database (postgres://… or postgresql://…).
	Database string `toml:"database"`
}

// IMAP is where players' mail is read.
type IMAP struct {
	Addr         string   `toml:"addr"` // host:port; empty runs the embedded servers
	Username     string   `toml:"username"`
	Password     string   `toml:"password"`
	Security     string   `toml:"security"`  // none, starttls or tls
	Mailbox      string   `toml:"mailbox"`   // folder to read
	Processed    string   `toml:"processed"` // $Keyword to flag, or a folder to move handled mail to
	PollInterval Duration `toml:"poll_interval"`
}

// LMTP makes pbem an LMTP server the mail server delivers to, beside
// or instead of the IMAP mailbox (docs/operations.md, "Mail delivered by
// LMTP").
type LMTP struct {
	// Addr is a loopback TCP address (127.0.0.1:2424) or unix:PATH;
	// empty: no LMTP server.
	Addr string `toml:"addr"`
}

// SMTP is where pbem's mail is sent.
type SMTP struct {
	Addr     string `toml:"addr"`
	Username string `toml:"username"` // empty: no authentication
	Password string `toml:"password"`
	Security string `toml:"security"` // none, starttls or tls
	HELO     string `toml:"helo"`
	// DKIMKey and DKIMSelector sign every mail pbem sends; both or neither.
	DKIMKey      string `toml:"dkim_key"`      // PEM private key file (RSA or Ed25519)
	DKIMSelector string `toml:"dkim_selector"` // the key's selector in DNS
}

// Embedded configures the in-process mail servers used when [imap] has
// no address.
type Embedded struct {
	IMAPAddr string `toml:"imap_addr"`
	SMTPAddr string `toml:"smtp_addr"`
	Domain   string `toml:"domain"`
	// Password is every user's; empty: a random one, made at the first
	// start, kept in MailDir/password and printed at every start.
	Password string `toml:"password"`
	// MailDir is where the embedded servers keep their mail, so it survives
	// a restart; empty: the database path with ".mail" added (pbem.db.mail).
	MailDir string `toml:"mail_dir"`
	// WebAddr is where the seat pages are served, on loopback, when pbem
	// runs its embedded servers and [web] is not set: a first game's
	// mails then carry a link that opens (see Config.applyEmbeddedWeb).
	// Empty: no pages unless [web] says so.
	WebAddr string `toml:"web_addr"`
}

// applyEmbeddedWeb turns the seat pages on at embedded.web_addr for a pbem
// that runs its embedded servers and whose [web] is not set, so that the
// quick start's first game links each seat's page. A [web] section of its
// own, or a real mail server, is left as it is.
func (c *Config) applyEmbeddedWeb() {
	if !c.UsesEmbedded() || c.Web.Addr != "" || c.Web.URL != "" || c.Embedded.WebAddr == "" {
		return
	}
	c.Web.Addr = c.Embedded.WebAddr
	c.Web.URL = "http://" + c.Embedded.WebAddr
}

// EmbeddedMailDir is the directory the embedded servers keep mail in.
func (c Config) EmbeddedMailDir() string {
	if c.Embedded.MailDir != "" {
		return c.Embedded.MailDir
	}
	if dbsetting.IsURL(c.Store.Database) {
		return "pbem.mail" // a URL is no path to put it beside
	}
	return c.Store.Database + ".mail"
}

// Log configures logging.
type Log struct {
	Level  string `toml:"level"`  // debug, info, warn, error
	Format string `toml:"format"` // text or json
}

// Metrics configures the optional listener serving Prometheus metrics at
// /metrics and a health check at /healthz.
type Metrics struct {
	Addr string `toml:"addr"` // host:port such as 127.0.0.1:9464; empty: no listener
	// IMAPStaleAfter: /healthz fails when the mailbox has not been searched
	// for this long (counted from start until the first search).
	IMAPStaleAfter Duration `toml:"imap_stale_after"`
	// OutboxStuckAfter: /healthz fails when a due mail has waited this long.
	OutboxStuckAfter Duration `toml:"outbox_stuck_after"`
}

// Web configures the optional HTTP listener serving each seat's page
// (internal/web). Both keys are empty by default, and then nothing
// listens and no mail carries a link.
type Web struct {
	Addr string `toml:"addr"` // host:port the pages are served on, such as 127.0.0.1:8080
	// URL is the public base URL the links in the mails start with, such
	// as https://pbem.example.org: the address of a reverse proxy in front
	// of Addr, or Addr itself.
	URL string `toml:"url"`
	// MaxConnections bounds the listener's open connections in all (and
	// pbem keeps it under half its descriptor limit), so that a flood
	// of connections leaves descriptors to LMTP, the store and metrics.
	MaxConnections int `toml:"max_connections"`
	// MaxConnectionsPerClient bounds one client address's (an IPv6
	// client's /64): a browser opens six, and players behind one NAT
	// share an address. Behind a reverse proxy every connection comes
	// from the proxy, so this bounds the proxy's.
	MaxConnectionsPerClient int `toml:"max_connections_per_client"`
}

// check fails on a [web] section that could not serve or link a page:
// both keys or neither, host:port, and an absolute http(s) URL without
// query or fragment, so that every link in a mail leads to the pages.
func (w Web) check() error {
	if (w.Addr == "") != (w.URL == "") {
		return fmt.Errorf("config: [web] addr and url go together: set both (the pages are served on addr and linked as url) or neither")
	}
	if w.MaxConnectionsPerClient < 1 || w.MaxConnections < w.MaxConnectionsPerClient {
		return fmt.Errorf("config: [web] max_connections_per_client %d must be at least 1 and at most max_connections %d", w.MaxConnectionsPerClient, w.MaxConnections)
	}
	if w.Addr == "" {
		return nil
	}
	if _, port, err := net.SplitHostPort(w.Addr); err != nil || port == "" {
		return fmt.Errorf("config: [web] addr %q is not host:port, such as 127.0.0.1:8080", w.Addr)
	}
	u, err := url.Parse(w.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("config: [web] url %q is not an http(s) base URL such as https://pbem.example.org", w.URL)
	}
	return nil
}

// Retention says how long pbem keeps the bodies of the mail it sent and
// the details of the mail it read, and how often it drops older ones
// (docs/store.md, "Retention").
type Retention struct {
	MailBodies Duration `toml:"mail_bodies"` // 0s keeps them for ever
	Every      Duration `toml:"every"`       // how often a retention pass runs
}

// Duration is a time.Duration written as a mail's `deadline` is ("3
// days", "36 hours", "2 days 12 hours", "1 week": parser.ParseDuration)
// or as Go writes one ("72h", "90s", "1h30m"), which configurations
// have always used and which alone has seconds and less.
type Duration struct{ time.Duration }

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := parseDuration(string(b))
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// durationForms says how a duration may be written, for the messages
// that refuse one.
const durationForms = `write it as in mail ("3 days", "36 hours", "90 minutes", "1 week", "2 days 12 hours") or as Go does ("72h", "90s", "1h30m")`

// parseDuration reads a duration in either form Duration takes.
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if v, err := time.ParseDuration(s); err == nil {
		return v, nil
	}
	if v, ok := parser.ParseDuration(s); ok {
		return v, nil
	}
	return 0, fmt.Errorf("%q is not a duration: %s", s, durationForms)
}

func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Reminder is one step of the reminders before a deadline: either a
// duration before it ("12h": 12 hours before the deadline) or a share of
// the decision's time that has passed ("50%": halfway from the decision's
// start to its deadline). Exactly one of the fields is set.
type Reminder struct {
	Before  time.Duration // this long before the deadline
	Percent int           // when this share (1-99) of the decision's time has passed
}

// Lead is how long before the deadline the step falls due, for a decision
// of turn (the game's time for each decision).
func (r Reminder) Lead(turn time.Duration) time.Duration {
	if r.Percent > 0 {
		return (turn * time.Duration(100-r.Percent) / 100).Truncate(time.Second)
	}
	return r.Before
}

func (r Reminder) String() string {
	if r.Percent > 0 {
		return strconv.Itoa(r.Percent) + "%"
	}
	return r.Before.String()
}

// UnmarshalText reads "12h" or "50%".
func (r *Reminder) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	if p, ok := strings.CutSuffix(s, "%"); ok {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 99 {
			return fmt.Errorf("reminder %q: a share of the decision's time is 1%% to 99%%", s)
		}
		*r = Reminder{Percent: n}
		return nil
	}
	d, err := parseDuration(s)
	if err != nil || d < time.Minute {
		return fmt.Errorf("reminder %q is neither a duration of a minute or more before the deadline (12h, 12 hours, 1 day) nor a share of the decision's time (50%%)", s)
	}
	*r = Reminder{Before: d}
	return nil
}

func (r Reminder) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Reminders are the reminder steps of service.reminders. In the
// environment they are one value, separated by commas: "50%,12h"; an
// empty value sends no reminders.
type Reminders []Reminder

// parseReminders reads the environment's form, "50%,12h". (It is no
// UnmarshalText method: TOML would then want a string, not an array.)
func parseReminders(s string) (Reminders, error) {
	out := Reminders{}
	for _, f := range strings.Split(s, ",") {
		if strings.TrimSpace(f) == "" {
			continue
		}
		var r Reminder
		if err := r.UnmarshalText([]byte(f)); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// replaced names the keys pbem no longer reads, with what replaced them,
// so that an old configuration is refused with how to say it now rather
// than as an unknown key.
var replaced = map[string]string{
	"service.reminder_before":      `service.reminder_before was replaced by service.reminders, a list of steps: reminders = ["24h"] reminds once, 24 hours before a deadline, as reminder_before = "24h" did; reminders = [] sends none`,
	"PBEM_SERVICE_REMINDER_BEFORE": `PBEM_SERVICE_REMINDER_BEFORE was replaced by PBEM_SERVICE_REMINDERS, steps separated by commas: PBEM_SERVICE_REMINDERS=24h reminds once, 24 hours before a deadline; an empty value sends none`,
}

// Default is the configuration with nothing set: embedded mail servers on
// loopback and a database in the working directory. It is the one source
// of pbem's defaults (docs/configuration.md lists them): no package
// pbem configures fills in a value of its own, so every value pbem runs
// with is here, or in the file or environment that overrides it. Load
// derives one from it: on the embedded servers with no [web], the pages
// on Embedded.WebAddr (applyEmbeddedWeb).
func Default() Config {
	return Config{
		Service: Service{
			Name: "pbem", Separator: "+", TurnTime: Duration{72 * time.Hour},
			Reminders:       Reminders{{Percent: 50}, {Before: 12 * time.Hour}},
			MaxMessageBytes: 1 << 20, RefusalWindow: Duration{24 * time.Hour}, RefusalMax: 3,
			DeadlineSchedule: "@every 1m", AutopilotAfter: 2, VacationDays: 21,
			DefaultPlayer: DefaultPlayerBot,
		},
		Store:    Store{Database: "pbem.db"},
		IMAP:     IMAP{Security: "tls", Mailbox: "INBOX", Processed: "$PbemDone", PollInterval: Duration{60 * time.Second}},
		SMTP:     SMTP{Security: "starttls"},
		Embedded: Embedded{IMAPAddr: "127.0.0.1:1143", SMTPAddr: "127.0.0.1:1025", Domain: "pbem.test", WebAddr: "127.0.0.1:8080"},
		Limits: Limits{AnswersPerDay: 30, LobbyPerHour: 20, LoopPerMinute: 20, SubaddressSeparators: "+",
			InvitationsPerWeek: 3, NewInvitationsPerInviter: 10, NewInvitationsPerDay: 200},
		Outbox: Outbox{PollInterval: Duration{5 * time.Second}, Batch: 20, MaxAttempts: 12,
			RetryMin: Duration{30 * time.Second}, RetryMax: Duration{time.Hour}},
		Log:       Log{Level: "info", Format: "text"},
		Metrics:   Metrics{IMAPStaleAfter: Duration{15 * time.Minute}, OutboxStuckAfter: Duration{30 * time.Minute}},
		Retention: Retention{MailBodies: Duration{30 * 24 * time.Hour}, Every: Duration{time.Hour}},
		Lease:     Lease{TTL: Duration{15 * time.Second}},
		Runtime:   Runtime{GCPercent: 100},
		Web:       Web{MaxConnections: 1024, MaxConnectionsPerClient: 64},
	}
}

// Load reads the defaults, then the TOML file at path (if not empty),
// then the environment (a list of KEY=VALUE such as os.Environ()).
func Load(path string, environ []string) (Config, error) {
	c := Default()
	if path != "" {
		md, err := toml.DecodeFile(path, &c)
		if err != nil {
			return c, decodeError(path, err)
		}
		if keys := md.Undecoded(); len(keys) > 0 {
			if why, ok := replaced[keys[0].String()]; ok {
				return c, fmt.Errorf("config %s: %s", path, why)
			}
			return c, fmt.Errorf("config %s: unknown key %q", path, keys[0].String())
		}
	}
	if err := applyEnv(&c, environ); err != nil {
		return c, err
	}
	if err := c.checkEmbeddedWeb(); err != nil {
		return c, err
	}
	c.applyEmbeddedWeb()
	return c, c.check()
}

// WebAddrKey is the key that set Web.Addr, for a message that names the
// setting to change: embedded.web_addr when the pages are the quick
// start's (applyEmbeddedWeb), else web.addr.
func (c Config) WebAddrKey() string {
	if c.UsesEmbedded() && c.Embedded.WebAddr != "" && c.Web.Addr == c.Embedded.WebAddr && c.Web.URL == "http://"+c.Embedded.WebAddr {
		return "embedded.web_addr"
	}
	return "web.addr"
}

// checkEmbeddedWeb refuses an embedded.web_addr the pages could not be
// linked at: the links in the mails are made of it, so it needs a fixed
// port, and it stays on loopback like the embedded mail servers.
func (c Config) checkEmbeddedWeb() error {
	if c.Embedded.WebAddr == "" {
		return nil
	}
	host, port, err := net.SplitHostPort(c.Embedded.WebAddr)
	if err != nil || port == "" || port == "0" {
		return fmt.Errorf("config: [embedded] web_addr %q is not host:port with a fixed port, such as 127.0.0.1:8080 (the mails link it); empty for no pages", c.Embedded.WebAddr)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("config: [embedded] web_addr %q is not on loopback: the embedded servers are for one machine (use 127.0.0.1:PORT, or set [web] addr and url to serve the pages to others)", c.Embedded.WebAddr)
	}
	return nil
}

// decodeError is the TOML decoder's err, naming the key as the other
// messages do ("[service] turn_time") when the decoder knows it, so that
// a value refused by its own reader (a duration, a reminder) says which
// setting to change.
func decodeError(path string, err error) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) || pe.LastKey == "" {
		return fmt.Errorf("config %s: %w", path, err)
	}
	key := pe.LastKey
	if section, name, ok := strings.Cut(key, "."); ok {
		key = "[" + section + "] " + name
	}
	return fmt.Errorf("config %s: line %d: %s: %s", path, pe.Position.Line, key, pe.Message)
}

// UsesEmbedded reports whether pbem runs its own mail servers: when it
// is given neither an IMAP server to read nor an LMTP address to take
// mail at.
func (c Config) UsesEmbedded() bool { return c.IMAP.Addr == "" && c.LMTP.Addr == "" }

// ReadsIMAP reports whether pbem reads an IMAP mailbox: a real server's
// ([imap] addr) or the embedded one's.
func (c Config) ReadsIMAP() bool { return c.IMAP.Addr != "" || c.UsesEmbedded() }

// ServiceAddress is pbem's own address: [service] address, or pbem@ the
// embedded servers' domain.
func (c Config) ServiceAddress() string {
	if c.Service.Address != "" {
		return c.Service.Address
	}
	return "pbem@" + c.Embedded.Domain
}

// check refuses a configuration pbem cannot run with, naming the key to
// change. The steps run in this order, and the first refusal is the one
// reported.
func (c Config) check() error {
	for _, step := range []func() error{
		c.checkStore, c.checkMailServers, c.Service.check, c.LMTP.check, c.checkIMAP,
		c.Outbox.check, c.checkSenderAuth, c.checkLimits, c.Web.check, c.Metrics.check,
		c.checkUpkeep, c.Runtime.check,
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// checkStore refuses a database setting that is neither a path nor a
// postgres:// URL: a libpq key=value string, say, would otherwise become
// a file named after it, password and all.
func (c Config) checkStore() error {
	if _, err := dbsetting.Classify(c.Store.Database); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

// checkMailServers wants an SMTP server and pbem's own address beside a
// real mail server, and a usable plus-addressing separator.
func (c Config) checkMailServers() error {
	if !c.UsesEmbedded() {
		if c.SMTP.Addr == "" {
			if c.IMAP.Addr == "" {
				return fmt.Errorf("config: [lmtp] addr is set but [smtp] addr is not")
			}
			return fmt.Errorf("config: [imap] addr is set but [smtp] addr is not")
		}
		if c.Service.Address == "" {
			return fmt.Errorf("config: [service] address is required with a real mail server")
		}
	}
	if c.Service.Separator == "" || strings.ContainsAny(c.Service.Separator, "@ ") {
		return fmt.Errorf("config: [service] separator %q is not usable", c.Service.Separator)
	}
	return nil
}

// checkIMAP wants a mailbox to read and a positive poll interval.
func (c Config) checkIMAP() error {
	if c.IMAP.Mailbox == "" {
		return fmt.Errorf("config: [imap] mailbox is empty (INBOX is the usual one)")
	}
	if c.IMAP.PollInterval.Duration <= 0 {
		return fmt.Errorf("config: [imap] poll_interval %s must be positive", c.IMAP.PollInterval.Duration)
	}
	return nil
}

// checkSenderAuth checks the authserv-id pbem trusts and the DKIM key
// with its selector.
func (c Config) checkSenderAuth() error {
	// The authserv-id is matched as the bare first word of a field
	// (mailer.CheckAuthResults); a value with white space, ';', a comment
	// or quotes could never match, and pbem would silently refuse all mail.
	if id := c.Service.TrustAuthenticationResults; id != "" && strings.ContainsAny(id, " \t\r\n;()\"\\") {
		return fmt.Errorf("config: [service] trust_authentication_results %q is not an authserv-id (one word, such as mx.example.org)", id)
	}
	if (c.SMTP.DKIMKey == "") != (c.SMTP.DKIMSelector == "") {
		return fmt.Errorf("config: [smtp] dkim_key and dkim_selector go together")
	}
	return nil
}

// checkLimits wants every per-mailbox limit to let at least one through.
func (c Config) checkLimits() error {
	if c.Limits.AnswersPerDay < 1 || c.Limits.LobbyPerHour < 1 || c.Limits.LoopPerMinute < 1 ||
		c.Limits.InvitationsPerWeek < 1 || c.Limits.NewInvitationsPerInviter < 1 || c.Limits.NewInvitationsPerDay < 1 {
		return fmt.Errorf("config: every [limits] key must be at least 1")
	}
	return nil
}

// checkUpkeep checks the timings of the lease, retention and /healthz.
func (c Config) checkUpkeep() error {
	// A ttl is renewed every third of it, in a transaction that takes
	// milliseconds; below 30ms the lease would be lost to scheduling.
	if c.Lease.TTL.Duration < 30*time.Millisecond {
		return fmt.Errorf("config: [lease] ttl %s must be at least 30ms (15s is the usual)", c.Lease.TTL.Duration)
	}
	if c.Retention.MailBodies.Duration < 0 {
		return fmt.Errorf("config: [retention] mail_bodies %s is negative (0s keeps mail for ever)", c.Retention.MailBodies.Duration)
	}
	// A pass also checkpoints the database, which waits for readers;
	// running it more often than a minute would only add work.
	if c.Retention.Every.Duration < time.Minute {
		return fmt.Errorf("config: [retention] every %s must be at least 1m", c.Retention.Every.Duration)
	}
	// pbem searches the mailbox at least once per poll interval; a
	// staleness threshold within it would fail /healthz between polls.
	if c.Metrics.Addr != "" && c.Metrics.IMAPStaleAfter.Duration <= c.IMAP.PollInterval.Duration {
		return fmt.Errorf("config: [metrics] imap_stale_after %s must be longer than [imap] poll_interval %s",
			c.Metrics.IMAPStaleAfter.Duration, c.IMAP.PollInterval.Duration)
	}
	return nil
}

// Keys lists every key as its environment variable, for documentation and
// tests: PBEM_SERVICE_ADDRESS, ...
func Keys() []string {
	var out []string
	walk(reflect.ValueOf(&Config{}).Elem(), func(env string, _ reflect.Value) { out = append(out, env) })
	return out
}

// walk calls f for every setting with its environment variable name.
func walk(v reflect.Value, f func(env string, field reflect.Value)) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		section := strings.ToUpper(t.Field(i).Tag.Get("toml"))
		sv := v.Field(i)
		st := sv.Type()
		for j := 0; j < st.NumField(); j++ {
			key := strings.ToUpper(st.Field(j).Tag.Get("toml"))
			f("PBEM_"+section+"_"+key, sv.Field(j))
		}
	}
}

// check refuses an LMTP address that is neither unix:PATH nor a TCP
// address on loopback or a private network: an LMTP port takes mail from
// anyone who reaches it, with no authentication and any sender, and must
// never face the internet (docs/operations.md). Every interface
// (0.0.0.0, ::, no host) and names other than localhost are refused for
// the same reason: what they reach cannot be told here.
func (l LMTP) check() error {
	if l.Addr == "" {
		return nil
	}
	if path, ok := strings.CutPrefix(l.Addr, "unix:"); ok {
		if path == "" {
			return fmt.Errorf("config: [lmtp] addr %q names no socket (unix:/run/pbem/lmtp.sock)", l.Addr)
		}
		return nil
	}
	host, _, err := net.SplitHostPort(l.Addr)
	if err != nil {
		return fmt.Errorf("config: [lmtp] addr %q is neither host:port nor unix:PATH", l.Addr)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !(ip.IsLoopback() || ip.IsPrivate())) {
		return fmt.Errorf("config: [lmtp] addr %q is not on loopback or a private network: an LMTP port takes mail from anyone who reaches it and must never face the internet (use 127.0.0.1:PORT or unix:PATH)", l.Addr)
	}
	return nil
}

func applyEnv(c *Config, environ []string) error {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "PBEM_") {
			env[k] = v
		}
	}
	var err error
	walk(reflect.ValueOf(c).Elem(), func(name string, f reflect.Value) {
		val, ok := env[name]
		if !ok || err != nil {
			return
		}
		delete(env, name)
		switch f.Kind() {
		case reflect.String:
			f.SetString(val)
		case reflect.Int, reflect.Int64:
			n, perr := strconv.ParseInt(val, 10, 64)
			if perr != nil {
				err = fmt.Errorf("config: %s=%q is not a whole number", name, val)
				return
			}
			f.SetInt(n)
		case reflect.Slice: // Reminders
			rs, perr := parseReminders(val)
			if perr != nil {
				err = fmt.Errorf("config: %s=%q: %w", name, val, perr)
				return
			}
			f.Set(reflect.ValueOf(rs))
		case reflect.Struct: // Duration
			var d Duration
			if perr := d.UnmarshalText([]byte(val)); perr != nil {
				err = fmt.Errorf("config: %s=%q is not a duration: %s", name, val, durationForms)
				return
			}
			f.Set(reflect.ValueOf(d))
		}
	})
	if err != nil {
		return err
	}
	for k := range env {
		if why, ok := replaced[k]; ok {
			return fmt.Errorf("config: %s", why)
		}
		// PBEM_TEST_… are the tests' (PBEM_TEST_POSTGRES names their
		// PostgreSQL server), which the pbem they run must not refuse.
		if k != "PBEM_CONFIG" && !strings.HasPrefix(k, "PBEM_TEST_") {
			return fmt.Errorf("config: unknown environment variable %s", k)
		}
	}
	return nil
}

// check fails on a [service] value that has no meaning: these were once
// quietly replaced by defaults, and now say what is wrong.
func (s Service) check() error {
	switch {
	case s.Name == "":
		return fmt.Errorf("config: [service] name is empty")
	case s.TurnTime.Duration <= 0:
		return fmt.Errorf("config: [service] turn_time %s must be positive", s.TurnTime.Duration)
	case len(s.Reminders) > maxReminders:
		return fmt.Errorf("config: [service] reminders has %d steps; at most %d", len(s.Reminders), maxReminders)
	case s.AutopilotAfter < 0:
		return fmt.Errorf("config: [service] autopilot_after %d is negative (0 never puts a seat on autopilot)", s.AutopilotAfter)
	case s.DefaultPlayer != DefaultPlayerBot && s.DefaultPlayer != DefaultPlayerSimple:
		return fmt.Errorf("config: [service] default_player %q is neither %q nor %q", s.DefaultPlayer, DefaultPlayerBot, DefaultPlayerSimple)
	case s.VacationDays < 0:
		return fmt.Errorf("config: [service] vacation_days %d is negative (0 allows no vacation)", s.VacationDays)
	case s.VacationDays > 366:
		return fmt.Errorf("config: [service] vacation_days %d is more than a year", s.VacationDays)
	case s.MaxMessageBytes < 1:
		return fmt.Errorf("config: [service] max_message_bytes %d must be at least 1", s.MaxMessageBytes)
	case s.RefusalWindow.Duration <= 0:
		return fmt.Errorf("config: [service] refusal_window %s must be positive", s.RefusalWindow.Duration)
	case s.RefusalMax < 1:
		return fmt.Errorf("config: [service] refusal_max %d must be at least 1", s.RefusalMax)
	case s.DeadlineSchedule == "":
		return fmt.Errorf("config: [service] deadline_schedule is empty (such as @every 1m)")
	}
	return nil
}

// maxReminders bounds the reminder steps: each is a mail to every player
// waited on, and pbem must not be a way to mail people without end.
const maxReminders = 5

// check fails on an [outbox] section that would never send, or never stop
// trying.
func (o Outbox) check() error {
	switch {
	case o.PollInterval.Duration <= 0:
		return fmt.Errorf("config: [outbox] poll_interval %s must be positive", o.PollInterval.Duration)
	case o.Batch < 1 || o.MaxAttempts < 1:
		return fmt.Errorf("config: [outbox] batch and max_attempts must be at least 1")
	case o.RetryMin.Duration <= 0 || o.RetryMax.Duration < o.RetryMin.Duration:
		return fmt.Errorf("config: [outbox] retry_min %s must be positive and retry_max %s at least as long", o.RetryMin.Duration, o.RetryMax.Duration)
	}
	return nil
}

// check fails on a [metrics] section the listener could not use, so that a
// mistake shows at start rather than as a listener that never comes up or
// a health check that always fails.
func (m Metrics) check() error {
	if m.Addr != "" {
		// The port may be "0" (any free port), but host:port must parse.
		if _, port, err := net.SplitHostPort(m.Addr); err != nil || port == "" {
			return fmt.Errorf("config: [metrics] addr %q is not host:port, such as 127.0.0.1:9464", m.Addr)
		}
	}
	// A threshold of zero would make /healthz fail on every scrape.
	if m.IMAPStaleAfter.Duration < time.Second {
		return fmt.Errorf("config: [metrics] imap_stale_after %s must be at least 1s", m.IMAPStaleAfter.Duration)
	}
	if m.OutboxStuckAfter.Duration < time.Second {
		return fmt.Errorf("config: [metrics] outbox_stuck_after %s must be at least 1s", m.OutboxStuckAfter.Duration)
	}
	return nil
}

// Bounds of runtime.gc_percent: below the lower one the collector runs
// more often than Go's own default would need, above the upper one the
// heap grows past anything pbem's memory target allows.
const (
	minGCPercent = 25
	maxGCPercent = 1000
)

func (r Runtime) check() error {
	if r.GCPercent < minGCPercent || r.GCPercent > maxGCPercent {
		return fmt.Errorf("config: [runtime] gc_percent %d must be between %d and %d", r.GCPercent, minGCPercent, maxGCPercent)
	}
	if _, err := r.MemoryLimitBytes(); err != nil {
		return err
	}
	return nil
}

// minMemoryLimit is the least runtime.memory_limit: below it the
// collector would run all the time on any load.
const minMemoryLimit = 16 << 20

// MemoryLimitBytes is MemoryLimit in bytes; 0 when it is empty. It is
// written as GOMEMLIMIT is: a whole number with an optional unit, B,
// KiB, MiB, GiB or TiB.
func (r Runtime) MemoryLimitBytes() (int64, error) {
	v := strings.TrimSpace(r.MemoryLimit)
	if v == "" {
		return 0, nil
	}
	n, err := parseBytes(v)
	if err != nil {
		return 0, fmt.Errorf("config: [runtime] memory_limit %q: %w", r.MemoryLimit, err)
	}
	if n < minMemoryLimit {
		return 0, fmt.Errorf("config: [runtime] memory_limit %q must be at least 16MiB", r.MemoryLimit)
	}
	return n, nil
}

// parseBytes reads a size as GOMEMLIMIT does: a whole number of bytes,
// or one followed by B, KiB, MiB, GiB or TiB.
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := s, uint(0)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || num != strings.TrimSpace(num) {
		return 0, errors.New("not a size such as 96MiB (a whole number and B, KiB, MiB, GiB or TiB)")
	}
	if n > math.MaxInt64>>shift {
		return 0, errors.New("too large")
	}
	return n << shift, nil
}
