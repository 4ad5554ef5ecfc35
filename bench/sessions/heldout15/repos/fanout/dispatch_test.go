package fanout

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

func TestSignVerify(t *testing.T) {
	ts := time.Unix(1700000000, 0)
	body := []byte(`{"id":"e1"}`)
	sig := Sign("0123456789abcdef", ts, body)
	if !Verify("0123456789abcdef", ts, body, sig) {
		t.Fatal("signature does not verify")
	}
	if Verify("0123456789abcdef", ts, []byte(`{"id":"e2"}`), sig) {
		t.Fatal("signature verifies another body")
	}
}

func TestDeliverSigned(t *testing.T) {
	var got atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sec, _ := strconv.ParseInt(r.Header.Get(HeaderTimestamp), 10, 64)
		if !Verify("0123456789abcdef", time.Unix(sec, 0), body, r.Header.Get(HeaderSignature)) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		got.Add(1)
	}))
	defer srv.Close()

	reg := NewRegistry()
	if err := reg.Add(Subscriber{ID: "s1", URL: srv.URL, Secret: "0123456789abcdef", Types: []string{"ticket.created"}}); err != nil {
		t.Fatal(err)
	}
	d := NewDispatcher(reg, 8)
	d.Client = srv.Client()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	d.Run(ctx, 2)
	if err := d.Publish(Event{ID: "e1", Type: "ticket.created", TicketID: "T-1"}); err != nil {
		t.Fatal(err)
	}
	for got.Load() == 0 && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	if got.Load() != 1 {
		t.Fatalf("deliveries = %d, want 1", got.Load())
	}
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{time.Second, 4 * time.Second, 16 * time.Second}
	for i, w := range want {
		if got := backoff(i + 1); got != w {
			t.Errorf("backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
}
