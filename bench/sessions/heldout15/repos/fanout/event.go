// Package fanout delivers ticketing events to every subscribed webhook,
// signed, rate limited and retried.
package fanout

import (
	"encoding/json"
	"fmt"
	"time"
)

// Event is one thing that happened to a ticket.
type Event struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"` // ticket.created, ticket.updated, ticket.closed, comment.added
	TicketID string         `json:"ticket_id"`
	Occurred time.Time      `json:"occurred_at"`
	Data     map[string]any `json:"data,omitempty"`
}

// knownTypes are the event types subscribers can ask for.
var knownTypes = map[string]bool{
	"ticket.created": true,
	"ticket.updated": true,
	"ticket.closed":  true,
	"comment.added":  true,
}

// Validate reports what is wrong with e, if anything.
func (e Event) Validate() error {
	if e.ID == "" {
		return fmt.Errorf("event has no id")
	}
	if !knownTypes[e.Type] {
		return fmt.Errorf("event %s: unknown type %q", e.ID, e.Type)
	}
	if e.TicketID == "" {
		return fmt.Errorf("event %s: no ticket_id", e.ID)
	}
	return nil
}

// envelope is what a subscriber receives.
type envelope struct {
	Event
	Attempt     int       `json:"attempt"`
	DeliveredAt time.Time `json:"delivered_at"`
}

// payload is the JSON body of e's delivery number attempt.
func payload(e Event, attempt int, now time.Time) ([]byte, error) {
	return json.Marshal(envelope{Event: e, Attempt: attempt, DeliveredAt: now.UTC()})
}
