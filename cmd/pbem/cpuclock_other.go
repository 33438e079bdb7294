//go:build !linux

package main

import "time"

// threadCPU is not known here: pbem arena times moves by the wall clock.
func threadCPU() (now func() time.Time, ok bool) { return nil, false }
