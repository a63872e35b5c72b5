package env

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// errTrailingJSON is [DecodeJSON]'s error for data after the JSON value.
var errTrailingJSON = errors.New("trailing data after the JSON object")

// DecodeJSON decodes the one JSON value in data into v, strictly, as
// botarena reads configs, scenario files and the games' native states: a
// field v does not have is an error (encoding/json's, naming the field),
// and so is anything but white space after the value ("trailing data
// after the JSON object"). Other errors are encoding/json's, unwrapped, so
// that their offsets can be reported.
func DecodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errTrailingJSON
	}
	return nil
}
