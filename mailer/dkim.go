package mailer

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
)

// DKIMSigner signs pbem's outgoing mail with DKIM (RFC 6376), so that
// receiving servers can tell pbem's mail from forgeries and DMARC passes
// for pbem's domain. It signs where mail leaves (Wrap), so the outbox keeps
// the bytes as they were written and every (re)send is signed afresh.
type DKIMSigner struct {
	opts dkim.SignOptions
}

// dkimHeaders are the fields pbem signs: those that say who wrote the mail,
// to whom, what it is, where it belongs in a thread and how to stop it
// (List-Unsubscribe and List-Unsubscribe-Post: a forged one could send a
// player's "unsubscribe" anywhere, and receivers trust only a signed one;
// RFC 8058 section 4 requires both signed for one-click unsubscribe).
var dkimHeaders = []string{
	"From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
	"Reply-To", "MIME-Version", "Content-Type", "Auto-Submitted", "List-Unsubscribe",
	"List-Unsubscribe-Post",
}

// LoadDKIMSigner reads a PEM private key (RSA as PKCS #1 or PKCS #8, or
// Ed25519 as PKCS #8) and makes a signer for domain with selector.
func LoadDKIMSigner(keyPath, selector, domain string) (*DKIMSigner, error) {
	data, err := os.ReadFile(keyPath)
	if err != nil {
		return nil, fmt.Errorf("mailer: DKIM key: %w", err)
	}
	key, err := parseDKIMKey(data)
	if err != nil {
		return nil, fmt.Errorf("mailer: DKIM key %s: %w", keyPath, err)
	}
	return NewDKIMSigner(key, selector, domain)
}

// NewDKIMSigner makes a signer with a key already loaded.
func NewDKIMSigner(key crypto.Signer, selector, domain string) (*DKIMSigner, error) {
	selector, domain = strings.TrimSpace(selector), strings.TrimSpace(domain)
	if selector == "" || domain == "" {
		return nil, fmt.Errorf("mailer: DKIM needs a selector and a domain")
	}
	return &DKIMSigner{opts: dkim.SignOptions{
		Domain: domain, Selector: selector, Signer: key,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed,
		BodyCanonicalization:   dkim.CanonicalizationRelaxed,
		HeaderKeys:             dkimHeaders,
	}}, nil
}

// minRSABits is the smallest RSA key receivers verify.
const minRSABits = 1024

func parseDKIMKey(data []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("no PEM block")
	}
	var key any
	var err error
	switch block.Type {
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("PEM block %q is not a private key (want PRIVATE KEY or RSA PRIVATE KEY)", block.Type)
	}
	if err != nil {
		return nil, err
	}
	switch k := key.(type) {
	case *rsa.PrivateKey:
		// Verifiers refuse RSA keys under 1024 bits (RFC 8301 §3.2), so
		// mail signed with one would fail DKIM everywhere.
		if n := k.N.BitLen(); n < minRSABits {
			return nil, fmt.Errorf("RSA key of %d bits: verifiers need at least %d (2048 recommended)", n, minRSABits)
		}
		return k, nil
	case ed25519.PrivateKey:
		return k, nil
	}
	return nil, fmt.Errorf("a %T cannot sign DKIM (want RSA or Ed25519)", key)
}

// Sign returns raw with a DKIM-Signature field in front.
func (d *DKIMSigner) Sign(raw []byte) ([]byte, error) {
	opts := d.opts // Sign may not keep its options; each call gets a copy
	var out bytes.Buffer
	if err := dkim.Sign(&out, bytes.NewReader(raw), &opts); err != nil {
		return nil, fmt.Errorf("mailer: DKIM sign: %w", err)
	}
	return out.Bytes(), nil
}

// Wrap returns a send function that signs each mail, then sends it with
// send. A mail that cannot be signed is not sent: the error is temporary
// as far as the outbox knows, and the mail stays queued.
func (d *DKIMSigner) Wrap(send func(ctx context.Context, from string, to []string, raw []byte) error) func(ctx context.Context, from string, to []string, raw []byte) error {
	return func(ctx context.Context, from string, to []string, raw []byte) error {
		signed, err := d.Sign(raw)
		if err != nil {
			return err
		}
		return send(ctx, from, to, signed)
	}
}
