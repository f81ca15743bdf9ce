package mcp

// This file implements completion/complete for prompt arguments and
// resource template variables, from their Complete functions.

const maxCompletions = 100

// completeArgument answers completion/complete.
func (s *Server) completeArgument(r *request) (any, *rpcError) {
	var p struct {
		Ref *struct {
			Type string `json:"type"`
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"ref"`
		Argument *struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"argument"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.Ref == nil || p.Argument == nil {
		return nil, errInvalidParams(`completion/complete: "ref" and "argument" are required`)
	}
	c := &Call{srv: s, conn: r.c, req: r, ctx: r.ctx}
	var values []string
	switch p.Ref.Type {
	case "ref/prompt":
		pr := s.prompt(p.Ref.Name)
		if pr == nil {
			return nil, errInvalidParams("completion/complete: unknown prompt " + p.Ref.Name)
		}
		var arg *Argument
		for i := range pr.Arguments {
			if pr.Arguments[i].Name == p.Argument.Name {
				arg = &pr.Arguments[i]
			}
		}
		if arg == nil {
			return nil, errInvalidParams("completion/complete: prompt " + pr.Name + " has no argument " + p.Argument.Name)
		}
		if arg.Complete != nil {
			values = arg.Complete(c, p.Argument.Value)
		}
	case "ref/resource":
		var t *template
		for _, x := range s.templates {
			if x.URITemplate == p.Ref.URI {
				t = x
			}
		}
		if t == nil {
			return nil, errInvalidParams("completion/complete: unknown resource template " + p.Ref.URI)
		}
		if !contains(t.names, p.Argument.Name) {
			return nil, errInvalidParams("completion/complete: template " + t.URITemplate + " has no variable " + p.Argument.Name)
		}
		if t.Complete != nil {
			values = t.Complete(c, p.Argument.Name, p.Argument.Value)
		}
	default:
		return nil, errInvalidParams(`completion/complete: "ref.type" must be "ref/prompt" or "ref/resource"`)
	}
	if values == nil {
		values = []string{}
	}
	total := len(values)
	if len(values) > maxCompletions {
		values = values[:maxCompletions]
	}
	return map[string]any{"completion": map[string]any{"values": values, "total": total, "hasMore": total > len(values)}}, nil
}
