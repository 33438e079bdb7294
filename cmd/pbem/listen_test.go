package main

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeListenErrorsNameTheKey (issue 35, finding 9): a port in use
// stops pbem serve with the key to change, for every address it listens
// on. It said only "web listener: listen tcp 127.0.0.1:8080: bind:
// address already in use", or "embedded: imap: …" for the mail servers.
func TestServeListenErrorsNameTheKey(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	addr := busy.Addr().String()
	embeddedFree := map[string]string{
		"PBEM_EMBEDDED_IMAP_ADDR": "127.0.0.1:0", "PBEM_EMBEDDED_SMTP_ADDR": "127.0.0.1:0", "PBEM_EMBEDDED_WEB_ADDR": "",
	}
	tests := []struct {
		name    string
		real    bool // a real mail server (the test's), not the embedded ones
		changes map[string]string
		want    string
	}{
		{"embedded IMAP", false, map[string]string{"PBEM_EMBEDDED_IMAP_ADDR": addr}, `[embedded] imap_addr = "` + addr + `" (PBEM_EMBEDDED_IMAP_ADDR): the address is already in use`},
		{"embedded SMTP", false, map[string]string{"PBEM_EMBEDDED_SMTP_ADDR": addr}, `[embedded] smtp_addr = "` + addr + `" (PBEM_EMBEDDED_SMTP_ADDR): the address is already in use`},
		{"metrics", false, map[string]string{"PBEM_METRICS_ADDR": addr}, `[metrics] addr = "` + addr + `" (PBEM_METRICS_ADDR): the address is already in use`},
		{"the quick start's pages", false, map[string]string{"PBEM_EMBEDDED_WEB_ADDR": addr}, `[embedded] web_addr = "` + addr + `" (PBEM_EMBEDDED_WEB_ADDR): the address is already in use`},
		{"pages", false, map[string]string{"PBEM_WEB_ADDR": addr, "PBEM_WEB_URL": "https://pbem.example.org"}, `[web] addr = "` + addr + `" (PBEM_WEB_ADDR): the address is already in use`},
		{"LMTP", true, map[string]string{"PBEM_LMTP_ADDR": addr}, `[lmtp] addr = "` + addr + `" (PBEM_LMTP_ADDR): the address is already in use`},
	}
	m := newMailSetup(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.real {
				m.env(t, tt.changes)
			} else {
				t.Setenv("PBEM_STORE_DATABASE", filepath.Join(t.TempDir(), "pbem.db"))
				for k, v := range embeddedFree {
					t.Setenv(k, v)
				}
				for k, v := range tt.changes {
					t.Setenv(k, v)
				}
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}, []string{"serve"})
			if code == 0 || !strings.Contains(stderr.String(), "pbem serve: "+tt.want) {
				t.Errorf("exit status %d, stderr:\n%s\nwant: pbem serve: %s", code, stderr.String(), tt.want)
			}
		})
	}
}
