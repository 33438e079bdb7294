package store

import (
	"container/list"
	"sync"
)

// queuedMessages holds the messages of the mails this process queued
// lately (Tx.Post), by Message-ID, so that the outbox's claim takes a
// message it is about to send from memory rather than reading back the
// bytes the command's transaction wrote a moment before (issue 40: on
// SQLite the read and its two copies of every 20–30 kB message were a
// seventh of what pbem serve allocated, and 1.4 % of its CPU).
//
// It only ever saves a read: a claim takes a mail's message from here
// when the mail's Message-ID and recipient are those it was posted
// with, and reads it from the database otherwise. A message is put here
// only once the transaction that inserted its mail has committed, and
// only if that transaction's INSERT added the row (a Message-ID already
// queued keeps its first message, in the database as here), so what is
// here is the message the database holds for that Message-ID. Message-IDs
// are unique in the outbox, and a claim takes a message out: a mail
// claimed by another node, or never claimed, leaves by age, the oldest
// first, past maxQueuedMessages or maxQueuedBytes.
type queuedMessages struct {
	mu    sync.Mutex
	byID  map[string]*list.Element // of *queuedMessage
	order list.List                // oldest first
	bytes int
}

// queuedMessage is a mail as Tx.Post inserted it.
type queuedMessage struct {
	messageID string
	rcpt      string // normalized, as the outbox row holds it
	raw       []byte // the caller's; never changed after Post
}

// The bounds of what queuedMessages keeps: the mail of a few busy
// seconds, which the outbox claims within one.
const (
	maxQueuedMessages = 256
	maxQueuedBytes    = 8 << 20
)

func newQueuedMessages() *queuedMessages {
	return &queuedMessages{byID: map[string]*list.Element{}}
}

// add keeps the messages of a transaction that committed.
func (q *queuedMessages) add(ms []queuedMessage) {
	if len(ms) == 0 {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, m := range ms {
		if e, ok := q.byID[m.messageID]; ok {
			q.remove(e) // cannot be: a Message-ID is inserted once
		}
		q.byID[m.messageID] = q.order.PushBack(&m)
		q.bytes += len(m.raw)
	}
	for q.order.Len() > maxQueuedMessages || q.bytes > maxQueuedBytes {
		q.remove(q.order.Front())
	}
}

// take returns the message posted with the Message-ID to rcpt, and
// forgets it; nil if it has none such.
func (q *queuedMessages) take(messageID, rcpt string) []byte {
	q.mu.Lock()
	defer q.mu.Unlock()
	e, ok := q.byID[messageID]
	if !ok {
		return nil
	}
	q.remove(e)
	m := e.Value.(*queuedMessage)
	if m.rcpt != rcpt {
		return nil
	}
	return m.raw
}

func (q *queuedMessages) remove(e *list.Element) {
	m := q.order.Remove(e).(*queuedMessage)
	delete(q.byID, m.messageID)
	q.bytes -= len(m.raw)
}

// len is the number of messages kept, for tests.
func (q *queuedMessages) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.order.Len()
}
