package httpaddr

import "testing"

func TestBase(t *testing.T) {
	const def = "http://127.0.0.1:3000"
	for _, tc := range []struct {
		raw, want, wantErr string
	}{
		{"", def, ""},
		{"  ", def, ""},
		{"http://localhost:9/", "http://localhost:9", ""},
		{"https://h/x/", "https://h/x", ""},
		{"localhost:3000", "", `board address "localhost:3000" must be an absolute http or https URL such as ` + def},
		{"ftp://h", "", `board address "ftp://h" must be an absolute http or https URL such as ` + def},
		{"http://%zz", "", `board address "http://%zz": parse "http://%zz": invalid URL escape "%zz"`},
	} {
		got, err := Base("board address", tc.raw, def)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("Base(%q) error %v, want %q", tc.raw, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Base(%q) = %q, %v; want %q", tc.raw, got, err, tc.want)
		}
	}
}

func TestLoopbackHost(t *testing.T) {
	for hostport, want := range map[string]bool{
		"127.0.0.1:8009": true, "[::1]:8009": true, "LocalHost:3000": true, "localhost": true, "127.0.0.2": true,
		"evil.example:8009": false, "10.0.0.1": false, "[::2]:1": false, "": false,
	} {
		if got := Loopback(Host(hostport)); got != want {
			t.Errorf("Loopback(Host(%q)) = %v, want %v", hostport, got, want)
		}
	}
}
