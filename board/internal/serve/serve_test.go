package serve

import "testing"

func TestConnLimitLeavesRoomForTheStore(t *testing.T) {
	for _, tc := range []struct {
		nofile uint64
		want   int
	}{
		{1 << 20, 512},
		{640, 512},
		{1024, 512},
		{600, 472},
		{256, 128},
		{100, 16},
	} {
		if got := connLimit(tc.nofile); got != tc.want {
			t.Errorf("connLimit(%d) = %d, want %d", tc.nofile, got, tc.want)
		}
	}
}
