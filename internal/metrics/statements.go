package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/pbem/pbem/store"
)

// statementCounters are the store's counts of statements and, on
// PostgreSQL, round trips (store.Counts), read at scrape time: the store
// counts them with an atomic add a statement, and the metrics cost
// nothing in between. Their rate over pbem_inbound_mails_total's is what
// a mail costs the database (issue 40).
func statementCounters(st *store.Store) []prometheus.Collector {
	cs := []prometheus.Collector{prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "pbem_store_statements_total",
		Help: "Statements the store sent to the database since start: queries, and each transaction's BEGIN, COMMIT or ROLLBACK and savepoints.",
	}, func() float64 { return float64(st.Counts().Statements) })}
	if st.Engine() == store.PostgreSQL {
		cs = append(cs, prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "pbem_store_round_trips_total",
			Help: "Round trips to the PostgreSQL server since start: each statement's, and those pgx adds (preparing a statement on a connection, pinging one long idle).",
		}, func() float64 { return float64(st.Counts().RoundTrips) }))
	}
	return cs
}
