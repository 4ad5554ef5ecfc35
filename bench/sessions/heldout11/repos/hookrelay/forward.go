package main

import (
	"bytes"
	"fmt"
	"log"
	"net/http"
	"time"
)

// Forwarder sends deliveries to the endpoints that want them.
type Forwarder struct {
	endpoints []Endpoint
	store     *Store
	client    *http.Client
}

func NewForwarder(endpoints []Endpoint, store *Store) *Forwarder {
	return &Forwarder{endpoints: endpoints, store: store, client: newHTTPClient()}
}

func newHTTPClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			MaxIdleConnsPerHost: 4,
			IdleConnTimeout:     90 * time.Second,
		},
	}
}

// Deliver posts d to every endpoint that wants its event, retrying each a few times, and
// records the outcome.
func (f *Forwarder) Deliver(d *Delivery) error {
	var failed []string
	for _, ep := range f.endpoints {
		if !ep.Wants(d.Event) {
			continue
		}
		if err := f.sendWithRetry(ep, d); err != nil {
			log.Printf("delivery %s to %s: %v", d.ID, ep.Name, err)
			failed = append(failed, ep.Name)
		}
	}
	d.Status = "forwarded"
	if len(failed) > 0 {
		d.Status = "failed"
	}
	if err := f.store.Put(d); err != nil {
		return err
	}
	if len(failed) > 0 {
		return fmt.Errorf("delivery %s failed for %v", d.ID, failed)
	}
	return nil
}

func (f *Forwarder) sendWithRetry(ep Endpoint, d *Delivery) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		d.Attempts++
		if err = f.send(ep, d); err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt+1) * 500 * time.Millisecond)
	}
	return err
}

func (f *Forwarder) send(ep Endpoint, d *Delivery) error {
	req, err := http.NewRequest(http.MethodPost, ep.URL, bytes.NewReader(d.Payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Hookrelay-Delivery", d.ID)
	req.Header.Set("X-Hookrelay-Event", d.Event)
	client := *f.client
	client.Timeout = ep.Timeout.Duration
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s answered %s", ep.Name, resp.Status)
	}
	return nil
}
