package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/internal/metrics"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/internal/web"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/internal/wiring"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/mailer/embedded"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// loadConfig reads --config (or $PBEM_CONFIG) and the environment. The
// flags may stand anywhere among args (parseInterspersed); fs.Args() is the
// rest. --help gives a *helpError: usage on standard output, exit 0.
func loadConfig(fs *flag.FlagSet, args []string) (config.Config, error) {
	path := fs.String("config", os.Getenv("PBEM_CONFIG"), "TOML configuration file (default $PBEM_CONFIG)")
	if _, err := parseInterspersed(fs, args); err != nil {
		return config.Config{}, err
	}
	return config.Load(*path, os.Environ())
}

func newLogger(w io.Writer, c config.Log) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.Level)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if strings.EqualFold(c.Format, "json") {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func runServe(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to FILE (for docs/profiles.md)")
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return err
	}
	log := newLogger(e.stderr, cfg.Log)
	if err := setGC(cfg.Runtime, os.Getenv, log); err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	err = serve(ctx, e, cfg, log)
	if ctx.Err() != nil {
		// A stop, even one that came while pbem was starting, is not a
		// failure: what had begun was finished or never started.
		log.Info("pbem stopped")
		return nil
	}
	return err
}

// serve runs the service until ctx is done. It first checks what the
// configuration points at, as pbem check does: the database's directory,
// the IMAP login and the SMTP session. A mistake there stops pbem at
// once with the key to change, rather than letting it accept games whose
// mail it cannot send.
func serve(ctx context.Context, e *env, cfg config.Config, log *slog.Logger) error {
	if err := checkDatabase(cfg.Store.Database); err != nil {
		return err
	}
	address := cfg.ServiceAddress()
	inCfg, outCfg := mailConfigs(cfg, log)
	if !cfg.UsesEmbedded() {
		if err := checkMail(ctx, cfg, inCfg, outCfg, io.Discard); err != nil {
			return err
		}
		log.Info("mail servers checked", "imap", inCfg.Addr, "lmtp", cfg.LMTP.Addr, "smtp", outCfg.Addr)
	}
	// Opening migrates the schema: a stop must not cut a migration short
	// (it would be rolled back and run again, at the cost of its time).
	st, err := store.Open(context.WithoutCancel(ctx), cfg.Store.Database)
	if err != nil {
		return err
	}
	defer st.Close()

	// Every node reads the IMAP mailbox and runs retention only while it
	// holds the reader lease, and sends its outbox and sweeps always
	// (docs/operations.md, "Several nodes on one database"); alone on its
	// database, a node takes the lease at once.
	lease := wiring.LeaseFrom(cfg)
	svcOpts := []daemon.Option{daemon.WithLogger(log), daemon.WithLease(lease)}
	var m *metrics.Metrics
	if cfg.Metrics.Addr != "" {
		mopts := []metrics.Option{metrics.WithLogger(log), metrics.WithNode(lease.Node),
			metrics.WithIMAPStaleAfter(cfg.Metrics.IMAPStaleAfter.Duration),
			metrics.WithOutboxStuckAfter(cfg.Metrics.OutboxStuckAfter.Duration)}
		if !cfg.ReadsIMAP() {
			mopts = append(mopts, metrics.WithoutIMAP()) // mail by LMTP only
		}
		m = metrics.New(st, mopts...)
		svcOpts = append(svcOpts, daemon.WithObserver(m))
		inCfg.Observer = m
	}
	svc, err := daemon.New(wiring.ConfigFrom(cfg), st, mustTemplates(), games.Lookup, games.Names(), svcOpts...)
	if err != nil {
		return err
	}
	// One node per name (docs/security.md): before it listens anywhere
	// or says anything under node.name, a node takes the name, and
	// refuses to start if a live node holds it.
	if err := svc.TakeNodeName(ctx); err != nil {
		return err
	}
	defer svc.ReleaseNodeName(ctx)

	if cfg.UsesEmbedded() {
		srv, err := startEmbedded(ctx, e, cfg, log)
		if err != nil {
			return err
		}
		defer srv.Close()
		inCfg.Addr, inCfg.Username, inCfg.Password, inCfg.Security = srv.IMAPAddr(), address, srv.Password(), mailer.SecurityNone
		outCfg = mailer.SenderConfig{Addr: srv.SMTPAddr(), Security: mailer.SecurityNone}
	}
	if m != nil {
		// Listen here, not in the goroutine, so that a port in use stops
		// pbem at start rather than leaving it running unobserved.
		ln, err := net.Listen("tcp", cfg.Metrics.Addr)
		if err != nil {
			return wiring.NewListenError("metrics.addr", cfg.Metrics.Addr, err)
		}
		// The listener stops with runServe, and is waited for before the
		// deferred st.Close, so that no scrape reads a closed store.
		mctx, stop := context.WithCancel(ctx)
		served := make(chan struct{})
		defer func() { stop(); <-served }()
		go func() {
			defer close(served)
			if err := m.Serve(mctx, ln); err != nil {
				log.Error("metrics listener stopped", "error", err)
			}
		}()
		log.Info("metrics listening", "addr", ln.Addr().String(), "paths", "/metrics /healthz")
	}
	if cfg.Web.Addr != "" {
		// As the metrics: listen here, so that a port in use stops pbem
		// at start, and stop before the deferred st.Close.
		ln, err := net.Listen("tcp", cfg.Web.Addr)
		if err != nil {
			return wiring.NewListenError(cfg.WebAddrKey(), cfg.Web.Addr, err)
		}
		wctx, stop := context.WithCancel(ctx)
		served := make(chan struct{})
		defer func() { stop(); <-served }()
		pages := web.New(svc.Pages(), web.WithLogger(log), web.WithNoPage(func(err error) bool { return errors.Is(err, webpage.ErrNoPage) }),
			web.WithConnLimits(cfg.Web.MaxConnectionsPerClient, cfg.Web.MaxConnections), web.WithUnsubscribe(svc),
			web.WithAddressConfirm(svc), web.WithCalendar(svc))
		go func() {
			defer close(served)
			if err := pages.Serve(wctx, ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("web listener stopped", "error", err)
			}
		}()
		log.Info("web pages listening", "addr", ln.Addr().String(), "url", cfg.Web.URL)
	}
	// IMAP, LMTP or both (docs/operations.md, "Mail delivered by LMTP"):
	// a mail both hand over is applied once, by its Message-ID.
	var inboxes []daemon.Inbox
	if cfg.ReadsIMAP() {
		inbox, err := mailer.NewInbox(inCfg, svc)
		if err != nil {
			return err
		}
		inboxes = append(inboxes, inbox)
	}
	if cfg.LMTP.Addr != "" {
		lmtp, err := mailer.NewLMTPServer(wiring.LMTPFrom(cfg, svc, log))
		if err != nil {
			return wiring.NewListenError("lmtp.addr", cfg.LMTP.Addr, err)
		}
		inboxes = append(inboxes, lmtp)
		log.Info("lmtp listening", "addr", lmtp.Addr())
	}
	sender, err := mailer.NewSender(outCfg)
	if err != nil {
		return err
	}
	// Run returns once the outbox has marked its last batch: then the
	// idle SMTP sessions can say QUIT.
	defer sender.Close()
	var courier outbox.Courier = sender
	if cfg.SMTP.DKIMKey != "" {
		_, domain, _ := strings.Cut(address, "@")
		signer, err := mailer.LoadDKIMSigner(cfg.SMTP.DKIMKey, cfg.SMTP.DKIMSelector, domain)
		if err != nil {
			return err
		}
		courier = outbox.CourierFunc(signer.Wrap(sender.Send))
	}
	log.Info("pbem serving", "node", lease.Node, "address", address, "database", store.Redact(cfg.Store.Database), "imap", inCfg.Addr, "lmtp", cfg.LMTP.Addr, "smtp", outCfg.Addr, "dkim", cfg.SMTP.DKIMKey != "")
	return svc.Run(ctx, inboxes, courier, wiring.OutboxFrom(cfg), cfg.Service.DeadlineSchedule)
}

// startEmbedded starts the embedded mail servers and tells the person
// at the terminal how to use them. The servers outlive the signal:
// pbem's own IMAP session logs out of them before the caller's deferred
// Close stops them, so that a stop leaves no broken connection behind.
func startEmbedded(ctx context.Context, e *env, cfg config.Config, log *slog.Logger) (*embedded.Servers, error) {
	srv, err := embedded.Start(context.WithoutCancel(ctx), embedded.Config{
		IMAPAddr: cfg.Embedded.IMAPAddr, SMTPAddr: cfg.Embedded.SMTPAddr,
		Domain: cfg.Embedded.Domain, Password: cfg.Embedded.Password, Logger: log,
		Dir: cfg.EmbeddedMailDir(),
	})
	if err != nil {
		return nil, embeddedStartError(err)
	}
	fmt.Fprint(e.stdout, srv.Instructions())
	fmt.Fprintf(e.stdout, "\npbem reads %s. To start a game, mail it from alice@%s:\n  new felix with bob@%s carol@%s\n\n",
		cfg.ServiceAddress(), srv.Domain(), srv.Domain(), srv.Domain())
	if cfg.Web.URL != "" {
		fmt.Fprintf(e.stdout, "Every game mail links its seat's page, served at %s (the setting %s).\n\n", cfg.Web.URL, cfg.WebAddrKey())
	}
	return srv, nil
}

// embeddedStartError names the key of the address an embedded server
// could not listen on; other errors (the mail directory) say their own.
func embeddedStartError(err error) error {
	var le *embedded.ListenError
	if !errors.As(err, &le) {
		return err
	}
	return wiring.NewListenError("embedded."+le.Server+"_addr", le.Addr, le.Err)
}

// mustTemplates loads the embedded templates; they are part of the binary,
// so failing to parse them is a bug caught by every test.
func mustTemplates() *templates.Renderer {
	r, err := templates.New(games.All())
	if err != nil {
		panic(err)
	}
	return r
}
