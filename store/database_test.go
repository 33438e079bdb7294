package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The secret every refused setting below carries: no message may repeat it.
const databaseSecret = "s3cret"

// databaseSettings are store.database values and what pbem makes of them
// (issue 33, finding 8): a libpq key=value string was once taken as a
// SQLite file's name, and a file named after the password appeared.
var databaseSettings = []struct {
	value string
	want  DatabaseKind
}{
	{"pbem.db", DatabaseFile},
	{"/var/lib/pbem/pbem.db", DatabaseFile},
	{"./host=db.example password=s3cret", DatabaseFile}, // written as a path: a path
	{"../data/pbem.db", DatabaseFile},
	{"pbem data/a=b.db", DatabaseFile}, // '=' after the first word's end
	{"postgres://pbem:s3cret@db.example:5432/pbem", DatabaseURL},
	{"postgresql://pbem@db/pbem?password=s3cret", DatabaseURL},
	{"host=db.example password=s3cret dbname=pbem", DatabaseRefused},
	{"password=s3cret", DatabaseRefused},
	{"  dbname = pbem password=s3cret", DatabaseRefused},
	{"user=pbem\tpassword=s3cret", DatabaseRefused},
	{"mysql://pbem:s3cret@db/pbem", DatabaseRefused},
	{"POSTGRES://pbem:s3cret@db/pbem", DatabaseRefused},
	{"sqlite:///var/lib/s3cret.db", DatabaseRefused},
	{"", DatabaseRefused},
}

func TestDatabaseSetting(t *testing.T) {
	t.Parallel()
	for _, tc := range databaseSettings {
		got, err := ClassifyDatabase(tc.value)
		if got != tc.want {
			t.Errorf("ClassifyDatabase(%q) = %v, want %v", tc.value, got, tc.want)
		}
		if (err != nil) != (tc.want == DatabaseRefused) {
			t.Errorf("ClassifyDatabase(%q): err %v, want one only for a refusal", tc.value, err)
		}
		if err == nil {
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, databaseSecret) || (strings.TrimSpace(tc.value) != "" && strings.Contains(msg, strings.TrimSpace(tc.value))) {
			t.Errorf("ClassifyDatabase(%q): the message repeats the value: %s", tc.value, msg)
		}
		if !strings.Contains(msg, "store.database") || !strings.Contains(msg, "postgres://") {
			t.Errorf("ClassifyDatabase(%q): the message %q says neither the key nor the form to use", tc.value, msg)
		}
		if r := Redact(tc.value); strings.Contains(r, databaseSecret) {
			t.Errorf("Redact(%q) = %q: the secret shows", tc.value, r)
		}
	}
}

// TestOpenRefusesKeyValueSetting: Open refuses such a value too (pbem
// store-copy and loadtest --database take one without the configuration),
// creates no file named after it, and says nothing of it.
func TestOpenRefusesKeyValueSetting(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, v := range []string{"host=127.0.0.1 password=s3cret dbname=pbem", "mysql://pbem:s3cret@db/pbem"} {
		s, err := Open(context.Background(), v)
		if err == nil {
			s.Close()
			t.Fatalf("Open of a refused setting succeeded")
		}
		if strings.Contains(err.Error(), databaseSecret) {
			t.Errorf("Open's error repeats the secret: %v", err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) > 0 {
		t.Errorf("Open left files behind: %v", left)
	}
}
