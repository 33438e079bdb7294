package sweeps

import (
	"log/slog"
	"time"

	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/store"
)

// Observer is told what the sweeps do, after the fact and without
// blocking (the daemon passes its own Observer through).
type Observer interface {
	// Sweep reports one pass of the deadline sweep: how long it took and
	// how many due deadlines and reminders it found.
	Sweep(took time.Duration, due int)
	// SetAside reports an item set aside after tries.Max failures.
	SetAside(what Kind)
}

// Config is what a Sweeper is made with.
type Config struct {
	// Now is the clock (tests use a fixed one); nil is time.Now.
	Now func() time.Time
	// Log is where failures and passes are logged; nil is slog.Default.
	Log *slog.Logger
	// Observer is told of each sweep and of what is set aside; nil
	// tells no one.
	Observer Observer
	// RefusalWindow and BudgetWindow are how long retention keeps the
	// refusal and the budget rows (store.Retention).
	RefusalWindow, BudgetWindow time.Duration
}

// Sweeper does the turn loop's timed work. It is safe for concurrent
// use: every item is done in a store transaction of its own, and two
// Sweepers (two nodes) sweeping at once do each item once.
type Sweeper struct {
	store *store.Store
	acts  Acts
	cfg   Config
	now   func() time.Time
	log   *slog.Logger
	obs   Observer
	tries *tries.Counter // failures of the items, by key
}

// New makes the Sweeper of st, whose items' works are acts.
func New(st *store.Store, acts Acts, cfg Config) *Sweeper {
	sw := &Sweeper{store: st, acts: acts, cfg: cfg, now: cfg.Now, log: cfg.Log, obs: cfg.Observer}
	if sw.now == nil {
		sw.now = time.Now
	}
	if sw.log == nil {
		sw.log = slog.Default()
	}
	if sw.obs == nil {
		sw.obs = nopObserver{}
	}
	sw.tries = tries.NewCounter(sw.log, store.Unavailable)
	return sw
}

// nopObserver is the Observer of a Sweeper given none.
type nopObserver struct{}

func (nopObserver) Sweep(time.Duration, int) {}
func (nopObserver) SetAside(Kind)            {}
