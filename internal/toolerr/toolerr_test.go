package toolerr

import (
	"errors"
	"fmt"
	"testing"
)

func TestError_TextCarriesTheHint(t *testing.T) {
	if got := Errorf(CodeNotFound, "check the path", "file %s not found", "a.txt").Error(); got != "file a.txt not found (check the path)" {
		t.Errorf("with hint: %q", got)
	}
	if got := Invalid("n", "n must be positive", "").Error(); got != "n must be positive" {
		t.Errorf("without hint: %q", got)
	}
}

func TestArgumentConstructors_NameTheField(t *testing.T) {
	for _, tc := range []struct {
		e    *Error
		code string
	}{
		{Invalidf("n", "give 1 or more", "n is %d", -1), CodeInvalid},
		{NotFoundf("n", "give 1 or more", "n is %d", -1), CodeNotFound},
		{Existsf("n", "give 1 or more", "n is %d", -1), CodeExists},
	} {
		if tc.e.Code != tc.code || tc.e.Field != "n" || tc.e.Message != "n is -1" || tc.e.Hint != "give 1 or more" {
			t.Errorf("%s: %+v", tc.code, tc.e)
		}
	}
}

func TestError_AsFindsItThroughWrapping(t *testing.T) {
	inner := Invalid("path", "bad path", "use another")
	e, ok := As(fmt.Errorf("reading: %w", inner))
	if !ok || e != inner || e.Code != CodeInvalid || e.Field != "path" {
		t.Fatalf("As = %v, %v", e, ok)
	}
	if _, ok := As(errors.New("plain")); ok {
		t.Error("a plain error is not a tool error")
	}
	if _, ok := As(nil); ok {
		t.Error("nil is not a tool error")
	}
}
