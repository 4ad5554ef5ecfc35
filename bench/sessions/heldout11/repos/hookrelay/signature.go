package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
)

var (
	errNoSignature  = errors.New("missing signature header")
	errBadSignature = errors.New("signature does not match")
)

// Sign returns the GitHub-style signature header value of body under key.
func Sign(key string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// Verify checks a "sha256=<hex>" signature header against body.
func Verify(key string, body []byte, header string) error {
	if header == "" {
		return errNoSignature
	}
	want, ok := strings.CutPrefix(header, "sha256=")
	if !ok {
		return errBadSignature
	}
	got, err := hex.DecodeString(want)
	if err != nil {
		return errBadSignature
	}
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write(body)
	if !hmac.Equal(mac.Sum(nil), got) {
		return errBadSignature
	}
	return nil
}
