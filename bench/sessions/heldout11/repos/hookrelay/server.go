package main

import (
	"encoding/json"
	"log"
	"net/http"
	"time"
)

// Server accepts webhooks on /hooks/{source}.
type Server struct {
	cfg   *Config
	store *Store
	fwd   *Forwarder
	mux   *http.ServeMux
}

func NewServer(cfg *Config, store *Store, fwd *Forwarder) *Server {
	s := &Server{cfg: cfg, store: store, fwd: fwd, mux: http.NewServeMux()}
	s.mux.HandleFunc("POST /hooks/{source}", s.handleWebhook)
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ok\n"))
	})
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

func (s *Server) ListenAndServe() error {
	return http.ListenAndServe(s.cfg.Listen, s)
}

func (s *Server) handleWebhook(w http.ResponseWriter, r *http.Request) {
	source := r.PathValue("source")
	key := s.cfg.SecretFor(source)
	if key == "" {
		http.Error(w, "unknown source", http.StatusNotFound)
		return
	}
	var payload map[string]any
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 5<<20)).Decode(&payload); err != nil {
		http.Error(w, "body is not JSON", http.StatusBadRequest)
		return
	}
	body, _ := json.Marshal(payload)
	if err := Verify(key, body, r.Header.Get("X-Hub-Signature-256")); err != nil {
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	d := &Delivery{
		ID:       newID(),
		Source:   source,
		Event:    r.Header.Get("X-GitHub-Event"),
		Payload:  body,
		Received: time.Now().UTC(),
		Status:   "received",
	}
	if err := s.store.Put(d); err != nil {
		log.Printf("store: %v", err)
		http.Error(w, "cannot record delivery", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusAccepted)
	go func() {
		if err := s.fwd.Deliver(d); err != nil {
			log.Print(err)
		}
	}()
}
