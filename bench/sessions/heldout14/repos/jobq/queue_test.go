package jobq

import (
	"errors"
	"testing"
	"time"
)

func newTestQueue(t *testing.T) (*Queue, *time.Time) {
	t.Helper()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	q := New(NewMemStore())
	q.now = func() time.Time { return now }
	return q, &now
}

func TestEnqueueLeaseComplete(t *testing.T) {
	q, _ := newTestQueue(t)
	j, err := q.Enqueue("email", "", []byte(`{"to":"a@b.co"}`), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	leased, _ := q.Lease(5)
	if len(leased) != 1 || leased[0].ID != j.ID {
		t.Fatalf("leased %v, want job %s", leased, j.ID)
	}
	if err := q.Complete(j.ID); err != nil {
		t.Fatal(err)
	}
	if again, _ := q.Lease(5); len(again) != 0 {
		t.Fatalf("completed job leased again: %v", again)
	}
}

func TestFailSchedulesRetry(t *testing.T) {
	q, now := newTestQueue(t)
	j, _ := q.Enqueue("email", "", []byte(`{}`), time.Time{})
	q.Lease(1)
	if err := q.Fail(j.ID, errors.New("smtp 451")); err != nil {
		t.Fatal(err)
	}
	got, _ := q.store.Get(j.ID)
	if got.State != Pending || !got.RunAt.After(*now) {
		t.Fatalf("after Fail: state %s run_at %s", got.State, got.RunAt)
	}
}

func TestLeaseExpires(t *testing.T) {
	q, now := newTestQueue(t)
	q.Enqueue("email", "", []byte(`{}`), time.Time{})
	q.Lease(1)
	*now = now.Add(31 * time.Second)
	if again, _ := q.Lease(1); len(again) != 1 {
		t.Fatal("expired lease not handed out again")
	}
}
