package jobq

import (
	"encoding/json"
	"time"
)

// State is where a job is in its life.
type State string

const (
	Pending State = "pending"
	Leased  State = "leased"
	Done    State = "done"
	Failed  State = "failed"
)

// Job is one unit of work. Key, when set, identifies the job for deduplication.
type Job struct {
	ID        string          `json:"id"`
	Key       string          `json:"key,omitempty"`
	Kind      string          `json:"kind"`
	Payload   json.RawMessage `json:"payload"`
	State     State           `json:"state"`
	Attempts  int             `json:"attempts"`
	RunAt     time.Time       `json:"run_at"`
	LeaseTill time.Time       `json:"lease_till,omitempty"`
	LastError string          `json:"last_error,omitempty"`
}

// Ready reports whether the job can be handed to a worker at now.
func (j *Job) Ready(now time.Time) bool {
	switch j.State {
	case Pending:
		return !now.Before(j.RunAt)
	case Leased:
		return now.After(j.LeaseTill)
	default:
		return false
	}
}
