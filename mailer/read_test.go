package mailer

import (
	"context"
	"testing"
)

// TestReadSince: only messages above the UID are fetched, and the highest
// UID is not returned again when nothing is newer (UID n:* matches it).
func TestReadSince(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	cfg := inboxConfig(srv)
	ctx := context.Background()
	for _, s := range []string{"one", "two", "three"} {
		sendTo(t, srv, "game@example.test", s)
	}
	all, err := ReadAll(ctx, cfg, "")
	if err != nil || len(all) != 3 {
		t.Fatalf("ReadAll: %d messages, %v", len(all), err)
	}
	newer, err := ReadSince(ctx, cfg, "", all[0].UID)
	if err != nil || len(newer) != 2 || subject(t, newer[0].Raw) != "two" || subject(t, newer[1].Raw) != "three" {
		t.Fatalf("ReadSince the first: %d messages, %v", len(newer), err)
	}
	none, err := ReadSince(ctx, cfg, "", all[2].UID)
	if err != nil || len(none) != 0 {
		t.Fatalf("ReadSince the last: %d messages, %v", len(none), err)
	}
}
