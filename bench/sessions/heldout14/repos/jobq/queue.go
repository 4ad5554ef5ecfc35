package jobq

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Store is what a Queue keeps its jobs in.
type Store interface {
	Put(j *Job) error
	Get(id string) (*Job, error)
	FindByKey(key string) (*Job, bool)
	Ready(now time.Time, limit int) []*Job
}

// Queue hands out jobs to workers and takes them back.
type Queue struct {
	store Store
	now   func() time.Time
	lease time.Duration
}

func New(store Store) *Queue {
	return &Queue{store: store, now: time.Now, lease: 30 * time.Second}
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Enqueue adds a job of kind with payload, to run at runAt (now when zero).
func (q *Queue) Enqueue(kind, key string, payload json.RawMessage, runAt time.Time) (*Job, error) {
	if runAt.IsZero() {
		runAt = q.now()
	}
	j := &Job{ID: newID(), Key: key, Kind: kind, Payload: payload, State: Pending, RunAt: runAt}
	if err := q.store.Put(j); err != nil {
		return nil, err
	}
	return j, nil
}

// Lease hands out up to n ready jobs, each leased for q.lease.
func (q *Queue) Lease(n int) ([]*Job, error) {
	now := q.now()
	jobs := q.store.Ready(now, n)
	for _, j := range jobs {
		j.State = Leased
		j.Attempts++
		j.LeaseTill = now.Add(q.lease)
		if err := q.store.Put(j); err != nil {
			return nil, err
		}
	}
	return jobs, nil
}

// Complete marks a leased job done.
func (q *Queue) Complete(id string) error {
	j, err := q.store.Get(id)
	if err != nil {
		return err
	}
	j.State = Done
	return q.store.Put(j)
}

// Requeue puts a job back to run again at runAt, e.g. when an operator retries a failed job.
func (q *Queue) Requeue(id string, runAt time.Time) (*Job, error) {
	old, err := q.store.Get(id)
	if err != nil {
		return nil, err
	}
	j := &Job{ID: newID(), Key: old.Key, Kind: old.Kind, Payload: old.Payload, State: Pending, RunAt: runAt}
	if err := q.store.Put(j); err != nil {
		return nil, err
	}
	return j, nil
}
