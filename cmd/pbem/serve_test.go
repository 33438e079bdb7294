package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeStoppedWhileStarting: a stop that comes while pbem is still
// starting (here, before it begins) is a clean stop, exit status 0: the
// store is opened and migrated whole, nothing more starts, and pbem says
// it stopped. It once failed with "store: open …: context canceled".
func TestServeStoppedWhileStarting(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PBEM_STORE_DATABASE", filepath.Join(dir, "pbem.db"))
	t.Setenv("PBEM_EMBEDDED_IMAP_ADDR", "127.0.0.1:0")
	t.Setenv("PBEM_EMBEDDED_SMTP_ADDR", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if code := run(ctx, &env{stdout: &stdout, stderr: &stderr}, []string{"serve"}); code != 0 {
		t.Fatalf("exit status %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "pbem stopped") {
		t.Errorf("pbem did not say it stopped:\n%s", stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
			t.Errorf("a stop logged: %s", line)
		}
	}
}
