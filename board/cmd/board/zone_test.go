package main

import "testing"

func TestMachineZone(t *testing.T) {
	for tz, want := range map[string]string{
		"Europe/Berlin": "Europe/Berlin",
		":Asia/Tokyo":   "Asia/Tokyo", // the POSIX form with a leading colon
		"Nowhere/Else":  "UTC",        // unknown: UTC rather than a zone without a name
	} {
		if got := machineZone(tz).String(); got != want {
			t.Errorf("machineZone(%q) = %s, want %s", tz, got, want)
		}
	}
}
