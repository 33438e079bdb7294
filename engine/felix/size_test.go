package felix

import (
	"testing"
	"unsafe"
)

// TestStateIsSmall keeps the state cheap to copy for playouts.
func TestStateIsSmall(t *testing.T) {
	t.Parallel()
	if n := unsafe.Sizeof(State{}); n > 160 {
		t.Errorf("State is %d bytes; keep it under 160 so copies stay cheap", n)
	}
}
