package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Seed is a 64-bit seed as the viewer's API writes it: a JSON string of
// its decimal digits ("11187937114404512942"), because a browser reads
// JSON numbers as float64, which rounds seeds above 2^53 to another seed.
// It reads a string or, for clients that send one, a JSON number, both
// exact.
type Seed uint64

// MarshalJSON writes the seed as a string of decimal digits.
func (s Seed) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, strconv.FormatUint(uint64(s), 10)), nil
}

// UnmarshalJSON reads a string of decimal digits or a JSON integer in
// 0..2^64-1; anything else (a sign, a fraction, an exponent, spaces inside
// the string) is an error that quotes what it got.
func (s *Seed) UnmarshalJSON(data []byte) error {
	text := string(data)
	if bytes.HasPrefix(data, []byte{'"'}) {
		if err := json.Unmarshal(data, &text); err != nil {
			return err
		}
	}
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		if len(text) > 40 {
			text = text[:40] + "…"
		}
		return fmt.Errorf("seed %q: want a decimal integer in 0..18446744073709551615", text)
	}
	*s = Seed(n)
	return nil
}

// seedPtr returns p as a *Seed (nil for nil), for the listings.
func seedPtr(p *uint64) *Seed {
	if p == nil {
		return nil
	}
	s := Seed(*p)
	return &s
}
