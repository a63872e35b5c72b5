package server

import (
	"errors"
	"fmt"
	"testing"

	"connectrpc.com/connect"
)

// TestErrorKindsHaveTheirCodes checks the table of codeOf for the kinds
// services mark their errors with: marked, wrapped in turn, or marked
// over a domain error of their own (matchservice: league's errors).
func TestErrorKindsHaveTheirCodes(t *testing.T) {
	t.Parallel()
	domain := errors.New("a service's own error")
	for kind, want := range map[error]connect.Code{
		ErrNotFound:     connect.CodeNotFound,
		ErrExists:       connect.CodeAlreadyExists,
		ErrInvalid:      connect.CodeInvalidArgument,
		ErrLimit:        connect.CodeResourceExhausted,
		ErrShuttingDown: connect.CodeUnavailable,
		ErrDenied:       connect.CodePermissionDenied,
		ErrNotReady:     connect.CodeFailedPrecondition,
	} {
		for _, err := range []error{
			Markf(kind, "what %q", "x"),
			fmt.Errorf("call: %w", Markf(kind, "what")),
			Mark(kind, domain),
		} {
			code, public := codeOf(err)
			if code != want || !public {
				t.Errorf("%v (%v): code %v, public %v; want %v, public", err, kind, code, public, want)
			}
		}
	}
	if m := Mark(ErrExists, domain); m.Error() != domain.Error() || !errors.Is(m, domain) {
		t.Errorf("Mark: %q, is the domain error %v; want its text and it", m, errors.Is(m, domain))
	}
	if code, public := codeOf(domain); code != connect.CodeInternal || public {
		t.Errorf("an unmarked error: %v, public %v; want Internal, not public", code, public)
	}
}
