package jail

import "testing"

func TestAbsPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/usr/bin:/bin", "/usr/bin:/bin"},
		{".:/usr/bin::bin", "/usr/bin"},
		{"", DefaultPath},
		{"./x:y", DefaultPath},
	}
	for _, tc := range tests {
		if got := AbsPath(tc.in); got != tc.want {
			t.Errorf("AbsPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
