package mcpserver

// Temporary: filled in by resources.go, prompts.go and complete.go.

type listed interface{ listing(v string) map[string]any }

var prompts []listed
var fixedResources []listed
var templates []listed

type watcher struct{}
type listenState struct{}

func (c *conn) updateWatchLocked() {}

func productTools() []*tool { return nil }

func notYet(name string) *rpcError {
	return &rpcError{Code: codeMethodNotFound, Message: "Method not found: " + name}
}
func (s *Server) getPrompt(r *request) (any, *rpcError)    { return nil, notYet("prompts/get") }
func (s *Server) readResource(r *request) (any, *rpcError) { return nil, notYet("resources/read") }
func (s *Server) completeArgument(r *request) (any, *rpcError) {
	return nil, notYet("completion/complete")
}
func (s *Server) subscribe(r *request) (any, *rpcError) { return nil, notYet("resources/subscribe") }
func (s *Server) unsubscribe(r *request) (any, *rpcError) {
	return nil, notYet("resources/unsubscribe")
}
func (s *Server) listen(r *request) (any, *rpcError) { return nil, notYet("subscriptions/listen") }
