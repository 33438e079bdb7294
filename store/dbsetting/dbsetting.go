// Package dbsetting reads the store.database setting: which database it
// names, a SQLite file by its path or a PostgreSQL database by its URL,
// and which values pbem refuses. It is a leaf, so that package config can
// refuse a value when it reads it without importing the store.
package dbsetting

import (
	"errors"
	"regexp"
	"strings"
)

// IsURL reports whether database (store.database) names a PostgreSQL
// database by URL, rather than a SQLite file by path.
func IsURL(database string) bool {
	return strings.HasPrefix(database, "postgres://") || strings.HasPrefix(database, "postgresql://")
}

// Kind is what a store.database value names (Classify).
type Kind int

const (
	// Refused: neither a path nor a PostgreSQL URL; store.Open refuses it.
	Refused Kind = iota
	// File: the path of a SQLite file.
	File
	// URL: a PostgreSQL database's postgres:// or postgresql:// URL.
	URL
)

func (k Kind) String() string {
	switch k {
	case File:
		return "a SQLite file"
	case URL:
		return "a PostgreSQL URL"
	default:
		return "refused"
	}
}

var (
	// otherScheme is the start of a URL: scheme "://". Only postgres and
	// postgresql are opened; any other (mysql://, sqlite://, file://, a
	// POSTGRES:// in capitals) would otherwise be a file's name.
	otherScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)
	// keyValue is the start of a libpq connection string, "host=…
	// password=…": a word, then '=' (libpq allows spaces around it).
	keyValue = regexp.MustCompile(`^\s*[A-Za-z_][A-Za-z0-9_]*\s*=`)
)

// Classify says what database, a store.database value, names: a
// PostgreSQL database by its postgres:// or postgresql:// URL, or a SQLite
// file by its path. It refuses a value that is neither but looks like
// one of pbem's neighbours' forms, which used to become a file named
// after it, password and all (issue 33): one that begins with a word and
// '=' (a libpq key=value string such as "host=db password=…"), or with
// another scheme and "://". A file whose name begins so is written as
// ./NAME. The error names the key and never the value, which may hold a
// password.
func Classify(database string) (Kind, error) {
	switch {
	case IsURL(database):
		return URL, nil
	case strings.TrimSpace(database) == "":
		return Refused, errors.New("store.database is empty: set it to a SQLite file's path or a PostgreSQL database's URL, postgres://USER:PASSWORD@HOST:PORT/DB")
	case keyValue.MatchString(database):
		return Refused, errors.New("store.database looks like a libpq key=value string (host=… dbname=…), which pbem does not read: " +
			"write a PostgreSQL database as a URL, postgres://USER:PASSWORD@HOST:PORT/DB, or a SQLite file whose name begins with a word and '=' as ./NAME " +
			"(the value is not repeated here: it may hold a password)")
	case otherScheme.MatchString(database):
		return Refused, errors.New("store.database is a URL, but not a postgres:// or postgresql:// one: " +
			"pbem opens a PostgreSQL database by its URL, postgres://USER:PASSWORD@HOST:PORT/DB, and a SQLite file by its path " +
			"(the value is not repeated here: it may hold a password)")
	}
	return File, nil
}
