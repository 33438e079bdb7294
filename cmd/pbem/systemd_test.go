package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSystemdUnit checks examples/pbem.service with systemd's own tools:
// the unit must verify, and its exposure score (systemd-analyze security)
// must stay at 2.0 or below ("OK"), so that a later edit cannot quietly
// drop the hardening docs/operations.md promises.
func TestSystemdUnit(t *testing.T) {
	tool, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	unit, err := os.ReadFile("../../examples/pbem.service")
	if err != nil {
		t.Fatal(err)
	}
	// verify wants ExecStart's binary to exist: any executable will do.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(unit), "/usr/local/bin/pbem", self)
	path := filepath.Join(t.TempDir(), "pbem.service")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(tool, "verify", path).CombinedOutput(); err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	out, err := exec.Command(tool, "security", "--offline=true", "--threshold=20", path).CombinedOutput()
	if err != nil {
		t.Errorf("systemd-analyze security: exposure above 2.0 or failure: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Overall exposure level") {
		t.Errorf("systemd-analyze security said no exposure level:\n%s", out)
	}
}
