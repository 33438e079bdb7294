package wiring

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// ListenError is the error of listening on the address a configuration
// key gives: it names the key, in the file and in the environment, and
// says what to do, so that a busy port does not stop pbem with only
// "bind: address already in use".
type ListenError struct {
	Key  string // the TOML key, "web.addr"
	Addr string // its value
	Err  error  // what listening said
}

// NewListenError wraps err, from listening on addr, with key.
func NewListenError(key, addr string, err error) error {
	return &ListenError{Key: key, Addr: addr, Err: err}
}

func (e *ListenError) Error() string {
	section, name, _ := strings.Cut(e.Key, ".")
	env := "PBEM_" + strings.ToUpper(section+"_"+name)
	return fmt.Sprintf("[%s] %s = %q (%s): %s", section, name, e.Addr, env, listenAdvice(e.Err))
}

func (e *ListenError) Unwrap() error { return e.Err }

// listenAdvice says what went wrong in words that lead to the fix; an
// error it does not know is given as it is.
func listenAdvice(err error) string {
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return "the address is already in use, by another program or another pbem: set another port, or stop what listens there"
	case errors.Is(err, syscall.EACCES):
		return "permission denied: a port below 1024 needs privileges pbem should not have; set a port above 1024"
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return "this machine has no such address: use 127.0.0.1, or one of the machine's own addresses"
	}
	return err.Error()
}
