package jobq

import (
	"context"
	"fmt"
	"log"
	"time"
)

// Handler runs one job. An error means the attempt failed.
type Handler func(ctx context.Context, j *Job) error

// Worker polls a Queue and runs jobs with the handler registered for their kind.
type Worker struct {
	q        *Queue
	handlers map[string]Handler
	poll     time.Duration
	batch    int
}

func NewWorker(q *Queue) *Worker {
	return &Worker{q: q, handlers: make(map[string]Handler), poll: time.Second, batch: 10}
}

func (w *Worker) Handle(kind string, h Handler) {
	w.handlers[kind] = h
}

// Run polls until ctx is cancelled.
func (w *Worker) Run(ctx context.Context) error {
	ticker := time.NewTicker(w.poll)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
			w.tick(ctx)
		}
	}
}

func (w *Worker) tick(ctx context.Context) {
	jobs, err := w.q.Lease(w.batch)
	if err != nil {
		log.Printf("jobq: lease: %v", err)
		return
	}
	for _, j := range jobs {
		w.runOne(ctx, j)
	}
}

func (w *Worker) runOne(ctx context.Context, j *Job) {
	h, ok := w.handlers[j.Kind]
	if !ok {
		w.q.Fail(j.ID, fmt.Errorf("no handler for kind %q", j.Kind))
		return
	}
	if err := h(ctx, j); err != nil {
		w.q.Fail(j.ID, err)
		return
	}
	w.q.Complete(j.ID)
}
