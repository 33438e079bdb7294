package store

// traceFunc is told the text and arguments of a statement the store is
// about to run through its readers and transactions. Only tests set one
// (TestEveryStatementPlan records every statement the store runs, to
// check its query plan); it stays nil in production, where it costs one
// comparison a statement (meter).
type traceFunc func(query string, args []any)

// setTrace makes the store tell fn every statement that its reads and
// transactions run from now on. It is for tests, before the store is
// shared: it is not safe to call while other goroutines use the store.
func (s *Store) setTrace(fn traceFunc) {
	s.meter.trace = fn
}
