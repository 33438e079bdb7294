//go:build browser

package testlib

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Chromium starts a headless Chromium for the test and returns its
// context, or fails the test: the browser tests (-tags browser) must
// fail, not skip, where Chromium is missing.
func Chromium(t *testing.T) context.Context {
	t.Helper()
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Fatal("the browser tests (-tags browser) need Chromium, and neither chromium nor chromium-browser is on PATH: install it with apt-get install chromium (scripts/test does)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	// A generous bound on the whole test, never a wait: each step waits
	// for its event.
	tctx, cancelTime := context.WithTimeout(actx, 60*time.Second)
	ctx, cancel := chromedp.NewContext(tctx)
	t.Cleanup(func() { cancel(); cancelTime(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("chromium does not start: %v", err)
	}
	return ctx
}
