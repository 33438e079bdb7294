package wiring

import (
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"
)

// TestListenErrorNamesTheKey (issue 35, finding 9): a busy port names the
// key to change, in the file and the environment, and what to do; the
// error underneath stays reachable.
func TestListenErrorNamesTheKey(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	addr := busy.Addr().String()
	_, lerr := net.Listen("tcp", addr)
	if lerr == nil {
		t.Fatal("listened twice on one port")
	}
	tests := []struct {
		key  string
		err  error
		want string
	}{
		{"web.addr", lerr, `[web] addr = "` + addr + `" (PBEM_WEB_ADDR): the address is already in use, by another program or another pbem: set another port, or stop what listens there`},
		{"embedded.imap_addr", lerr, `[embedded] imap_addr = "` + addr + `" (PBEM_EMBEDDED_IMAP_ADDR): the address is already in use`},
		{"metrics.addr", fmt.Errorf("listen: %w", syscall.EACCES), `[metrics] addr = "` + addr + `" (PBEM_METRICS_ADDR): permission denied: a port below 1024`},
		{"lmtp.addr", fmt.Errorf("listen: %w", syscall.EADDRNOTAVAIL), `[lmtp] addr = "` + addr + `" (PBEM_LMTP_ADDR): this machine has no such address`},
		{"lmtp.addr", errors.New("mailer: LMTP listener: something already listens on /run/x"), `[lmtp] addr = "` + addr + `" (PBEM_LMTP_ADDR): mailer: LMTP listener: something already listens on /run/x`},
	}
	for _, tt := range tests {
		got := NewListenError(tt.key, addr, tt.err)
		if s := got.Error(); len(s) < len(tt.want) || s[:len(tt.want)] != tt.want {
			t.Errorf("%s: %q\nwant it to begin %q", tt.key, s, tt.want)
		}
		if !errors.Is(got, tt.err) {
			t.Errorf("%s: %v does not wrap %v", tt.key, got, tt.err)
		}
	}
}
