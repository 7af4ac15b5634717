package credstore

import (
	"errors"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

func TestGetAndSet(t *testing.T) {
	keyring.MockInit()
	if _, err := Get("opsboard-test", "work"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an entry never set: %v, want ErrNotFound", err)
	}
	if err := Set("opsboard-test", "work", "s3cret"); err != nil {
		t.Fatal(err)
	}
	if got, err := Get("opsboard-test", "work"); err != nil || got != "s3cret" {
		t.Errorf("Get = %q, %v", got, err)
	}
}

func TestBoundedGivesUpOnAHangingStore(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	_, err := bounded(func() (int, error) { <-release; return 1, nil }, 10*time.Millisecond)
	if !errors.Is(err, errNoAnswer) {
		t.Errorf("a hanging call answered %v, want no answer in time", err)
	}
	if v, err := bounded(func() (int, error) { return 7, nil }, time.Second); v != 7 || err != nil {
		t.Errorf("a quick call answered %d, %v", v, err)
	}
}
