package srun

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"sync/atomic"
)

// requestIDs makes x-typesafe-request-id values: "req_" and 32 hex
// digits, a random 64-bit prefix drawn once per server and a 64-bit
// counter. IDs are unique within a server and unlikely to collide across
// servers, and their format is fixed, as the standard's (req_01a0ef79...).
type requestIDs struct {
	prefix [8]byte
	next   atomic.Uint64
}

func newRequestIDs() *requestIDs {
	ids := &requestIDs{}
	_, _ = rand.Read(ids.prefix[:]) // crypto/rand.Read never fails (Go 1.24+)
	return ids
}

func (ids *requestIDs) make() string {
	var raw [16]byte
	copy(raw[:8], ids.prefix[:])
	binary.BigEndian.PutUint64(raw[8:], ids.next.Add(1))
	buf := make([]byte, 4+32)
	copy(buf, "req_")
	hex.Encode(buf[4:], raw[:])
	return string(buf)
}
