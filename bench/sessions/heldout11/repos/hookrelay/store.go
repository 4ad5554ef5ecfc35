package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Delivery is one webhook as received, and what became of it.
type Delivery struct {
	ID       string          `json:"id"`
	Source   string          `json:"source"`
	Event    string          `json:"event"`
	Payload  json.RawMessage `json:"payload"`
	Received time.Time       `json:"received"`
	Status   string          `json:"status"` // received, forwarded, failed
	Attempts int             `json:"attempts"`
}

// Store keeps deliveries in an append-only JSON-lines file; the last line of an id wins.
type Store struct {
	mu   sync.Mutex
	path string
}

func OpenStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Store{path: filepath.Join(dir, "deliveries.jsonl")}, nil
}

func newID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Put appends the delivery's current state.
func (s *Store) Put(d *Delivery) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := os.OpenFile(s.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	line, err := json.Marshal(d)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	return err
}

// all reads every delivery, latest state per id, in the order first received.
func (s *Store) all() ([]*Delivery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := os.Open(s.path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	byID := map[string]*Delivery{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		var d Delivery
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", s.path, n, err)
		}
		if _, seen := byID[d.ID]; !seen {
			order = append(order, d.ID)
		}
		byID[d.ID] = &d
	}
	out := make([]*Delivery, 0, len(order))
	for _, id := range order {
		out = append(out, byID[id])
	}
	return out, sc.Err()
}

// Get returns the delivery with the given id.
func (s *Store) Get(id string) (*Delivery, error) {
	all, err := s.all()
	if err != nil {
		return nil, err
	}
	for _, d := range all {
		if d.ID == id {
			return d, nil
		}
	}
	return nil, fmt.Errorf("no delivery %q", id)
}

// Recent returns the last n deliveries, newest first.
func (s *Store) Recent(n int) ([]*Delivery, error) {
	all, err := s.all()
	if err != nil {
		return nil, err
	}
	var out []*Delivery
	for i := len(all) - 1; i >= 0 && len(out) < n; i-- {
		out = append(out, all[i])
	}
	return out, nil
}
