package main

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time (user and system) of the calling thread, as
// a time for arena.Config.Now: a bot's move measured with it is its cost
// on one core, however loaded the machine is. ok is false where the
// system cannot tell it.
func threadCPU() (now func() time.Time, ok bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_THREAD, &ru) != nil {
		return nil, false
	}
	return func() time.Time {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
		return time.Unix(0, ru.Utime.Nano()+ru.Stime.Nano())
	}, true
}
