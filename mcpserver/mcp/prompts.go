package mcp

// This file implements prompts/get and the prompt listing.

import (
	"context"
	"fmt"
)

func promptListing(p *Prompt, v string) map[string]any {
	m := map[string]any{"name": p.Name, "description": p.Description}
	args := []any{}
	for _, a := range p.Arguments {
		am := map[string]any{"name": a.Name, "description": a.Description, "required": a.Required}
		if atLeast(v, "2025-06-18") && a.Title != "" {
			am["title"] = a.Title
		}
		args = append(args, am)
	}
	m["arguments"] = args
	if atLeast(v, "2025-06-18") && p.Title != "" {
		m["title"] = p.Title
	}
	return m
}

func (s *Server) prompt(name string) *Prompt {
	for _, p := range s.prims.Prompts {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// getPrompt answers prompts/get.
func (s *Server) getPrompt(r *request) (any, *rpcError) {
	var p struct {
		Name      *string        `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.Name == nil {
		return nil, errInvalidParams(`prompts/get: "name" is required`)
	}
	pr := s.prompt(*p.Name)
	if pr == nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "Unknown prompt: " + *p.Name, Data: map[string]any{"name": *p.Name}}
	}
	args := map[string]string{}
	for k, v := range p.Arguments {
		known := false
		for _, a := range pr.Arguments {
			known = known || a.Name == k
		}
		if !known {
			return nil, errInvalidParams(fmt.Sprintf("prompt %s has no argument %q", pr.Name, k))
		}
		sv, ok := v.(string)
		if !ok {
			return nil, errInvalidParams(fmt.Sprintf("prompt argument %q must be a string", k))
		}
		args[k] = sv
	}
	for _, a := range pr.Arguments {
		if a.Required && args[a.Name] == "" {
			return nil, errInvalidParams(fmt.Sprintf("prompt %s needs the argument %q (%s)", pr.Name, a.Name, a.Description))
		}
	}
	ctx, cancel := context.WithTimeout(r.ctx, s.opts.CallTimeout)
	defer cancel()
	c, rerr := s.newCall(ctx, r)
	if rerr != nil {
		return nil, rerr
	}
	msgs, err := pr.Get(ctx, c, args)
	if err != nil {
		return s.handlerError(c, err, "prompt "+pr.Name)
	}
	return map[string]any{"description": pr.Description, "messages": msgs}, nil
}
