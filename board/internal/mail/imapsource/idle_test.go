package imapsource

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestWaitNewReturnsOnDelivery delivers until the waiting IDLE reports new
// mail: a message delivered before IDLE began would count in the base.
func TestWaitNewReturnsOnDelivery(t *testing.T) {
	srv := startServer(t)
	srv.deliver(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.source("s3cret").WaitNew(ctx, nil) }()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for i := 2; ; i++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("WaitNew: %v", err)
			}
			got, _ := readAll(t, srv.source("s3cret"), "")
			if len(got) < 2 {
				t.Fatalf("WaitNew returned with %d messages in the mailbox", len(got))
			}
			return
		case <-tick.C:
			srv.deliver(t, i)
		case <-ctx.Done():
			t.Fatal("WaitNew did not see the delivered mail")
		}
	}
}

func TestWaitNewEndsWithItsContext(t *testing.T) {
	srv := startServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	ready := make(chan struct{})
	go func() { done <- srv.source("s3cret").WaitNew(ctx, func() { close(ready) }) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("WaitNew ended before IDLE: %v", err)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("WaitNew after cancel: %v, want context.Canceled", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("WaitNew did not end with its context")
	}
}

func TestWaitNewBadPassword(t *testing.T) {
	srv := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.source("wrong").WaitNew(ctx, nil); err == nil || ctx.Err() != nil {
		t.Fatalf("WaitNew with a wrong password: %v", err)
	}
}
