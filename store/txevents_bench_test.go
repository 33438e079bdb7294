package store

import (
	"database/sql/driver"
	"testing"
)

// BenchmarkKeepEvents measures keeping a game's event log as
// keptEventsSQL reads it, seven events and the reserved ids: pbem's
// side of every mail about a game on PostgreSQL (issue 40).
func BenchmarkKeepEvents(b *testing.B) {
	log := &bufferedRows{cols: []string{"after", "id", "seq", "to_seat", "kind", "text", "say"}}
	for i := range int64(7) {
		log.rows = append(log.rows, []driver.Value{int64(100), 101 + i, 20 + i, i%3 - 1, "played", "Ann played the rabbit.", ""})
	}
	for i := range int64(eventIDReserve) {
		log.rows = append(log.rows, []driver.Value{nil, 200 + i, nil, nil, nil, nil, nil})
	}
	b.ReportAllocs()
	for b.Loop() {
		tx := &Tx{memo: &txMemo{}}
		if err := tx.keepEvents(1, log); err != nil {
			b.Fatal(err)
		}
	}
}
