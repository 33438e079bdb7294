package store

import (
	"context"
	"errors"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store/storetest"
)

// The store must not read a whole table that grows with the number of
// games on any path the daemon takes for a mail or a sweep (issue 15).
// TestEveryStatementPlan finds every statement the store runs by running
// every exported method of Store and Tx with a trace on the store
// (trace.go), and checks each statement's plan on a store of 100,000
// games. A new method fails the test until the scenario calls it; a new
// statement is checked without anyone listing it.

// noSQL are the exported methods that run no statement through the
// store's readers and transactions, so the trace cannot see them, each
// with why.
var noSQL = map[string]string{
	"Close":         "closes the pools",
	"Counts":        "reads the store's counters of statements",
	"Engine":        "names the engine",
	"Digest":        "reads every table whole, by design: pbem store copy's check of a copy",
	"FailWrites":    "sets a fault for tests",
	"SchemaVersion": "goose reads its own goose_db_version table, a row per migration",
	"Checkpoint":    "PRAGMA wal_checkpoint on the writer",
	"FileBytes":     "PRAGMAs of the file's size",
	"Backup":        "VACUUM INTO on a connection of its own: a copy of everything, by design",
	"Savepoint":     "SAVEPOINT, RELEASE and ROLLBACK TO on the transaction: no table read",
	"LockedGame":    "names the game of the transaction",
}

// wholeTable are the statements that read a whole table by design, by
// the method that runs them, each with why that is right. None of them
// is on the turn loop or the sweep.
var wholeTable = map[string]string{
	"AllGames":    "`pbem games` lists every game: an admin's command, run by hand",
	"AllInbound":  "audits and tests: every inbound record",
	"AllOutgoing": "audits and tests: every outbox row",
	"GamesByStatus": "the metrics' count of games by status, once a scrape (every 15 s or more); " +
		"a count reads every row",
	"GamesSetAside":        "the metrics' count of broken games, once a scrape",
	"UnhandledUnreachable": "the partial index unreachable_unhandled holds only the addresses not yet acted on: a handful",
	"RekeyRatedSeats": "pbem serve keys every rated seat by its mailbox once, as it starts (the daemon's rekeyRatings): " +
		"a row per rated seat, by design",
	"OutboxStats": "the metrics and /healthz: counts of the outbox by state, once a scrape or probe; " +
		"retention keeps the outbox to the last 30 days' mail and that of running games",
}

// smallTables may be scanned anywhere: they do not grow with the games.
// imap_cursor has a row per mailbox; ended_games holds the games that
// ended within the retention period (migration 00013); refusals and
// budget only the rows of their windows (a day at most), which retention
// drops; retained_outbox is retention's batch of at most 500 rows; pairs
// is Standings' list of the players one player met in his own rated
// games, found through the index on rated_seats.mailbox; claim_batch is
// an outbox claim's batch, at most outbox.batch rows.
var smallTables = regexp.MustCompile(`^SCAN (json_each|imap_cursor|ended_games|refusals|budget|(temp\.)?retained_outbox|pairs|claim_batch|CONSTANT ROW)\b`)

// statement is one statement the store ran while traced.
type statement struct {
	query   string
	args    []any
	methods []string // the exported methods it ran under, outermost first
	order   int
}

func TestEveryStatementPlan(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	if testing.Short() {
		t.Skip("fills a store with 100,000 games")
	}
	skipUnderRace(t)
	ctx := context.Background()
	s, _ := newStore(t)
	now := t0
	if err := storetest.Fill(ctx, s.w, sweepGames, now.Add(-24*time.Hour), now.Add(365*24*time.Hour)); err != nil {
		t.Fatal(err)
	}

	stmts := map[string]*statement{}
	called := map[string]bool{}
	s.setTrace(func(query string, args []any) {
		methods := storeMethods()
		for _, m := range methods {
			called[m] = true
		}
		st, ok := stmts[query]
		if !ok {
			st = &statement{query: query, args: slices.Clone(args), order: len(stmts)}
			stmts[query] = st
		}
		for _, m := range methods {
			if !slices.Contains(st.methods, m) {
				st.methods = append(st.methods, m)
			}
		}
	})
	everyMethod(t, s, now)
	s.setTrace(nil)

	// Every exported method ran, or is known to run no SQL.
	for _, typ := range []reflect.Type{reflect.TypeFor[*Store](), reflect.TypeFor[*Tx]()} {
		for m := range typ.Methods() {
			if !called[m.Name] && noSQL[m.Name] == "" {
				t.Errorf("%s.%s ran no statement while traced: call it in everyMethod, or list it in noSQL with why", typ.Elem().Name(), m.Name)
			}
		}
	}

	// Explain in the order they ran, in one write transaction rolled back
	// at the end, so that the temporary table retention makes exists for
	// the statements that use it.
	ordered := make([]*statement, 0, len(stmts))
	for _, st := range stmts {
		ordered = append(ordered, st)
	}
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].order < ordered[j].order })
	rollback := errors.New("rollback")
	err := s.Tx(ctx, func(tx *Tx) error {
		for _, st := range ordered {
			plan, err := explainIn(ctx, tx, st.query, st.args)
			if err != nil {
				t.Errorf("%v: explain %s: %v", st.methods, st.query, err)
				continue
			}
			if strings.HasPrefix(strings.TrimSpace(st.query), "CREATE TEMP") || strings.HasPrefix(strings.TrimSpace(st.query), "DROP") {
				if _, err := tx.tx.ExecContext(ctx, st.query, st.args...); err != nil {
					t.Fatalf("%s: %v", st.query, err)
				}
			}
			checkPlan(t, st, plan, fkChildren(t, tx, st.query))
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatal(err)
	}
	t.Logf("%d statements of %d methods explained", len(stmts), len(called))
}

// checkPlan fails the test if the plan reads a whole table that grows
// with the games, unless a method the statement runs under is in
// wholeTable. children are the tables whose foreign keys refer to the
// table an INSERT statement writes.
func checkPlan(t *testing.T, st *statement, plan []string, children []string) {
	t.Helper()
	for _, step := range plan {
		if !strings.HasPrefix(step, "SCAN ") || smallTables.MatchString(step) {
			continue
		}
		// The plan of an INSERT into a table that other tables refer to
		// lists a search of each such table for rows waiting for the new
		// parent. SQLite runs it only while foreign-key violations are
		// pending (OP_FkIfZero skips it otherwise), and pbem's keys are
		// all immediate: a statement that would leave one fails at once.
		// So it never runs.
		if table, _, _ := strings.Cut(strings.TrimPrefix(step, "SCAN "), " "); slices.Contains(children, table) {
			continue
		}
		excused := false
		for _, m := range st.methods {
			if wholeTable[m] != "" {
				excused = true
				t.Logf("whole table by design, %s (%s): %s", m, step, oneLine(st.query))
			}
		}
		if !excused {
			t.Errorf("%s reads a whole table (%s):\n%s\nplan: %s", strings.Join(st.methods, " > "), step,
				oneLine(st.query), strings.Join(plan, "; "))
		}
	}
}

// fkChildren returns, for an INSERT statement, the tables with a foreign
// key that refers to the table it inserts into; nil for other statements.
func fkChildren(t *testing.T, tx *Tx, query string) []string {
	t.Helper()
	f := strings.Fields(query)
	if len(f) < 3 || !strings.EqualFold(f[0], "INSERT") || !strings.EqualFold(f[1], "INTO") {
		return nil
	}
	parent := strings.TrimPrefix(f[2], "main.")
	rows, err := tx.tx.QueryContext(context.Background(), `SELECT DISTINCT m.name FROM sqlite_schema m, pragma_foreign_key_list(m.name) k
		WHERE m.type = 'table' AND k."table" = ?`, parent)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var children []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		children = append(children, c)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return children
}

func oneLine(q string) string { return strings.Join(strings.Fields(q), " ") }

// explainIn returns the plan of query in tx.
func explainIn(ctx context.Context, tx *Tx, query string, args []any) ([]string, error) {
	rows, err := tx.tx.QueryContext(ctx, `EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return nil, err
		}
		plan = append(plan, detail)
	}
	return plan, rows.Err()
}

// storeMethods returns the exported methods of Store, Tx and reader on
// the calling goroutine's stack, outermost first.
func storeMethods() []string {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	var ms []string
	for {
		f, more := frames.Next()
		if m, ok := storeMethod(f.Function); ok {
			ms = append([]string{m}, ms...)
		}
		if !more {
			break
		}
	}
	return ms
}

// storeMethod reads the method's name from a function's full name, such as
// "github.com/pbem/pbem/store.(*Tx).AppendMove": an exported
// method of Store, Tx or reader.
func storeMethod(fn string) (string, bool) {
	rest, ok := strings.CutPrefix(fn, "github.com/pbem/pbem/store.")
	if !ok {
		return "", false
	}
	recv, name, ok := strings.Cut(rest, ".")
	if !ok || (recv != "(*Store)" && recv != "(*Tx)" && recv != "reader") {
		return "", false
	}
	name, _, _ = strings.Cut(name, ".") // a closure: Retain.func1
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return "", false
	}
	return name, true
}

// everyMethod calls every exported method of Store and Tx that runs SQL,
// on a game of its own among the filler, as the daemon calls them. What a
// call returns does not matter here, only the statements it runs; the
// behaviour is each method's own tests'.
func everyMethod(t *testing.T, s *Store, now time.Time) {
	ctx := context.Background()
	ann, bob := "ann@plan.test", "bob@plan.test"
	var g int64
	var inID, outID int64
	var v Vacation
	do := func(fn func(tx *Tx) error) {
		t.Helper()
		if err := s.Tx(ctx, fn); err != nil {
			t.Fatalf("scenario: %v", err)
		}
	}
	do(func(tx *Tx) error {
		var err error
		if _, err = tx.UpsertPlayer(ctx, ann, "Ann"); err != nil {
			return err
		}
		if _, err = tx.UpsertPlayer(ctx, bob, "Bob"); err != nil {
			return err
		}
		g, err = tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: ann, CreatedAt: now, TurnTime: time.Hour})
		if err != nil {
			return err
		}
		for i, a := range []string{ann, bob} {
			if err := tx.AddSeat(ctx, g, i, a, "p", NewToken()); err != nil {
				return err
			}
		}
		return nil
	})
	// must fails the scenario on an error other than ErrNotFound (a row
	// an earlier step removed); what a call returns does not matter.
	must := func(_ any, err error) {
		t.Helper()
		if err != nil && !errors.Is(err, ErrNotFound) {
			t.Fatalf("scenario: %v", err)
		}
	}
	must2 := func(_, _ any, err error) { t.Helper(); must(nil, err) }

	// The reader lease, as every node of pbem serve takes, renews and
	// releases it, and the metrics read it.
	do(func(tx *Tx) error {
		must2(tx.AcquireLease(ctx, "reader", "node-a", now, time.Minute))
		must2(tx.AcquireLease(ctx, "reader", "node-b", now, time.Minute))
		must(tx.Lease(ctx, "reader"))
		must(tx.ReleaseLease(ctx, "reader", "node-a"))
		return nil
	})
	must(s.Lease(ctx, "reader"))

	// The turn loop, as the daemon runs it for one mail.
	do(func(tx *Tx) error {
		mail := Inbound{MessageID: "<m1@plan.test>", Mailbox: "INBOX", UIDValidity: 1, UID: 1,
			From: ann, Outcome: "applied", ReceivedAt: now,
			SentAs: SentAs("<m1@plan.test>", ann, ""), Digest: "sha256:m1"}
		must(tx.InboundSeen(ctx, mail))
		id, err := tx.RecordInbound(ctx, mail)
		inID = id
		must(nil, err)
		must(tx.InboundByMessageID(ctx, "<m1@plan.test>"))
		must2(tx.Cursor(ctx, "INBOX"))
		must(tx.SeatByToken(ctx, "no-such-token"))
		must(tx.Game(ctx, g))
		// Seat before Seats, and Player before SeatedPlayers: a
		// transaction takes them from what it read already (txmemo.go).
		must(tx.Seat(ctx, g, 0))
		must(tx.Seats(ctx, g))
		must(tx.Player(ctx, ann))
		must(tx.SeatedPlayers(ctx, g))
		must(tx.GamesOf(ctx, ann))
		must(tx.Moves(ctx, g, 0))
		must(tx.Events(ctx, g, 0))
		must(tx.AppendMove(ctx, g, Move{Seat: 0, Command: "go", Source: SourceMail, InboundID: inID, At: now}))
		must(nil, tx.SetMoveCommand(ctx, g, 1, "go!"))
		must(nil, tx.AppendEvents(ctx, g, 1, []Event{{To: Public, Kind: "move", Text: "went"}}))
		must(nil, tx.SaveSnapshot(ctx, g, 1, []byte(`{}`)))
		must(nil, tx.SetGameSetup(ctx, g, []byte(`{}`)))
		must(tx.SetThreadSubject(ctx, g, "Felix"))
		must(nil, tx.SetGameStatus(ctx, g, StatusActive))
		must(nil, tx.SetSeatJoined(ctx, g, 1))
		// The seat writes below run their own statements, as on a seat
		// the transaction has not read: a kept seat's wait and join
		// (keepingSeat), and would run under another method's trace.
		tx.memo.seats = nil
		must(nil, tx.NewDecision(ctx, g, 1, now, now.Add(time.Hour)))
		must(nil, tx.NewDecisionReminded(ctx, g, 1, now, now.Add(time.Hour), now.Add(30*time.Minute), 30*time.Minute))
		must(nil, tx.SetDeadline(ctx, g, 1, now.Add(2*time.Hour)))
		must(nil, tx.SetReminder(ctx, g, 1, now.Add(time.Hour), time.Hour))
		must(nil, tx.SetSeatLastMailedEvent(ctx, g, 1, 1))
		must(nil, tx.SetSeatMessageID(ctx, g, 1, "<root@plan.test>"))
		must(nil, tx.SetSeatMissed(ctx, g, 1, 0))
		must(nil, tx.SetSeatBank(ctx, g, 1, time.Hour))
		must(tx.SetMoveClock(ctx, g, 1, time.Hour))
		must(nil, tx.SetSeatAutopilot(ctx, g, 1, false))
		must(nil, tx.SetSeatNotify(ctx, g, 1, NotifyOff))
		must(nil, tx.SetSeatBot(ctx, g, 1, ""))
		must(nil, tx.SetSeatName(ctx, g, 1, "Bob"))
		must(tx.AllowRefusal(ctx, bob, now, time.Hour, 3))
		must(tx.Spend(ctx, ann, "mail", now, time.Hour, 100))
		must(tx.Note(ctx, ann, "mail", now, time.Hour))
		must(tx.Spent(ctx, ann, "mail", now, time.Hour))
		must(tx.SpentEach(ctx, []BudgetWindow{{Address: ann, Bucket: "mail", Now: now, Window: time.Hour}, {Address: bob, Bucket: "mail", Now: now, Window: time.Minute}}))
		must(tx.SpendEach(ctx, []BudgetWindow{{Address: ann, Bucket: "mail", Now: now, Window: time.Hour, Max: 100}, {Address: bob, Bucket: "mail", Now: now, Window: time.Minute, Max: 1}}))
		must(tx.FreeAt(ctx, ann, "mail", now, time.Hour, 1))
		must(tx.Talked(ctx, g, 0, TalkSay, now, time.Hour))
		must(nil, tx.Talk(ctx, g, 0, TalkSay, now))
		outID, _, err = tx.Enqueue(ctx, Outgoing{MessageID: "<o1@plan.test>", GameID: g, Seat: 1, To: bob, Raw: []byte("x"), NotBefore: now})
		must(nil, err)
		must2(tx.Enqueue(ctx, Outgoing{MessageID: "<o1@plan.test>", GameID: g, Seat: 1, To: bob, Raw: []byte("x"), NotBefore: now}))
		must(nil, tx.Post(ctx, Outgoing{MessageID: "<o2@plan.test>", GameID: g, Seat: 1, To: bob, Raw: []byte("x"), NotBefore: now}))
		must(tx.HasOutgoing(ctx, "<o1@plan.test>"))
		must(tx.OutgoingByMessageID(ctx, "<o1@plan.test>"))
		must(tx.OutgoingHeader(ctx, "<o1@plan.test>"))
		must(nil, tx.SetInboundOutcome(ctx, inID, Inbound{Outcome: "applied", GameID: g}))
		must(nil, tx.SetCursor(ctx, "INBOX", 1, 1))
		// The same as the daemon's two calls: Receive (seen, or
		// recorded) and Settle (the outcome and the cursor).
		next := Inbound{MessageID: "<m2@plan.test>", Mailbox: "INBOX", UIDValidity: 1, UID: 2,
			From: ann, Outcome: "handling", ReceivedAt: now, SentAs: SentAs("<m2@plan.test>", ann, ""), Digest: "sha256:m2"}
		nextID, _, err := tx.Receive(ctx, next)
		must(nil, err)
		next.Outcome = "answered"
		must(nil, tx.Settle(ctx, nextID, next))
		third := Inbound{MessageID: "<m3@plan.test>", Mailbox: "INBOX", UIDValidity: 1, UID: 3,
			From: ann, Outcome: "handling", ReceivedAt: now, SentAs: SentAs("<m3@plan.test>", ann, ""), Digest: "sha256:m3"}
		_, _, err = tx.ReceiveKeeping(ctx, third, Keeping{Game: g, Reply: "<o1@plan.test>"})
		must(nil, err)
		must(tx.EventsKeepingAnswered(ctx, g, 0, []string{ann, bob}))
		return nil
	})
	// A game's transactions, as the daemon runs them for a mail and a
	// sweep's item.
	if err := s.GameTx(ctx, g, func(tx *Tx) error { return tx.SetSeatMissed(ctx, g, 1, 0) }); err != nil {
		t.Fatalf("scenario: %v", err)
	}
	if _, err := s.GameTxUnlessBusy(ctx, g, func(tx *Tx) error { return tx.SetSeatMissed(ctx, g, 1, 0) }); err != nil {
		t.Fatalf("scenario: %v", err)
	}
	// The outbox's transaction (its claims and marks commute).
	if err := s.CommuteTx(ctx, func(tx *Tx) error { _, err := tx.ReleaseNodeClaims(ctx, "plan-node"); return err }); err != nil {
		t.Fatalf("scenario: %v", err)
	}

	// Settings, vacations, undo, admin acts.
	do(func(tx *Tx) error {
		must(nil, tx.SetPlayerName(ctx, ann, "Ann"))
		must(nil, tx.SetPlayerTimeZone(ctx, ann, "Europe/Paris"))
		must(nil, tx.SetPlayerQuiet(ctx, ann, 23, 7))
		must(nil, tx.SetPlayerZoneGuess(ctx, ann, "Europe/Paris"))
		must(nil, tx.SetPlayerZoneAsked(ctx, ann))
		must(nil, tx.SetPlayerNotify(ctx, ann, NotifyDigest))
		must(nil, tx.SetPlayerConfirm(ctx, ann, true))
		must(nil, tx.SetPlayerLanguage(ctx, ann, "de"))
		must(nil, tx.SetPlayerDigest(ctx, ann, 8, now.Add(time.Hour)))
		must(nil, tx.SetNoInvitations(ctx, bob, false))
		must2(tx.InviteStatus(ctx, bob))
		must(tx.Answered(ctx, ann))
		must(nil, tx.MarkAnswered(ctx, bob, now))
		var err error
		v, err = tx.StartVacation(ctx, bob, now, now.Add(48*time.Hour))
		must(nil, err)
		must(tx.AwayUntil(ctx, bob))
		must(tx.CurrentVacation(ctx, bob))
		must(nil, tx.ExtendVacation(ctx, v, now.Add(72*time.Hour)))
		must(tx.ShiftDeadlines(ctx, bob, time.Hour, now))
		must(tx.Vacations(ctx, bob, now.Add(-time.Hour), now.Add(time.Hour)))
		must(nil, tx.EndVacation(ctx, v, now.Add(time.Hour)))
		must(tx.RecordBounce(ctx, bob, false, "4.2.2", now, 3))
		must(tx.RecordBounce(ctx, ann, true, "5.1.1", now, 3))
		must(tx.UnreachableAddress(ctx, ann))
		must(tx.IsUnreachable(ctx, ann))
		must(tx.UnreachableAmong(ctx, []string{ann, bob}))
		must(tx.UnhandledUnreachable(ctx, 10))
		must(nil, tx.HandledUnreachable(ctx, ann))
		must(nil, tx.Probed(ctx, ann, now))
		must(tx.Reachable(ctx, ann))
		must(nil, tx.ProposeUndo(ctx, UndoProposal{GameID: g, Seat: 0, Seq: 1, ProposedAt: now, ExpiresAt: now.Add(time.Hour)}))
		must(tx.PendingUndo(ctx, g))
		must(tx.AgreeUndo(ctx, g, 1))
		must(tx.EndUndo(ctx, g))
		must(tx.AppendAudit(ctx, g, "admin@plan.test", "extend", "1h", now))
		must(tx.Audit(ctx, g))
		must(nil, tx.ClearDeadline(ctx, g, 1))
		must(nil, tx.SetSeatDeclined(ctx, g, 1))
		must(nil, tx.SetSeatResigned(ctx, g, 1))
		must(nil, tx.ReplaceSeatAddress(ctx, g, 1, "cy@plan.test", NewToken()))
		must(nil, tx.RateGame(ctx, RatedGame{GameID: g, Kind: "felix", At: now, Seats: []RatedSeat{{Address: ann, Mailbox: ann, Name: "ann", Rank: 1}, {Address: bob, Mailbox: bob, Name: "bob", Rank: 2}}},
			[]PlayerRating{{Kind: "felix", Mailbox: ann, Mu: 27, Sigma: 8, Games: 1}}))
		must(tx.Ratings(ctx, "felix", []string{ann, bob}))
		must(tx.Standings(ctx, ann))
		must(tx.StandingsEach(ctx, []string{ann, bob}))
		must(tx.AddressInUse(ctx, ann, ann))
		must(tx.PlayerOf(ctx, ann))
		must(tx.Aliases(ctx, ann))
		must(tx.RekeyRatedSeats(ctx, func(a string) string { return "re." + a }))
		must(tx.RatedGames(ctx, "felix"))
		must2(tx.UnrateGame(ctx, g))
		must(nil, tx.ResetRatings(ctx, "felix", []PlayerRating{{Kind: "felix", Mailbox: ann, Mu: 25, Sigma: 8, Games: 0}}))
		must(tx.EnsureLink(ctx, g, 1))
		must(tx.NewLink(ctx, g, PublicLink))
		must(tx.LinkByToken(ctx, "no-such-token"))
		must(tx.LogStamp(ctx, g))
		must(nil, tx.DropLink(ctx, g, PublicLink))
		feed, err := tx.EnsureCalendarFeed(ctx, ann)
		must(feed, err)
		must(tx.CalendarFeed(ctx, feed))
		must(tx.NewCalendarFeed(ctx, ann))
		must(tx.SetGameAside(ctx, g, "plan: set aside", now))
		must(nil, tx.ClearGameAside(ctx, g))
		return nil
	})

	// The sweep and the sender.
	must(s.Returned(ctx, now))
	must(s.DueDeadlines(ctx, now))
	must(s.DueReminders(ctx, now))
	must(s.DueDigests(ctx, now))
	must(s.ExpiredUndos(ctx, now))
	must(s.DueOutgoing(ctx, now, 10))
	do(func(tx *Tx) error {
		must(tx.ClaimOutgoing(ctx, "plan-node", now, now.Add(time.Minute), 10))
		must(tx.ReleaseClaims(ctx, "plan-node", []int64{outID}))
		must(tx.ReleaseNodeClaims(ctx, "plan-node"))
		return nil
	})
	must(s.Outgoing(ctx, outID))
	do(func(tx *Tx) error {
		must(nil, tx.MarkFailed(ctx, outID, "later", now.Add(time.Minute)))
		must(tx.RetryDeferred(ctx, now))
		must(nil, tx.MarkSent(ctx, outID, now))
		must(tx.MarkAllSent(ctx, []int64{outID}, now))
		must(nil, tx.MarkDead(ctx, outID, "dead"))
		return nil
	})
	must(s.OutboxStats(ctx, now))
	must(s.BounceKey(ctx))

	// Admins, metrics and retention.
	must(s.AllGames(ctx))
	must(s.GamesAfter(ctx, g-1, 100))
	must(s.AllInbound(ctx))
	must(s.AllOutgoing(ctx))
	must(s.GamesByStatus(ctx))
	must(s.GamesSetAside(ctx))
	// Mail old enough to be retained, so that each step of the pass runs.
	do(func(tx *Tx) error {
		old := now.Add(-60 * 24 * time.Hour)
		must(tx.RecordInbound(ctx, Inbound{MessageID: "<old@plan.test>", Outcome: "refused", Detail: "why", ReceivedAt: old}))
		id, _, err := tx.Enqueue(ctx, Outgoing{MessageID: "<old-o@plan.test>", GameID: g, Seat: 1, To: bob, Raw: []byte("x"), NotBefore: old})
		must(nil, err)
		must(nil, tx.MarkSent(ctx, id, old))
		return nil
	})
	must(s.Retain(ctx, Retention{Now: now, MailBodies: 30 * 24 * time.Hour, RefusalWindow: time.Hour, BudgetWindow: time.Hour}))
	do(func(tx *Tx) error { return tx.SetGameStatus(ctx, g, StatusFinished) })
	must(s.Retain(ctx, Retention{Now: now, MailBodies: 30 * 24 * time.Hour}))

	// A change of address, last: ann moves away.
	must(s.AddressChangeByToken(ctx, "addr-plan"))
	must(s.AddressInUse(ctx, ann, ann))
	must(s.PlayerOf(ctx, ann))
	must(s.Aliases(ctx, ann))
	do(func(tx *Tx) error {
		must(nil, tx.AskAddressChange(ctx, AddressChange{Token: "addr-plan", Address: ann, NewAddress: "ann2@plan.test", AskedAt: now}))
		must(tx.AddressChangeByToken(ctx, "addr-plan"))
		must(nil, tx.DropAddressChange(ctx, "addr-plan"))
		must(nil, tx.AddAlias(ctx, Alias{Alias: "al@plan.test", Address: ann, AliasMailbox: "al@plan.test", Mailbox: ann}))
		must(nil, tx.MoveAddress(ctx, AddressMove{Old: ann, New: "ann2@plan.test", OldMailbox: ann, NewMailbox: "ann2@plan.test"}))
		return nil
	})
}
