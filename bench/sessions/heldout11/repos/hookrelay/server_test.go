package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func testServer(t *testing.T, target string) (*Server, *Store) {
	t.Helper()
	store, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := &Config{
		Secrets:   []Secret{{Source: "github", Key: "s3cret"}},
		Endpoints: []Endpoint{{Name: "ci", URL: target, Events: []string{"*"}, Timeout: Duration{time.Second}}},
	}
	return NewServer(cfg, store, NewForwarder(cfg.Endpoints, store)), store
}

func post(s *Server, body, sig string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/hooks/github", strings.NewReader(body))
	req.Header.Set("X-Hub-Signature-256", sig)
	req.Header.Set("X-GitHub-Event", "push")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

func TestSignedWebhookIsAccepted(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer target.Close()
	s, store := testServer(t, target.URL)
	body := `{"ref":"refs/heads/main"}`
	if rec := post(s, body, Sign("s3cret", []byte(body))); rec.Code != http.StatusAccepted {
		t.Fatalf("got %d: %s", rec.Code, rec.Body)
	}
	recent, _ := store.Recent(1)
	if len(recent) != 1 || recent[0].Event != "push" {
		t.Fatalf("delivery not recorded: %+v", recent)
	}
}

func TestBadSignatureIsRejected(t *testing.T) {
	s, _ := testServer(t, "http://127.0.0.1:1")
	if rec := post(s, `{"ref":"x"}`, "sha256=00"); rec.Code != http.StatusUnauthorized {
		t.Fatalf("got %d", rec.Code)
	}
}

func TestUnknownSourceIs404(t *testing.T) {
	s, _ := testServer(t, "http://127.0.0.1:1")
	req := httptest.NewRequest(http.MethodPost, "/hooks/gitlab", strings.NewReader(`{}`))
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound {
		t.Fatalf("got %d", rec.Code)
	}
}

func TestEndpointWants(t *testing.T) {
	ep := Endpoint{Events: []string{"push", "release"}}
	if !ep.Wants("push") || ep.Wants("issues") {
		t.Fatal("Wants does not follow the event list")
	}
}
