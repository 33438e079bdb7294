package mailer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"testing"
	"time"
)

// stripDelivery removes the three header lines the embedded server adds on
// delivery (Return-Path, Delivered-To, Received), leaving what was sent.
func stripDelivery(t *testing.T, raw []byte) []byte {
	t.Helper()
	for _, prefix := range []string{"Return-Path: ", "Delivered-To: ", "Received: "} {
		if !bytes.HasPrefix(raw, []byte(prefix)) {
			t.Fatalf("delivered message does not start with %q:\n%s", prefix, raw)
		}
		raw = raw[bytes.Index(raw, []byte("\r\n"))+2:]
	}
	return raw
}

func TestSenderSendsRawBytesUnchanged(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	// Headers in an unusual order, a folded header, a leading dot that
	// must survive dot-stuffing, and a Message-ID go-mail would never make.
	raw := []byte("Message-ID: <outbox-42.7@pbem.test>\r\n" +
		"Subject: =?utf-8?q?Z=C3=BCge?= for\r\n game 42\r\n" +
		"From: pbem <game@example.test>\r\n" +
		"To: bob@example.test\r\n" +
		"X-Pbem-Game: 42\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n" +
		"\r\n" +
		".a line starting with a dot\r\n" +
		"..and two\r\n" +
		"last line\r\n")
	s, err := NewSender(SenderConfig{Addr: srv.SMTPAddr(), HELO: "pbem.test", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), "game+bounce@example.test", []string{"bob@example.test", "carol+g42@example.test"}, raw); err != nil {
		t.Fatal(err)
	}
	for _, user := range []string{"bob@example.test", "carol@example.test"} {
		msgs, err := ReadAll(context.Background(), inboxConfig(srv), user)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) != 1 {
			t.Fatalf("%s has %d messages, want 1", user, len(msgs))
		}
		if got := stripDelivery(t, msgs[0].Raw); !bytes.Equal(got, raw) {
			t.Errorf("%s received\n%q\nwant\n%q", user, got, raw)
		}
		if rp := header(t, msgs[0].Raw, "Return-Path"); rp != "<game+bounce@example.test>" {
			t.Errorf("Return-Path %q", rp)
		}
	}
}

func TestSenderAuth(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	ctx := context.Background()
	raw := testMessage("game@example.test", "bob@example.test", "auth")
	good, err := NewSender(SenderConfig{Addr: srv.SMTPAddr(), Username: "game@example.test", Password: testPassword})
	if err != nil {
		t.Fatal(err)
	}
	if err := good.Send(ctx, "game@example.test", []string{"bob@example.test"}, raw); err != nil {
		t.Fatalf("send with auth: %v", err)
	}
	bad, err := NewSender(SenderConfig{Addr: srv.SMTPAddr(), Username: "game@example.test", Password: "wrong"})
	if err != nil {
		t.Fatal(err)
	}
	err = bad.Send(ctx, "game@example.test", []string{"bob@example.test"}, raw)
	if err == nil {
		t.Fatal("send with a wrong password succeeded")
	}
	// 535 at AUTH is about the configuration, not the message: the outbox
	// must keep the mail for when the password is fixed.
	var se *SendError
	if !errors.As(err, &se) || se.Code != 535 || se.Op != "connect" {
		t.Errorf("wrong password: got %v (%#v), want a connect SendError with code 535", err, se)
	}
	if IsPermanent(err) {
		t.Errorf("wrong password: %v classified permanent, want temporary", err)
	}
}

func TestSenderRefusedRecipientIsPermanent(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	s, err := NewSender(SenderConfig{Addr: srv.SMTPAddr()})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), "game@example.test", []string{"bob@example.test", "nodomain"},
		testMessage("game@example.test", "bob@example.test", "refused"))
	var se *SendError
	if !errors.As(err, &se) || !IsPermanent(err) || se.Code/100 != 5 {
		t.Fatalf("got %v (%#v), want a permanent 5xx SendError", err, se)
	}
	// All or nothing: bob did not get it either.
	msgs, err := ReadAll(context.Background(), inboxConfig(srv), "bob@example.test")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 0 {
		t.Errorf("bob got %d messages from a refused transaction", len(msgs))
	}
}

func TestSenderServerDownIsTemporary(t *testing.T) {
	t.Parallel()
	// A port nobody listens on: take a free one and close it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s, err := NewSender(SenderConfig{Addr: addr, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), "a@example.test", []string{"b@example.test"}, testMessage("a@example.test", "b@example.test", "x"))
	if err == nil {
		t.Fatal("send to a closed port succeeded")
	}
	if IsPermanent(err) {
		t.Errorf("connection refused classified permanent: %v", err)
	}
}

func TestSenderRejectsBadInput(t *testing.T) {
	t.Parallel()
	s, err := NewSender(SenderConfig{Addr: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	msg := testMessage("a@example.test", "b@example.test", "x")
	for name, err := range map[string]error{
		"no recipients": s.Send(ctx, "a@example.test", nil, msg),
		"empty message": s.Send(ctx, "a@example.test", []string{"b@example.test"}, nil),
		"bad address":   s.Send(ctx, "a@example.test", []string{"b@example.test>\r\nDATA"}, msg),
	} {
		if !IsPermanent(err) {
			t.Errorf("%s: got %v, want a permanent error", name, err)
		}
	}
	for _, cfg := range []SenderConfig{{}, {Addr: "nohost"}, {Addr: "h:0"}, {Addr: "h:25", Security: "ssl"}} {
		if _, err := NewSender(cfg); err == nil {
			t.Errorf("NewSender(%+v) succeeded", cfg)
		}
	}
}

func TestIsPermanent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("something"), false},
		{classify("rcpt", &textproto.Error{Code: 421, Msg: "shutting down"}), false},
		{classify("rcpt", &textproto.Error{Code: 450, Msg: "mailbox busy"}), false},
		{classify("data", &textproto.Error{Code: 452, Msg: "insufficient storage"}), false},
		{classify("rcpt", &textproto.Error{Code: 550, Msg: "no such user"}), true},
		{classify("data", &textproto.Error{Code: 554, Msg: "rejected"}), true},
		{classify("connect", &net.OpError{Op: "dial", Err: errors.New("connection refused")}), false},
		{classify("data", context.DeadlineExceeded), false},
		{fmt.Errorf("outbox: %w", classify("rcpt", &textproto.Error{Code: 553})), true},
	} {
		if got := IsPermanent(tc.err); got != tc.want {
			t.Errorf("IsPermanent(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
