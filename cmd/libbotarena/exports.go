package main

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/botarena/botarena/native"
)

// maxLen bounds the element counts the library accepts, so that a
// negative or absurd count is an error instead of a crash.
const maxLen = 1 << 40

// status writes err's message into buf (at most bufCap-1 bytes and a NUL) and
// returns its code, or returns 0 for no error.
func status(err error, buf *C.char, bufCap C.int64_t) C.int32_t {
	if err == nil {
		return 0
	}
	e, ok := err.(*native.Error)
	if !ok {
		e = &native.Error{Code: native.Internal, Msg: err.Error()}
	}
	if buf != nil && bufCap > 0 {
		dst := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(bufCap))
		n := copy(dst[:len(dst)-1], e.Msg)
		dst[n] = 0
	}
	return C.int32_t(e.Code)
}

// guard turns a panic of the library itself into an Internal error.
func guard(code *C.int32_t, buf *C.char, bufCap C.int64_t) {
	if r := recover(); r != nil {
		*code = status(&native.Error{Code: native.Internal, Msg: fmt.Sprintf("libbotarena: internal error: %v", r)}, buf, bufCap)
	}
}

// int32s returns the n int32s at p, or an error for a bad count or a null
// pointer with n > 0.
func int32s(p *C.int32_t, n C.int64_t, what string) ([]int32, error) {
	switch {
	case n < 0 || n > maxLen:
		return nil, &native.Error{Code: native.InvalidArgument, Msg: fmt.Sprintf("libbotarena: %s: bad count %d", what, n)}
	case n == 0:
		return nil, nil
	case p == nil:
		return nil, &native.Error{Code: native.InvalidArgument, Msg: fmt.Sprintf("libbotarena: %s: null pointer", what)}
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(p)), int(n)), nil
}

// sendArgs returns the env ids and actions of a send.
func sendArgs(envs *C.int32_t, nEnvs C.int64_t, actions *C.int32_t, nActions C.int64_t) (e, a []int32, err error) {
	if e, err = int32s(envs, nEnvs, "send: env ids"); err != nil {
		return nil, nil, err
	}
	if a, err = int32s(actions, nActions, "send: actions"); err != nil {
		return nil, nil, err
	}
	return e, a, nil
}

// bta_abi returns native.ABI, the version of this interface.
//
//export bta_abi
func bta_abi() C.int32_t { return native.ABI }

// bta_call runs native.Call(method, the n bytes of req): the env service's
// method with its request message in binary protobuf. It returns the
// response message, or on error the error's message text, in C memory
// (free it with bta_free), its length in *outLen and 0 or the error's
// native.Code in *code. It returns NULL when outLen or code is NULL.
//
//export bta_call
func bta_call(method *C.char, req *C.char, n C.int64_t, outLen *C.int64_t, code *C.int32_t) (out *C.char) {
	if outLen == nil || code == nil {
		return nil
	}
	reply := func(c native.Code, b []byte) *C.char {
		*code, *outLen = C.int32_t(c), C.int64_t(len(b))
		return (*C.char)(C.CBytes(b))
	}
	defer func() {
		if r := recover(); r != nil {
			out = reply(native.Internal, []byte(fmt.Sprintf("libbotarena: internal error: %v", r)))
		}
	}()
	if n < 0 || n > maxLen || (n > 0 && req == nil) {
		return reply(native.InvalidArgument, []byte(fmt.Sprintf("libbotarena: call: bad request (%d bytes)", n)))
	}
	var in []byte
	if n > 0 {
		in = unsafe.Slice((*byte)(unsafe.Pointer(req)), int(n))
	}
	resp, err := native.Call(C.GoString(method), in)
	if err != nil {
		e := err.(*native.Error) // Call returns *native.Error
		return reply(e.Code, []byte(e.Msg))
	}
	return reply(native.OK, resp)
}

// bta_free frees memory bta_call returned.
//
//export bta_free
func bta_free(p unsafe.Pointer) { C.free(p) }

// bta_bind runs native.Bind with the n addresses at ptrs (copied: the
// list may be freed after the call; the arrays they point to may not).
//
//export bta_bind
func bta_bind(h C.int64_t, ptrs *unsafe.Pointer, n C.int64_t, buf *C.char, bufCap C.int64_t) (code C.int32_t) {
	defer guard(&code, buf, bufCap)
	if n < 0 || n > maxLen || (n > 0 && ptrs == nil) {
		return status(&native.Error{Code: native.InvalidArgument, Msg: fmt.Sprintf("libbotarena: bind: bad address list (%d)", n)}, buf, bufCap)
	}
	list := make([]unsafe.Pointer, n)
	copy(list, unsafe.Slice(ptrs, int(n)))
	return status(native.Bind(int64(h), list), buf, bufCap)
}

// bta_reset runs native.Reset.
//
//export bta_reset
func bta_reset(h C.int64_t, buf *C.char, bufCap C.int64_t) (code C.int32_t) {
	defer guard(&code, buf, bufCap)
	return status(native.Reset(int64(h)), buf, bufCap)
}

// bta_step runs native.Step with the n int32 actions at actions.
//
//export bta_step
func bta_step(h C.int64_t, actions *C.int32_t, n C.int64_t, buf *C.char, bufCap C.int64_t) (code C.int32_t) {
	defer guard(&code, buf, bufCap)
	acts, err := int32s(actions, n, "step: actions")
	if err != nil {
		return status(err, buf, bufCap)
	}
	return status(native.Step(int64(h), acts), buf, bufCap)
}

// bta_async_reset runs native.AsyncReset.
//
//export bta_async_reset
func bta_async_reset(h C.int64_t, buf *C.char, bufCap C.int64_t) (code C.int32_t) {
	defer guard(&code, buf, bufCap)
	return status(native.AsyncReset(int64(h)), buf, bufCap)
}

// bta_send runs native.Send with nEnvs env ids and nActions actions.
//
//export bta_send
func bta_send(h C.int64_t, envs *C.int32_t, nEnvs C.int64_t, actions *C.int32_t, nActions C.int64_t, buf *C.char, bufCap C.int64_t) (code C.int32_t) {
	defer guard(&code, buf, bufCap)
	e, a, err := sendArgs(envs, nEnvs, actions, nActions)
	if err != nil {
		return status(err, buf, bufCap)
	}
	return status(native.Send(int64(h), e, a), buf, bufCap)
}

// bta_recv runs native.Recv and stores the batch index in *batch.
//
//export bta_recv
func bta_recv(h C.int64_t, batch *C.int64_t, buf *C.char, bufCap C.int64_t) (code C.int32_t) {
	defer guard(&code, buf, bufCap)
	k, err := native.Recv(int64(h))
	if err == nil && batch != nil {
		*batch = C.int64_t(k)
	}
	return status(err, buf, bufCap)
}

// bta_send_recv runs native.SendRecv with nEnvs env ids and nActions
// actions and stores the batch index in *batch.
//
//export bta_send_recv
func bta_send_recv(h C.int64_t, envs *C.int32_t, nEnvs C.int64_t, actions *C.int32_t, nActions C.int64_t, batch *C.int64_t, buf *C.char, bufCap C.int64_t) (code C.int32_t) {
	defer guard(&code, buf, bufCap)
	e, a, err := sendArgs(envs, nEnvs, actions, nActions)
	if err != nil {
		return status(err, buf, bufCap)
	}
	k, err := native.SendRecv(int64(h), e, a)
	if err == nil && batch != nil {
		*batch = C.int64_t(k)
	}
	return status(err, buf, bufCap)
}
