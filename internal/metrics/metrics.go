// Package metrics is pbem's optional operations listener: Prometheus
// metrics at /metrics and a health check at /healthz.
//
// [Metrics] implements daemon.Observer and mailer.InboxObserver, counting
// what the turn loop and the inbox report. What the store knows (games by
// status, the outbox) is read only when Prometheus scrapes or /healthz is
// asked, so it costs nothing in between.
//
// Every Metrics has its own registry: nothing is registered globally, so
// two services (or two tests) in one process do not collide.
package metrics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/internal/lease"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// Defaults of the health thresholds, as in config.Default.
const (
	DefaultIMAPStaleAfter   = 15 * time.Minute
	DefaultOutboxStuckAfter = 30 * time.Minute
)

// scrapeTimeout bounds the store queries of one scrape or health check, so
// that a database locked by another process makes a scrape fail rather than
// pile up behind it.
const scrapeTimeout = 5 * time.Second

// shutdownTimeout bounds how long Serve waits for requests in flight once
// its context is done; scrapes are short, so this is generous.
const shutdownTimeout = 5 * time.Second

// Label values known in advance. Their series are created at zero, so that
// an alert on increase() sees the first event rather than a series
// appearing from nothing.
var (
	inboundOutcomes  = []string{string(daemon.OutcomeApplied), string(daemon.OutcomeAnswered), string(daemon.OutcomeRefused), string(daemon.OutcomeIgnored), string(daemon.OutcomeUnusable), string(daemon.OutcomeFailed)}
	asideWhats       = []string{string(daemon.AsideMail), string(daemon.AsideDeadline), string(daemon.AsideReminder), string(daemon.AsideDigest)}
	sendFailClasses  = []string{string(outbox.SendTemporary), string(outbox.SendPermanent)}
	knownGameStatus  = []string{"inviting", "active", "paused", "finished", "aborted", "declined"}
	sweepBucketsSecs = prometheus.ExponentialBuckets(0.001, 4, 9) // 1ms to about 65s
)

// Metrics counts what pbem does and serves it. Its observer methods are
// safe for concurrent use and do not block.
type Metrics struct {
	st  *store.Store
	log *slog.Logger
	now func() time.Time

	imapStaleAfter   time.Duration
	noIMAP           bool // WithoutIMAP
	outboxStuckAfter time.Duration
	// node is this node's name in the reader lease (WithNode); "" when
	// pbem takes part in none.
	node string

	started time.Time
	// readerSince is the unix-nanosecond time this node last took the
	// reader lease, -1 while it does not hold it (WithNode only): the
	// mailbox's age counts from then, and not at all without it.
	readerSince atomic.Int64
	// lastSearch is the unix-nanosecond time of the last answered IMAP
	// search; 0 until the first.
	lastSearch atomic.Int64
	// connectedOnce tells the first IMAP session, which is no reconnect,
	// from the others.
	connectedOnce atomic.Bool

	reg            *prometheus.Registry
	inbound        *prometheus.CounterVec
	setAside       *prometheus.CounterVec
	gamesSetAside  prometheus.Counter
	sent           prometheus.Counter
	sendFailures   *prometheus.CounterVec
	sweepDuration  prometheus.Histogram
	sweepDue       prometheus.Gauge
	imapReconnects prometheus.Counter
	leaseHeld      prometheus.Gauge
}

var (
	_ daemon.Observer      = (*Metrics)(nil)
	_ mailer.InboxObserver = (*Metrics)(nil)
	_ lease.Observer       = (*Metrics)(nil)
	_ prometheus.Collector = storeCollector{}
)

// Option configures New.
type Option func(*Metrics)

// WithClock sets the clock read for ages and health, for tests; the
// default is time.Now.
func WithClock(now func() time.Time) Option { return func(m *Metrics) { m.now = now } }

// WithLogger sets where scrape errors are logged; the default discards.
func WithLogger(l *slog.Logger) Option { return func(m *Metrics) { m.log = l } }

// WithIMAPStaleAfter sets how long the mailbox may go unsearched before
// /healthz fails; until the first search it counts from New.
func WithIMAPStaleAfter(d time.Duration) Option {
	return func(m *Metrics) { m.imapStaleAfter = d }
}

// WithoutIMAP says pbem reads no mailbox (its mail comes by LMTP only):
// /healthz then does not wait for IMAP searches that never come.
func WithoutIMAP() Option { return func(m *Metrics) { m.noIMAP = true } }

// WithOutboxStuckAfter sets how long a due mail may wait in the outbox
// before /healthz fails.
func WithOutboxStuckAfter(d time.Duration) Option {
	return func(m *Metrics) { m.outboxStuckAfter = d }
}

// WithNode says that pbem takes part in the reader lease as node
// (daemon.WithLease): the metrics and /healthz then say who holds it,
// and /healthz looks at the mailbox's age only while this node does.
func WithNode(node string) Option { return func(m *Metrics) { m.node = node } }

// New makes the metrics of a service using st, in a registry of their own.
func New(st *store.Store, opts ...Option) *Metrics {
	m := &Metrics{
		st:               st,
		log:              slog.New(slog.DiscardHandler),
		now:              time.Now,
		imapStaleAfter:   DefaultIMAPStaleAfter,
		outboxStuckAfter: DefaultOutboxStuckAfter,
		reg:              prometheus.NewRegistry(),
	}
	for _, o := range opts {
		o(m)
	}
	m.started = m.now()

	m.inbound = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "pbem_inbound_mails_total",
		Help: "Inbound mails handled, by outcome (applied, answered, refused, ignored, unusable, failed).",
	}, []string{"outcome"})
	m.setAside = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "pbem_set_aside_total",
		Help: "Mails, deadlines and reminders set aside after repeated errors, and digests skipped for the day, by what was set aside.",
	}, []string{"what"})
	m.gamesSetAside = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "pbem_games_set_aside_total",
		Help: "Games marked broken since start.",
	})
	m.sent = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "pbem_mails_sent_total",
		Help: "Mails the mail server took.",
	})
	m.sendFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "pbem_send_failures_total",
		Help: "Failed attempts to send a mail, by class (temporary: retried; permanent: given up).",
	}, []string{"class"})
	m.sweepDuration = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "pbem_sweep_duration_seconds",
		Help:    "How long each pass of the deadline sweep took.",
		Buckets: sweepBucketsSecs,
	})
	m.sweepDue = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "pbem_sweep_due",
		Help: "Due deadlines and reminders found by the last pass of the deadline sweep.",
	})
	m.imapReconnects = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "pbem_imap_reconnects_total",
		Help: "IMAP sessions opened after the first one.",
	})
	m.leaseHeld = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "pbem_reader_lease_held",
		Help: "1 while this node holds the reader lease (it reads the IMAP mailbox and runs retention), else 0.",
	})
	m.readerSince.Store(-1)
	for _, v := range inboundOutcomes {
		m.inbound.WithLabelValues(v)
	}
	for _, v := range asideWhats {
		m.setAside.WithLabelValues(v)
	}
	for _, v := range sendFailClasses {
		m.sendFailures.WithLabelValues(v)
	}

	if m.node != "" {
		m.reg.MustRegister(m.leaseHeld, leaseCollector{m})
	}
	m.reg.MustRegister(
		m.inbound, m.setAside, m.gamesSetAside, m.sent, m.sendFailures,
		m.sweepDuration, m.sweepDue, m.imapReconnects,
		storeCollector{m},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	m.reg.MustRegister(statementCounters(st)...)
	return m
}

// Registry is the registry the metrics are in, for tests and for adding
// more collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// daemon.Observer

// Inbound counts an inbound mail by outcome.
func (m *Metrics) Inbound(outcome daemon.Outcome) { m.inbound.WithLabelValues(string(outcome)).Inc() }

// SetAside counts a mail, deadline or reminder set aside, or a digest
// skipped for the day.
func (m *Metrics) SetAside(what daemon.AsideWhat) {
	m.setAside.WithLabelValues(string(what)).Inc()
}

// GameSetAside counts a game set aside. The gauge of games set aside is
// read from the store; this counter shows when it happened.
func (m *Metrics) GameSetAside() { m.gamesSetAside.Inc() }

// Sent counts a mail sent.
func (m *Metrics) Sent() { m.sent.Inc() }

// SendFailed counts a failed attempt to send, by class.
func (m *Metrics) SendFailed(class outbox.SendFailure) {
	m.sendFailures.WithLabelValues(string(class)).Inc()
}

// Sweep records a pass of the deadline sweep.
func (m *Metrics) Sweep(took time.Duration, due int) {
	m.sweepDuration.Observe(took.Seconds())
	m.sweepDue.Set(float64(due))
}

// lease.Observer

// ReaderLeaseHeld records whether this node holds the reader lease.
func (m *Metrics) ReaderLeaseHeld(held bool) {
	if !held {
		m.leaseHeld.Set(0)
		m.readerSince.Store(-1)
		return
	}
	m.leaseHeld.Set(1)
	m.readerSince.Store(m.now().UnixNano())
}

// mailer.InboxObserver

// Connected counts a reconnection: every IMAP session but the first.
func (m *Metrics) Connected() {
	if m.connectedOnce.Swap(true) {
		m.imapReconnects.Inc()
	}
}

// Searched records the last moment the mailbox was seen.
func (m *Metrics) Searched(at time.Time) { m.lastSearch.Store(at.UnixNano()) }

// lastSeen is when the mailbox was last searched, and whether it ever was;
// until then, the start counts, so that an inbox that never connects ages
// like one that stopped. In a reader lease, the moment this node took it
// counts, if later: the node had not been reading before.
func (m *Metrics) lastSeen() (time.Time, bool) {
	ns := m.lastSearch.Load()
	if since := m.readerSince.Load(); m.node != "" && since > 0 && ns < since {
		return time.Unix(0, since), false
	}
	if ns == 0 {
		return m.started, false
	}
	return time.Unix(0, ns), true
}

// reading reports whether this node reads the mailbox now: it reads one
// (not WithoutIMAP) and, in a reader lease, holds it.
func (m *Metrics) reading() bool {
	return !m.noIMAP && (m.node == "" || m.readerSince.Load() > 0)
}

// leaseCollector reads the reader lease's holder from the store at
// scrape time.
type leaseCollector struct{ m *Metrics }

var descLeaseHolder = prometheus.NewDesc("pbem_reader_lease_holder",
	"1 for the node that holds the reader lease, read from the store at scrape time; no series while no node holds it.", []string{"holder"}, nil)

func (c leaseCollector) Describe(ch chan<- *prometheus.Desc) { ch <- descLeaseHolder }

func (c leaseCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	l, held, err := c.m.readerLease(ctx)
	switch {
	case err != nil:
		ch <- prometheus.NewInvalidMetric(descLeaseHolder, fmt.Errorf("metrics: reader lease: %w", err))
	case held:
		ch <- prometheus.MustNewConstMetric(descLeaseHolder, prometheus.GaugeValue, 1, l.Holder)
	}
}

// readerLease reads the reader lease, and whether someone holds it now.
func (m *Metrics) readerLease(ctx context.Context) (store.Lease, bool, error) {
	l, err := m.st.Lease(ctx, lease.ReaderLease)
	if errors.Is(err, store.ErrNotFound) {
		return store.Lease{}, false, nil
	}
	if err != nil {
		return store.Lease{}, false, err
	}
	return l, l.HeldAt(m.now()), nil
}

// leaseLine says who holds the reader lease, for /healthz.
func (m *Metrics) leaseLine(ctx context.Context) string {
	l, held, err := m.readerLease(ctx)
	switch {
	case err != nil:
		return fmt.Sprintf("reader lease: cannot read it: %v", err)
	case !held:
		return fmt.Sprintf("reader lease: held by no node (this node is %s)", m.node)
	case l.Holder == m.node:
		return fmt.Sprintf("reader lease: held by %s (this node) since %s", l.Holder, l.Acquired.Format(time.RFC3339))
	default:
		return fmt.Sprintf("reader lease: held by %s since %s (this node is %s)", l.Holder, l.Acquired.Format(time.RFC3339), m.node)
	}
}

// storeCollector reads the gauges that the store and the clock know at
// scrape time.
type storeCollector struct{ m *Metrics }

var (
	descGames = prometheus.NewDesc("pbem_games",
		"Games by status, read from the store at scrape time (broken games count under the status they keep).", []string{"status"}, nil)
	descAside = prometheus.NewDesc("pbem_games_set_aside",
		"Games set aside as broken and not yet repaired, read from the store at scrape time: each needs an admin.", nil, nil)
	descOutboxPending = prometheus.NewDesc("pbem_outbox_pending",
		"Mails waiting in the outbox to be sent, due or not.", nil, nil)
	descOutboxDue = prometheus.NewDesc("pbem_outbox_due",
		"Pending mails due now.", nil, nil)
	descOutboxDead = prometheus.NewDesc("pbem_outbox_dead",
		"Mails given up on after permanent or repeated failures.", nil, nil)
	descOutboxOldest = prometheus.NewDesc("pbem_outbox_oldest_due_age_seconds",
		"How long the longest-waiting due mail has been due; 0 when none is.", nil, nil)
	descIMAPAge = prometheus.NewDesc("pbem_imap_last_search_age_seconds",
		"Seconds since the IMAP mailbox was last searched successfully (since start until the first search).", nil, nil)
)

func (c storeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descGames, descAside, descOutboxPending, descOutboxDue, descOutboxDead, descOutboxOldest, descIMAPAge} {
		ch <- d
	}
}

func (c storeCollector) Collect(ch chan<- prometheus.Metric) {
	m := c.m
	now := m.now()
	// A node that does not hold the reader lease reads no mailbox: its
	// age would be no one's, and would raise the alert on it.
	if m.node == "" || m.reading() {
		last, _ := m.lastSeen()
		ch <- prometheus.MustNewConstMetric(descIMAPAge, prometheus.GaugeValue, max(now.Sub(last), 0).Seconds())
	}

	// Collect has no context of its own: the scrape's request does not
	// reach it.
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()

	if s, err := m.st.OutboxStats(ctx, now); err != nil {
		err = fmt.Errorf("metrics: outbox: %w", err)
		for _, d := range []*prometheus.Desc{descOutboxPending, descOutboxDue, descOutboxDead, descOutboxOldest} {
			ch <- prometheus.NewInvalidMetric(d, err)
		}
	} else {
		ch <- prometheus.MustNewConstMetric(descOutboxPending, prometheus.GaugeValue, float64(s.Pending))
		ch <- prometheus.MustNewConstMetric(descOutboxDue, prometheus.GaugeValue, float64(s.Due))
		ch <- prometheus.MustNewConstMetric(descOutboxDead, prometheus.GaugeValue, float64(s.Dead))
		var age time.Duration
		if !s.OldestDue.IsZero() {
			age = max(now.Sub(s.OldestDue), 0)
		}
		ch <- prometheus.MustNewConstMetric(descOutboxOldest, prometheus.GaugeValue, age.Seconds())
	}

	if n, err := m.st.GamesSetAside(ctx); err != nil {
		ch <- prometheus.NewInvalidMetric(descAside, fmt.Errorf("metrics: broken games: %w", err))
	} else {
		ch <- prometheus.MustNewConstMetric(descAside, prometheus.GaugeValue, float64(n))
	}

	byStatus, err := m.st.GamesByStatus(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(descGames, fmt.Errorf("metrics: games: %w", err))
		return
	}
	// Every known status has a series, at zero if no game has it; a
	// status the store has and this list lacks is shown too.
	statuses := map[string]bool{}
	for _, s := range knownGameStatus {
		statuses[s] = true
	}
	for s := range byStatus {
		statuses[s] = true
	}
	for s := range statuses {
		ch <- prometheus.MustNewConstMetric(descGames, prometheus.GaugeValue, float64(byStatus[s]), s)
	}
}

// Problems lists what makes pbem unhealthy now, one line each; none when
// it is healthy.
func (m *Metrics) Problems(ctx context.Context) []string {
	now := m.now()
	var out []string
	last, ever := m.lastSeen()
	if age := now.Sub(last); m.reading() && age > m.imapStaleAfter {
		if ever {
			out = append(out, fmt.Sprintf("imap: last successful search %s ago (imap_stale_after %s)", round(age), m.imapStaleAfter))
		} else {
			out = append(out, fmt.Sprintf("imap: no successful search in the %s since start (imap_stale_after %s)", round(age), m.imapStaleAfter))
		}
	}
	s, err := m.st.OutboxStats(ctx, now)
	switch {
	case err != nil:
		out = append(out, fmt.Sprintf("store: cannot read the outbox: %v", err))
	case !s.OldestDue.IsZero() && now.Sub(s.OldestDue) > m.outboxStuckAfter:
		out = append(out, fmt.Sprintf("outbox: %d due mail(s), the oldest due for %s (outbox_stuck_after %s)",
			s.Due, round(now.Sub(s.OldestDue)), m.outboxStuckAfter))
	}
	return out
}

func round(d time.Duration) time.Duration { return d.Round(time.Second) }

// Handler serves /metrics and /healthz.
func (m *Metrics) Handler() http.Handler {
	mux := http.NewServeMux()
	// ContinueOnError: a store that cannot be read fails its own series
	// (logged, and counted in promhttp_metric_handler_errors_total) but
	// not the counters kept in memory.
	metrics := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorLog:      slogPrintln{m.log},
		ErrorHandling: promhttp.ContinueOnError,
		Registry:      m.reg,
		Timeout:       scrapeTimeout + time.Second,
	})
	mux.Handle("/metrics", promhttp.InstrumentMetricHandler(m.reg, metrics))
	mux.HandleFunc("/healthz", m.healthz)
	return mux
}

func (m *Metrics) healthz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), scrapeTimeout)
	defer cancel()
	problems := m.Problems(ctx)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	// In a reader lease, a last line says who holds it: information,
	// not a problem (a node that does not hold it is healthy).
	var lease string
	if m.node != "" {
		lease = m.leaseLine(ctx) + "\n"
	}
	if len(problems) == 0 {
		fmt.Fprint(w, "ok\n"+lease)
		return
	}
	w.WriteHeader(http.StatusServiceUnavailable)
	fmt.Fprint(w, strings.Join(problems, "\n")+"\n"+lease)
}

// Serve serves Handler on ln until ctx is done, then shuts the server down,
// letting requests in flight finish, and returns nil. It closes ln.
func (m *Metrics) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           m.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		// Connection-level noise (a scanner, a half-open scrape) is no
		// warning for the operator.
		ErrorLog: slog.NewLogLogger(m.log.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("metrics: serve %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		// Requests still running past the timeout are cut off.
		srv.Close()
		<-errc
		return fmt.Errorf("metrics: shut down %s: %w", ln.Addr(), err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("metrics: serve %s: %w", ln.Addr(), err)
	}
	return nil
}

// slogPrintln lets promhttp log scrape errors through slog.
type slogPrintln struct{ log *slog.Logger }

func (l slogPrintln) Println(v ...any) {
	l.log.Warn("metrics: scrape error", "error", strings.TrimSuffix(fmt.Sprintln(v...), "\n"))
}
