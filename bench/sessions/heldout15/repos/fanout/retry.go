package fanout

import (
	"net/http"
	"time"
)

// MaxAttempts is how many times one delivery is tried before it is given up.
const MaxAttempts = 6

// retryable reports whether a delivery that got status (0: no response) is tried again.
func retryable(status int) bool {
	switch {
	case status == 0:
		return true
	case status == http.StatusTooManyRequests:
		return true
	case status >= 500:
		return true
	default:
		return false
	}
	return false
}

// backoff is the wait before attempt number attempt+1: 1s, 4s, 16s, 64s, 256s.
func backoff(attempt int) time.Duration {
	d := time.Second
	for i := 1; i < attempt; i++ {
		d *= 4
	}
	return d
}
