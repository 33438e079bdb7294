//go:build !linux

package main

import (
	"errors"
	"time"
)

// treeCPU is known only on Linux, from /proc.
func treeCPU(pid int) (time.Duration, error) {
	return 0, errors.New("--server-pid needs Linux's /proc")
}
