package templates

import (
	"reflect"
	"testing"
	"time"
)

// TestGameDataHoldsTheMail checks that gameData has every field of
// GameMail as its own, of the same type, and that mailData copies each:
// the templates read them there (gameData's comment says why they are
// not an embedded GameMail), and a field added to GameMail alone would
// fail every template that reads it.
func TestGameDataHoldsTheMail(t *testing.T) {
	var m GameMail
	mv := reflect.ValueOf(&m).Elem()
	for i := 0; i < mv.NumField(); i++ {
		setNonZero(t, mv.Field(i))
	}
	d := reflect.ValueOf(mailData(m)).Elem()
	mt := mv.Type()
	for i := 0; i < mt.NumField(); i++ {
		f := mt.Field(i)
		own, ok := d.Type().FieldByName(f.Name)
		if !ok || len(own.Index) != 1 || own.Type != f.Type {
			t.Errorf("gameData has no field %s %s of its own", f.Name, f.Type)
			continue
		}
		if got := d.FieldByIndex(own.Index).Interface(); !reflect.DeepEqual(got, mv.Field(i).Interface()) {
			t.Errorf("mailData does not copy %s: %v, want %v", f.Name, got, mv.Field(i).Interface())
		}
	}
}

// setNonZero gives v a value that is not its type's zero.
func setNonZero(t *testing.T, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem())
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	case reflect.Interface:
		v.Set(reflect.ValueOf("view"))
	case reflect.Struct:
		if v.Type() != reflect.TypeOf(time.Time{}) {
			t.Fatalf("no non-zero value for %s", v.Type())
		}
		v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)))
	default:
		t.Fatalf("no non-zero value for %s", v.Type())
	}
}
