package config

import (
	"strings"
	"testing"
	"time"
)

// [retention]: 30 days and hourly by default, 0s keeps mail for ever, and
// values that make no sense are refused at start.
func TestRetentionConfig(t *testing.T) {
	t.Parallel()
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Retention.MailBodies.Duration != 720*time.Hour || c.Retention.Every.Duration != time.Hour {
		t.Fatalf("defaults %+v, want mail_bodies 720h and every 1h", c.Retention)
	}
	c, err = Load("", []string{"PBEM_RETENTION_MAIL_BODIES=0s", "PBEM_RETENTION_EVERY=6h"})
	if err != nil || c.Retention.MailBodies.Duration != 0 || c.Retention.Every.Duration != 6*time.Hour {
		t.Fatalf("mail_bodies 0s, every 6h: %+v, %v", c.Retention, err)
	}
	for _, tt := range []struct {
		env, want string
	}{
		{"PBEM_RETENTION_MAIL_BODIES=-1h", "mail_bodies -1h0m0s is negative"},
		{"PBEM_RETENTION_EVERY=0s", "every 0s must be at least 1m"},
		{"PBEM_RETENTION_EVERY=10s", "every 10s must be at least 1m"},
	} {
		if _, err := Load("", []string{tt.env}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.env, err, tt.want)
		}
	}
}
