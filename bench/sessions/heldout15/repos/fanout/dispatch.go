package fanout

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Delivery is one event on its way to one subscriber.
type Delivery struct {
	Sub     Subscriber
	Event   Event
	Attempt int
}

// Dispatcher fans events out to the matching subscribers.
type Dispatcher struct {
	Registry *Registry
	Client   *http.Client
	Limiter  *Limiter
	Now      func() time.Time

	queue chan Delivery
	wg    sync.WaitGroup
}

// NewDispatcher returns a dispatcher with a 10-a-second limit and a queue of size.
func NewDispatcher(reg *Registry, size int) *Dispatcher {
	return &Dispatcher{
		Registry: reg,
		Client:   &http.Client{Timeout: 10 * time.Second},
		Limiter:  NewLimiter(10, 20),
		Now:      time.Now,
		queue:    make(chan Delivery, size),
	}
}

// Publish queues e for every subscriber of its type; it never blocks on a subscriber.
func (d *Dispatcher) Publish(e Event) error {
	if err := e.Validate(); err != nil {
		return err
	}
	for _, s := range d.Registry.Matching(e.Type) {
		select {
		case d.queue <- Delivery{Sub: s, Event: e, Attempt: 1}:
		default:
			return fmt.Errorf("event %s: queue full, subscriber %s not queued", e.ID, s.ID)
		}
	}
	return nil
}

// Run starts workers goroutines that deliver until ctx ends.
func (d *Dispatcher) Run(ctx context.Context, workers int) {
	for i := 0; i < workers; i++ {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case dl := <-d.queue:
					d.handle(ctx, dl)
				}
			}
		}()
	}
}

// Wait blocks until every worker has stopped.
func (d *Dispatcher) Wait() { d.wg.Wait() }

// handle delivers dl once and schedules a retry if it failed and may be retried.
func (d *Dispatcher) handle(ctx context.Context, dl Delivery) {
	if err := d.Limiter.Wait(ctx); err != nil {
		return
	}
	status, err := d.deliver(ctx, dl)
	if err == nil && status < 300 {
		return
	}
	if !retryable(status) || dl.Attempt >= MaxAttempts {
		log.Printf("giving up on event %s for %s after %d attempts (status %d, err %v)", dl.Event.ID, dl.Sub.ID, dl.Attempt, status, err)
		return
	}
	next := dl
	next.Attempt++
	time.AfterFunc(backoff(dl.Attempt), func() {
		select {
		case d.queue <- next:
		case <-ctx.Done():
		}
	})
}

// deliver POSTs dl, signed; the status code (0 if no response).
func (d *Dispatcher) deliver(ctx context.Context, dl Delivery) (int, error) {
	now := d.Now()
	body, err := payload(dl.Event, dl.Attempt, now)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, dl.Sub.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(HeaderEventID, dl.Event.ID)
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	req.Header.Set(HeaderSignature, Sign(dl.Sub.Secret, now, body))
	resp, err := d.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
