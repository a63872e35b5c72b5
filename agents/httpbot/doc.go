// Package httpbot plays Battle³ bot servers over HTTP, as the original
// server asks them: it registers the agent schemes "http://..." and
// "https://..." with [agents.RegisterScheme] ([Bot], [Parse]). A reply is
// read up to [MaxHTTPReply] bytes; [Bot] says what is made of it.
package httpbot
