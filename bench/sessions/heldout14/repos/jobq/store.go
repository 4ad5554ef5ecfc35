package jobq

import (
	"errors"
	"sort"
	"sync"
	"time"
)

var ErrNotFound = errors.New("jobq: job not found")

// MemStore keeps jobs in memory; it is what the tests and the local dev runner use.
type MemStore struct {
	mu   sync.Mutex
	jobs map[string]*Job
}

func NewMemStore() *MemStore {
	return &MemStore{jobs: make(map[string]*Job)}
}

func (s *MemStore) Put(j *Job) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	copied := *j
	s.jobs[j.ID] = &copied
	return nil
}

func (s *MemStore) Get(id string) (*Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobs[id]
	if !ok {
		return nil, ErrNotFound
	}
	copied := *j
	return &copied, nil
}

// FindByKey returns the job with this dedupe key that is not finished, if any.
func (s *MemStore) FindByKey(key string) (*Job, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.jobs {
		if j.Key == key && j.State != Done && j.State != Failed {
			copied := *j
			return &copied, true
		}
	}
	return nil, false
}

// Ready lists the jobs that can run at now, oldest RunAt first.
func (s *MemStore) Ready(now time.Time, limit int) []*Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Job
	for _, j := range s.jobs {
		if j.Ready(now) {
			copied := *j
			out = append(out, &copied)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].RunAt.Before(out[b].RunAt) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
