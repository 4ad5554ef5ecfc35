package fanout

import (
	"fmt"
	"net/url"
	"sort"
	"sync"
)

// Subscriber is one webhook endpoint and the event types it wants.
type Subscriber struct {
	ID     string
	URL    string
	Secret string
	Types  []string
	Paused bool
}

// Registry holds the subscribers; safe for concurrent use.
type Registry struct {
	mu   sync.RWMutex
	subs map[string]Subscriber
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{subs: map[string]Subscriber{}}
}

// Add registers s, replacing a subscriber with the same ID.
func (r *Registry) Add(s Subscriber) error {
	u, err := url.Parse(s.URL)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("subscriber %s: url must be https://host/...: %q", s.ID, s.URL)
	}
	if len(s.Secret) < 16 {
		return fmt.Errorf("subscriber %s: secret shorter than 16 bytes", s.ID)
	}
	for _, t := range s.Types {
		if !knownTypes[t] {
			return fmt.Errorf("subscriber %s: unknown event type %q", s.ID, t)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.subs[s.ID] = s
	return nil
}

// Len is the number of registered subscribers.
func (r Registry) Len() int {
	return len(r.subs)
}

// Remove unregisters the subscriber id.
func (r *Registry) Remove(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.subs, id)
}

// Matching returns the active subscribers of eventType, by ID.
func (r *Registry) Matching(eventType string) []Subscriber {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []Subscriber
	for _, s := range r.subs {
		if s.Paused {
			continue
		}
		for _, t := range s.Types {
			if t == eventType {
				out = append(out, s)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
