package webpage

import "testing"

// TestChanges: a publish reaches every waiter on its game and no other
// game's, never blocks (a waiter told twice before it wakes wakes once),
// and a stopped waiter is forgotten.
func TestChanges(t *testing.T) {
	c := NewChanges()
	a1, stop1 := c.Subscribe(1)
	a2, stop2 := c.Subscribe(1)
	b, stopB := c.Subscribe(2)
	if n := c.Waiting(1); n != 2 {
		t.Fatalf("%d waiting on game 1", n)
	}
	c.Publish(1)
	c.Publish(1) // a1 and a2 not awake yet: no block
	for i, ch := range []<-chan struct{}{a1, a2} {
		select {
		case <-ch:
		default:
			t.Fatalf("waiter %d on game 1 was not told", i+1)
		}
		select {
		case <-ch:
			t.Fatalf("waiter %d on game 1 was told twice", i+1)
		default:
		}
	}
	select {
	case <-b:
		t.Fatal("game 2's waiter was told of game 1")
	default:
	}
	stop1()
	stop2()
	stopB()
	if n := c.Waiting(1) + c.Waiting(2); n != 0 {
		t.Fatalf("%d still waiting after stop", n)
	}
	var none *Changes
	none.Publish(1) // a service without pages publishes to no one
}
