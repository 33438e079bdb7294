package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/pbem/pbem/mailer/embedded"
)

// Several nodes in a loadtest (issue 27): pbem loadtest --nodes N runs N
// pbem serve processes on one store, each with its own node.name, LMTP
// socket and metrics port. How mail reaches them:
//
//   - with --lmtp on the embedded servers, the players submit to a relay
//     (nodeRelay) in front of the embedded SMTP server, which hands each
//     mail for pbem's address to the nodes' LMTP servers in turn (round
//     robin, mail by mail, whatever game it is for) and delivers all
//     other mail to the embedded mailboxes, as Postfix with one LMTP
//     transport to several nodes would;
//   - without --lmtp, the nodes share pbem's one IMAP mailbox, and the
//     node holding the reader lease reads it all.
//
// pbem's own mail goes straight to the embedded SMTP server (or to
// --smtp), from whichever node sends it. After the games each node's
// /metrics says how many mails it took and sent.

// maxNodes bounds --nodes: the machine the loadtest runs on carries them
// all.
const maxNodes = 8

// nodeRelay is the embedded mail system's front door in a loadtest with
// --lmtp on the embedded servers.
type nodeRelay struct {
	servers *embedded.Servers
	log     *slog.Logger
	service atomic.Pointer[string] // pbem's address; mail to it goes to the nodes
	nodes   []*lmtpNode
	next    atomic.Uint64 // the node the next mail for pbem goes to, mod len(nodes)
	srv     *smtp.Server
	ln      net.Listener
	done    chan struct{}
}

// lmtpNode is one node's LMTP server, with the sessions kept to it.
type lmtpNode struct {
	addr string // "unix:PATH" or host:port, as lmtp.addr takes it
	idle chan *smtp.Client
}

// relayIdlePerNode is how many LMTP sessions the relay keeps open to each
// node between mails, as Postfix's LMTP client caches its connections.
const relayIdlePerNode = 8

// startNodeRelay listens on a free loopback port and hands mail for
// pbem's address (set later with setService) to nodes, the LMTP addresses.
func startNodeRelay(servers *embedded.Servers, nodes []string, log *slog.Logger) (*nodeRelay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	r := &nodeRelay{servers: servers, log: log, ln: ln, done: make(chan struct{})}
	for _, a := range nodes {
		r.nodes = append(r.nodes, &lmtpNode{addr: a, idle: make(chan *smtp.Client, relayIdlePerNode)})
	}
	srv := smtp.NewServer(relayBackend{r})
	srv.Domain = servers.Domain()
	srv.MaxMessageBytes = 10 << 20
	srv.MaxRecipients = 100
	srv.ReadTimeout = 5 * time.Minute
	srv.WriteTimeout = time.Minute
	r.srv = srv
	go func() {
		defer close(r.done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, smtp.ErrServerClosed) {
			log.Error("relay stopped", "err", err)
		}
	}()
	return r, nil
}

// Addr is where the players submit their mail.
func (r *nodeRelay) Addr() string { return r.ln.Addr().String() }

// setService names pbem's address, known once the players' world exists.
func (r *nodeRelay) setService(addr string) { r.service.Store(&addr) }

// Close stops the relay and ends its sessions to the nodes.
func (r *nodeRelay) Close() {
	r.srv.Close()
	<-r.done
	for _, n := range r.nodes {
		n.closeIdle()
	}
}

// closeIdle ends the sessions kept to the node.
func (n *lmtpNode) closeIdle() {
	for {
		select {
		case c := <-n.idle:
			c.Close()
		default:
			return
		}
	}
}

// forService tells whether rcpt is pbem's address, +detail or not, as the
// embedded servers file mail (case-insensitively, the detail dropped).
func (r *nodeRelay) forService(rcpt string) bool {
	svc := r.service.Load()
	if svc == nil {
		return false
	}
	return mailboxOf(rcpt) == mailboxOf(*svc)
}

// mailboxOf is addr lower-cased without its +detail.
func mailboxOf(addr string) string {
	local, domain, _ := strings.Cut(strings.ToLower(strings.TrimSpace(addr)), "@")
	local, _, _ = strings.Cut(local, "+")
	return local + "@" + domain
}

// deliver hands one mail for pbem to the next node in turn and returns
// only once that node answered 250: the node has committed it.
func (r *nodeRelay) deliver(from string, rcpts []string, raw []byte) error {
	n := r.nodes[(r.next.Add(1)-1)%uint64(len(r.nodes))]
	var c *smtp.Client
	select {
	case c = <-n.idle:
	default:
		conn, err := dialLMTP(n.addr)
		if err != nil {
			return fmt.Errorf("relay: LMTP to %s: %w", n.addr, err)
		}
		c = smtp.NewClientLMTP(conn)
		if err := c.Hello("loadtest"); err != nil {
			c.Close()
			return fmt.Errorf("relay: LMTP to %s: %w", n.addr, err)
		}
	}
	if err := lmtpSend(c, from, rcpts, raw); err != nil {
		c.Close()
		return fmt.Errorf("relay: LMTP to %s: %w", n.addr, err)
	}
	select {
	case n.idle <- c:
	default:
		c.Quit()
	}
	return nil
}

// lmtpSend is one LMTP transaction on c; every recipient must get 250.
func lmtpSend(c *smtp.Client, from string, rcpts []string, raw []byte) error {
	if err := c.Mail(from, nil); err != nil {
		return err
	}
	for _, to := range rcpts {
		if err := c.Rcpt(to, nil); err != nil {
			return err
		}
	}
	wc, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := wc.Write(raw); err != nil {
		return err
	}
	_, err = wc.CloseWithLMTPResponse()
	return err
}

// dialLMTP connects to an lmtp.addr: "unix:PATH" or host:port.
func dialLMTP(addr string) (net.Conn, error) {
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		return net.DialTimeout("unix", path, 10*time.Second)
	}
	return net.DialTimeout("tcp", addr, 10*time.Second)
}

// relayBackend makes the relay's SMTP sessions.
type relayBackend struct{ r *nodeRelay }

func (b relayBackend) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &relaySession{r: b.r}, nil
}

// relaySession is one player's SMTP session with the relay.
type relaySession struct {
	r    *nodeRelay
	from string
	to   []string
}

func (s *relaySession) Mail(from string, _ *smtp.MailOptions) error {
	s.from, s.to = from, nil
	return nil
}

func (s *relaySession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !strings.Contains(to, "@") {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 3}, Message: "address needs a domain"}
	}
	s.to = append(s.to, to)
	return nil
}

// Data delivers the mail: pbem's share to a node, the rest to the
// embedded mailboxes. A node that does not take it makes the answer 451,
// so that nothing is lost unseen.
func (s *relaySession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	var service, others []string
	for _, to := range s.to {
		if s.r.forService(to) {
			service = append(service, to)
		} else {
			others = append(others, to)
		}
	}
	if len(service) > 0 {
		if err := s.r.deliver(s.from, service, raw); err != nil {
			s.r.log.Error("relay: a node did not take a mail", "err", err)
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 4, 0}, Message: "the node did not take the mail"}
		}
	}
	if len(others) > 0 {
		return s.r.servers.Deliver(s.from, others, raw)
	}
	return nil
}

func (s *relaySession) Reset()        { s.from, s.to = "", nil }
func (s *relaySession) Logout() error { return nil }

// freeLoopbackPorts returns n TCP ports on 127.0.0.1 that were free a
// moment ago, all different.
func freeLoopbackPorts(n int) ([]string, error) {
	var addrs []string
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns = append(lns, ln)
		addrs = append(addrs, ln.Addr().String())
	}
	return addrs, nil
}

// nodeMetrics is what a node's /metrics says after the run.
type nodeMetrics struct {
	took, sent int  // mails it took in (every outcome) and sent
	leader     bool // it holds the reader lease
	// statements its store ran, and on PostgreSQL the round trips they
	// took (store.Counts), over the run: the sweeps' and the outbox's
	// included.
	statements, roundTrips int64
}

// scrapeNode reads the node's counters from its metrics address.
func scrapeNode(ctx context.Context, addr string) (nodeMetrics, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
	if err != nil {
		return nodeMetrics{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nodeMetrics{}, fmt.Errorf("metrics: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nodeMetrics{}, fmt.Errorf("metrics: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nodeMetrics{}, fmt.Errorf("metrics: %s", resp.Status)
	}
	var m nodeMetrics
	m.took = int(sumMetric(body, "pbem_inbound_mails_total"))
	m.sent = int(sumMetric(body, "pbem_mails_sent_total"))
	m.leader = sumMetric(body, "pbem_reader_lease_held") == 1
	m.statements = int64(sumMetric(body, "pbem_store_statements_total"))
	m.roundTrips = int64(sumMetric(body, "pbem_store_round_trips_total"))
	return m, nil
}

// sumMetric adds up every sample of the metric name (all its labels) in
// Prometheus's text format.
func sumMetric(text []byte, name string) float64 {
	sum := 0.0
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, name)
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '{') {
			continue
		}
		f := strings.Fields(line)
		if v, err := strconv.ParseFloat(f[len(f)-1], 64); err == nil {
			sum += v
		}
	}
	return sum
}

// waitLMTP waits until the node listens at addr, or exits, or ctx ends.
func waitLMTP(ctx context.Context, p *serviceProc, addr string) error {
	for {
		conn, err := dialLMTP(addr)
		if err == nil {
			conn.Close()
			return nil
		}
		select {
		case <-p.exited:
			return fmt.Errorf("exited before listening on %s: %v", addr, p.err)
		case <-ctx.Done():
			return fmt.Errorf("not listening on %s: %v", addr, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
