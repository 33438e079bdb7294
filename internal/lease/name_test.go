package lease

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// TestHolderDead: a registration made by a process of this machine that
// no longer runs is known dead, so that a node killed and started again
// here takes its name at once (the crash tests restart a node many times
// a minute); any other holder is waited out.
func TestHolderDead(t *testing.T) {
	t.Parallel()
	machine := machineTag()
	// Where the system names no machine (no /proc), no holder is known
	// dead: the holders below then carry a tag of their own, and every
	// case but this process's is waited out.
	tag := machine
	if tag == "" {
		tag = "0123456789ab"
	}
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	running := exec.Command("sleep", "60")
	if err := running.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		running.Process.Kill()
		running.Wait()
	})
	holder := func(pid int, machine string) string {
		return fmt.Sprintf("vm pid %d #0123456789ab machine %s", pid, machine)
	}
	for _, c := range []struct {
		name   string
		holder string
		dead   bool
	}{
		{"exited, this machine", holder(exited.Process.Pid, tag), machine != ""},
		{"running, this machine", holder(running.Process.Pid, tag), false},
		{"this process", holder(os.Getpid(), tag), false},
		{"exited, another machine", holder(exited.Process.Pid, "ffffffffffff"), false},
		{"no machine named", fmt.Sprintf("vm pid %d #0123456789ab", exited.Process.Pid), false},
		{"not an instance", "web1", false},
	} {
		if got := holderDead(c.holder, machine); got != c.dead {
			t.Errorf("%s: holderDead(%q) = %v, want %v", c.name, c.holder, got, c.dead)
		}
	}
	if inst := newInstance(machine); instanceForm.MatchString(inst) != (machine != "") {
		t.Errorf("newInstance gives %q: instanceForm reads it %v, with the machine named %q", inst, instanceForm.MatchString(inst), machine)
	}
}
