package fanout

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// Header names of a delivery.
const (
	HeaderSignature = "X-Fanout-Signature"
	HeaderTimestamp = "X-Fanout-Timestamp"
	HeaderEventID   = "X-Fanout-Event"
)

// Sign returns the hex HMAC-SHA256 of "timestamp.body" under secret.
// Subscribers recompute it over the raw request body they received.
func Sign(secret string, ts time.Time, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(ts.Unix(), 10)))
	mac.Write([]byte("."))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// Verify reports whether sig is body's signature under secret; what our SDKs do.
func Verify(secret string, ts time.Time, body []byte, sig string) bool {
	want := Sign(secret, ts, body)
	return hmac.Equal([]byte(want), []byte(sig))
}
