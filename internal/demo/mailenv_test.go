//go:build integration || faults

package demo

import "os"

// mailSystemFromEnv is the real mail stack that `scripts/mailstack env`
// describes (PBEM_TEST_SMTP, PBEM_TEST_IMAP, PBEM_TEST_DOMAIN,
// PBEM_TEST_PASSWORD), and whether all of it is set: the integration
// tests fail without it, the fault run skips.
func mailSystemFromEnv() (*MailSystem, bool) {
	m := &MailSystem{
		SMTPAddr: os.Getenv("PBEM_TEST_SMTP"),
		IMAPAddr: os.Getenv("PBEM_TEST_IMAP"),
		Domain:   os.Getenv("PBEM_TEST_DOMAIN"),
		Password: os.Getenv("PBEM_TEST_PASSWORD"),
	}
	return m, m.SMTPAddr != "" && m.IMAPAddr != "" && m.Domain != "" && m.Password != ""
}
