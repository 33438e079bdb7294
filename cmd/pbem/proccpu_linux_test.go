package main

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// A real line of /proc/PID/stat, whose command name holds ") (".
	line := "14137 (post) (master) S 1 14137 14137 0 -1 4194560 2150 51630 0 3 250 120 4200 1700 20 0 1 0 3520 231153664 7360 18446744073709551615 1 1 0 0 0 0 0 16781312 16386 0 0 0 17 1 0 0 0 0 0\n"
	got, ppid, err := parseStat(line)
	if err != nil {
		t.Fatal(err)
	}
	want := procTimes{user: 2500 * time.Millisecond, sys: 1200 * time.Millisecond, childUser: 42 * time.Second, childSys: 17 * time.Second}
	if got != want || ppid != 1 {
		t.Errorf("parseStat = %+v, ppid %d; want %+v, ppid 1", got, ppid, want)
	}
	for _, bad := range []string{"", "14137 no name", "1 (x) S 1 2 3"} {
		if _, _, err := parseStat(bad); err == nil {
			t.Errorf("parseStat(%q): no error", bad)
		}
	}
}

// TestTreeCPUCountsChildren: a child that ran and was waited for is in
// its parent's tree (cutime/cstime), so a server's backends that came
// and went during a run are counted.
func TestTreeCPUCountsChildren(t *testing.T) {
	before, err := treeCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	// Busy for a while in a child of this process.
	cmd := exec.Command("sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done")
	if err := cmd.Run(); err != nil {
		t.Skipf("no sh to run: %v", err)
	}
	child := time.Duration(cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime())
	after, err := treeCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	// Ticks are 10 ms: the child's own figure, rounded down to them,
	// is in the difference.
	if got, least := after-before, child.Truncate(10*time.Millisecond)-10*time.Millisecond; got < least {
		t.Errorf("tree CPU grew by %v, less than the child's %v", got, child)
	}
}

// noneGone is what makes treeCPU's reading whole: a child of the first
// listing missing from the second may have been reaped between them,
// its time in neither the parent's nor the listing's.
func TestNoneGone(t *testing.T) {
	a, b, c := procTimes{user: time.Second}, procTimes{sys: time.Second}, procTimes{}
	for _, tc := range []struct {
		name          string
		first, second map[int]procTimes
		want          bool
	}{
		{"the same children", map[int]procTimes{1: a, 2: b}, map[int]procTimes{1: a, 2: b}, true},
		{"one more ran meanwhile", map[int]procTimes{1: a}, map[int]procTimes{1: a, 3: c}, true},
		{"none", map[int]procTimes{}, map[int]procTimes{}, true},
		{"one was reaped", map[int]procTimes{1: a, 2: b}, map[int]procTimes{1: a}, false},
		{"one was reaped, another ran", map[int]procTimes{1: a, 2: b}, map[int]procTimes{1: a, 3: c}, false},
	} {
		if got := noneGone(tc.first, tc.second); got != tc.want {
			t.Errorf("%s: noneGone = %t, want %t", tc.name, got, tc.want)
		}
	}
}

// TestTreeCPUWhileChildrenExit reads the tree over and over while this
// process starts and reaps children: a reading never goes down, which it
// did when a child reaped between the parent's read and the listing of
// its children was counted in neither.
func TestTreeCPUWhileChildrenExit(t *testing.T) {
	// Each child spends a little CPU of its own, then is reaped.
	spin := func() error {
		return exec.Command("sh", "-c", "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done").Run()
	}
	if err := spin(); err != nil {
		t.Fatalf("a child to reap: %v", err) // sh is Debian's own: without it the test would prove nothing
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			spin()
		}
	}()
	defer func() { close(stop); <-done }()
	last := time.Duration(0)
	for i := range 300 {
		got, err := treeCPU(os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		if got < last {
			t.Fatalf("reading %d: the tree's CPU went down from %v to %v", i, last, got)
		}
		last = got
	}
}
