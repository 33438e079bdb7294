package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// runCheck is `pbem check`: the checks `pbem serve` makes before it
// accepts work, and nothing else. Exit status 0 when all pass, 1 with
// the first failure, which names the configuration key to change.
func runCheck(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return err
	}
	if err := checkDatabase(cfg.Store.Database); err != nil {
		return err
	}
	if store.IsURL(cfg.Store.Database) {
		if err := store.Reachable(ctx, cfg.Store.Database); err != nil {
			return fmt.Errorf("store.database: %w", err)
		}
		fmt.Fprintf(e.stdout, "store.database: %s answers\n", store.Redact(cfg.Store.Database))
	} else {
		fmt.Fprintf(e.stdout, "store.database: %s can be created or opened\n", cfg.Store.Database)
	}
	if cfg.UsesEmbedded() {
		fmt.Fprintln(e.stdout, "imap.addr is empty: pbem serve runs its embedded mail servers, nothing to check")
		return nil
	}
	inCfg, outCfg := mailConfigs(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := checkMail(ctx, cfg, inCfg, outCfg, e.stdout); err != nil {
		return err
	}
	var resolver mailer.TXTResolver = net.DefaultResolver
	if e.resolver != nil {
		resolver = e.resolver
	}
	return checkSenderAuth(ctx, cfg, resolver, e.stdout)
}

// txtResolver is env's resolver: the DNS pbem check looks at.
type txtResolver = mailer.TXTResolver

// checkSenderAuth loads the DKIM key as pbem serve does, failing as it
// would, then says how receivers will judge pbem's mail: DKIM, its
// alignment with the From domain, SPF and DMARC. What DNS says does not
// change the exit status: it is the domain's, and may lag.
func checkSenderAuth(ctx context.Context, cfg config.Config, r mailer.TXTResolver, w io.Writer) error {
	// As pbem serve: it signs for the domain of its own address.
	_, domain, _ := strings.Cut(cfg.ServiceAddress(), "@")
	var signer *mailer.DKIMSigner
	if cfg.SMTP.DKIMKey != "" {
		s, err := mailer.LoadDKIMSigner(cfg.SMTP.DKIMKey, cfg.SMTP.DKIMSelector, domain)
		if err != nil {
			return fmt.Errorf("smtp.dkim_key (PBEM_SMTP_DKIM_KEY): %w", err)
		}
		signer = s
	}
	trouble := 0
	for _, f := range mailer.CheckSenderAuth(ctx, r, mailer.SenderAuth{FromDomain: domain, Signer: signer}) {
		fmt.Fprintf(w, "%s: %s\n", f.Topic, f.Sentence)
		if f.Trouble {
			trouble++
		}
	}
	if trouble > 0 {
		fmt.Fprintf(w, "mail authentication: %d of the findings above to act on (docs/operations.md, \"SPF, DKIM and DMARC for a pbem host\"); they do not change pbem check's exit status\n", trouble)
	}
	return nil
}

// mailConfigs are the inbox's and the sender's configuration for a real
// mail server, as cfg says.
func mailConfigs(cfg config.Config, log *slog.Logger) (mailer.InboxConfig, mailer.SenderConfig) {
	in := mailer.InboxConfig{
		Addr: cfg.IMAP.Addr, Username: cfg.IMAP.Username, Password: cfg.IMAP.Password,
		Security: mailer.Security(cfg.IMAP.Security), Mailbox: cfg.IMAP.Mailbox, Processed: cfg.IMAP.Processed,
		PollInterval: cfg.IMAP.PollInterval.Duration, MaxSize: cfg.Service.MaxMessageBytes, Logger: log,
	}
	out := mailer.SenderConfig{
		Addr: cfg.SMTP.Addr, Username: cfg.SMTP.Username, Password: cfg.SMTP.Password,
		Security: mailer.Security(cfg.SMTP.Security), HELO: cfg.SMTP.HELO,
	}
	return in, out
}

// checkDatabase fails, naming store.database, when the database file
// cannot be made where it is configured: SQLite would only say "unable
// to open database file (14)".
func checkDatabase(path string) error {
	if store.IsURL(path) {
		return nil // a server's database: Reachable checks it
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("store.database is %q, but the directory %s does not exist: create it, writable by pbem, or set store.database (PBEM_STORE_DATABASE) to a file in one that does", path, dir)
	case err != nil:
		return fmt.Errorf("store.database is %q, but its directory cannot be read: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("store.database is %q, but %s is not a directory: set store.database (PBEM_STORE_DATABASE) to a file in a directory", path, dir)
	}
	// SQLite writes its journal (-wal, -shm) beside the file. Only a
	// refusal is the configuration's fault: a full disk is waited out
	// (docs/operations.md), and an empty file needs no room anyway.
	f, err := os.CreateTemp(dir, ".pbem-check-*")
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return fmt.Errorf("store.database is %q, but pbem may not write in %s (SQLite keeps its journal beside the file): %w", path, dir, err)
	}
	if err == nil {
		f.Close()
		os.Remove(f.Name())
	}
	return nil
}

// checkMail logs in to the IMAP server and opens an SMTP session as
// pbem serve will, and says what it found on out. The first failure is
// returned, explained in terms of the configuration keys to change.
func checkMail(ctx context.Context, cfg config.Config, in mailer.InboxConfig, out mailer.SenderConfig, w io.Writer) error {
	if cfg.ReadsIMAP() {
		report, err := mailer.CheckIMAP(ctx, in)
		if err != nil {
			return explainCheck(cfg, err)
		}
		fmt.Fprintf(w, "imap: logged in to %s as %s (%s), mailbox %s selected\n", in.Addr, in.Username, security(report.TLS), cfg.IMAP.Mailbox)
	} else {
		fmt.Fprintf(w, "imap: none (mail comes by LMTP at %s)\n", cfg.LMTP.Addr)
	}
	sender, err := mailer.NewSender(out)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	report, err := sender.Check(ctx, cfg.ServiceAddress())
	if err != nil {
		return explainCheck(cfg, err)
	}
	auth := "no AUTH"
	if report.Auth != "" {
		auth = "AUTH " + report.Auth + " as " + out.Username
	}
	fmt.Fprintf(w, "smtp: %s (%s, %s) takes mail from and to %s\n", out.Addr, security(report.TLS), auth, cfg.ServiceAddress())
	return nil
}

func security(tls bool) string {
	if tls {
		return "TLS"
	}
	return "no TLS"
}

// explainCheck turns a failed check into a message that names the
// configuration keys to change.
func explainCheck(cfg config.Config, err error) error {
	var ce *mailer.CheckError
	if !errors.As(err, &ce) {
		return err
	}
	switch ce.Server + " " + string(ce.Step) {
	case "imap connect":
		return fmt.Errorf("cannot connect to the IMAP server %s (imap.addr): %v", ce.Addr, ce.Err)
	case "imap tls":
		return fmt.Errorf("IMAP server %s with imap.security = %q: %v; use \"tls\" for a port that starts with TLS (993), \"starttls\" for one that offers STARTTLS (143)", ce.Addr, cfg.IMAP.Security, ce.Err)
	case "imap login":
		return fmt.Errorf("the IMAP server %s refused the login as %q: check imap.username and imap.password (PBEM_IMAP_PASSWORD): %v", ce.Addr, cfg.IMAP.Username, ce.Err)
	case "imap mailbox":
		return fmt.Errorf("the IMAP server %s has no mailbox %q to read (imap.mailbox): %v", ce.Addr, cfg.IMAP.Mailbox, ce.Err)
	case "smtp connect":
		return fmt.Errorf("cannot connect to the SMTP server %s (smtp.addr): %v", ce.Addr, ce.Err)
	case "smtp tls":
		return fmt.Errorf("SMTP server %s with smtp.security = %q: %v; use \"starttls\" for a port that offers STARTTLS (587), \"tls\" for one that starts with TLS (465)", ce.Addr, cfg.SMTP.Security, ce.Err)
	case "smtp no-auth":
		hint := "leave smtp.username and smtp.password empty if it takes pbem's mail without a login, or set smtp.addr to its submission port (587)"
		if !ce.TLS {
			hint = "many servers offer AUTH only after STARTTLS: set smtp.security = \"starttls\"; or " + hint
		}
		return fmt.Errorf("smtp.username is set, but the SMTP server %s %v: %s", ce.Addr, ce.Err, hint)
	case "smtp login":
		return fmt.Errorf("the SMTP server %s refused AUTH as %q: check smtp.username and smtp.password (PBEM_SMTP_PASSWORD): %v", ce.Addr, cfg.SMTP.Username, ce.Err)
	case "smtp envelope":
		if ce.AuthRequired && cfg.SMTP.Username == "" {
			return fmt.Errorf("the SMTP server %s refuses pbem's mail without a login (%v): set smtp.username and smtp.password, as a submission port (587) wants", ce.Addr, ce.Err)
		}
		return fmt.Errorf("the SMTP server %s refuses mail from or to pbem's address %s (service.address; may smtp.username send as it?): %v", ce.Addr, cfg.ServiceAddress(), ce.Err)
	}
	return err
}
