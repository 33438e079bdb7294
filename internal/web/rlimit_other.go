//go:build !unix

package web

// descriptorLimit is not known here: the configured bound stands alone.
func descriptorLimit() (uint64, bool) { return 0, false }
