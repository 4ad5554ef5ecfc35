package jobq

import "time"

// MaxAttempts is how many times a job runs before it is marked Failed.
const MaxAttempts = 8

// nextDelay is how long to wait before attempt number attempts+1.
func nextDelay(attempts int) time.Duration {
	return 30 * time.Second
}

// Fail records a failed attempt: the job runs again later, or is marked Failed.
func (q *Queue) Fail(id string, cause error) error {
	j, err := q.store.Get(id)
	if err != nil {
		return err
	}
	j.LastError = cause.Error()
	if j.Attempts >= MaxAttempts {
		j.State = Failed
		return q.store.Put(j)
	}
	j.State = Pending
	j.RunAt = q.now().Add(nextDelay(j.Attempts))
	return q.store.Put(j)
}
