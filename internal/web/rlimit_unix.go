//go:build unix

package web

import "syscall"

// descriptorLimit is the process's soft RLIMIT_NOFILE, which Go raises
// to the hard one at start.
func descriptorLimit() (uint64, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0, false
	}
	return rl.Cur, true
}
