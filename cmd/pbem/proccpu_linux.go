package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTicks is Linux's USER_HZ, the unit of /proc/PID/stat's times: 100
// on every architecture Linux runs Go on (sysconf(_SC_CLK_TCK) would
// need cgo to ask).
const clockTicks = 100

// treeCPU is the CPU time, user and system, that process pid and its
// children have used so far: its own, its waited-for children's
// (cutime, cstime), and that of its children still running. Read before
// and after a run, the difference is what a server such as PostgreSQL's
// postmaster and its backends spent in between, backends that came and
// went included.
//
// A child reaped between the read of the parent's times and the
// listing of its children would be in neither (issue 40: at the end of a
// run, as pbem's backends exit together, a server's share read 0.12 ms
// a command against 2.7–2.9 in every other run). So the children are
// listed before and after the parent is read, and the reading is taken
// only when no child of the first listing is missing from the second:
// then none was reaped meanwhile, and each is counted once, live.
func treeCPU(pid int) (time.Duration, error) {
	for range treeReadTries {
		first, err := childTimes(pid)
		if err != nil {
			return 0, err
		}
		own, _, err := procStat(pid)
		if err != nil {
			return 0, err
		}
		second, err := childTimes(pid)
		if err != nil {
			return 0, err
		}
		if !noneGone(first, second) {
			continue // a child was reaped meanwhile: read again
		}
		total := own.user + own.sys + own.childUser + own.childSys
		for _, t := range second {
			total += t.user + t.sys
		}
		return total, nil
	}
	return 0, fmt.Errorf("process %d's children kept exiting while read, %d times", pid, treeReadTries)
}

// treeReadTries bounds treeCPU's readings: each one that fails saw a
// child reaped, which a server does a few times a second at most.
const treeReadTries = 100

// childTimes are the times of pid's children now, by process id.
func childTimes(pid int) (map[int]procTimes, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("read /proc: %w", err)
	}
	out := map[int]procTimes{}
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil || child == pid {
			continue
		}
		st, parent, err := procStat(child)
		if err != nil || parent != pid {
			continue // gone since the listing, or not a child
		}
		out[child] = st
	}
	return out, nil
}

// noneGone reports whether every process of first is in second.
func noneGone(first, second map[int]procTimes) bool {
	for pid := range first {
		if _, ok := second[pid]; !ok {
			return false
		}
	}
	return true
}

// procTimes are the times of /proc/PID/stat.
type procTimes struct{ user, sys, childUser, childSys time.Duration }

// procStat reads a process's times and its parent from /proc/PID/stat.
// The command name (field 2) may hold spaces and parentheses, so the
// fields are counted from its last ')'.
func procStat(pid int) (procTimes, int, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procTimes{}, 0, err
	}
	t, ppid, err := parseStat(string(b))
	if err != nil {
		return procTimes{}, 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return t, ppid, nil
}

// parseStat reads the times and the parent of a /proc/PID/stat line.
func parseStat(s string) (procTimes, int, error) {
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return procTimes{}, 0, errors.New("no command name")
	}
	// After ") ": state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17).
	f := strings.Fields(s[end+1:])
	if len(f) < 15 {
		return procTimes{}, 0, fmt.Errorf("%d fields after the name, want at least 15", len(f))
	}
	num := func(i int) int64 { n, _ := strconv.ParseInt(f[i], 10, 64); return n }
	tick := func(i int) time.Duration { return time.Duration(num(i)) * time.Second / clockTicks }
	return procTimes{user: tick(11), sys: tick(12), childUser: tick(13), childSys: tick(14)}, int(num(1)), nil
}
