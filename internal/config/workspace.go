package config

import (
	"errors"
	"fmt"
	"reflect"

	"gopkg.in/yaml.v3"
)

// workspaceSection is the mapping form of the workspace key:
//
//	workspace:
//	  roots: [~/clawbridge-workspace]
//	  trust_client_roots: false
//
// The list form (workspace: [a, b]) names the roots alone.
type workspaceSection struct {
	Roots            []string `yaml:"roots"`
	TrustClientRoots bool     `yaml:"trust_client_roots"`
}

// plainConfig is Config without its UnmarshalYAML method.
type plainConfig Config

// UnmarshalYAML decodes strictly (a key Config has no field for is an
// error, see strict.go) and accepts workspace as a list of roots or as a
// mapping with roots and trust_client_roots.
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	errs := unknownKeys(n, reflect.TypeFor[plainConfig](), "")
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k, v := n.Content[i], n.Content[i+1]; k.Value == "tools" && v.Kind == yaml.MappingNode {
				c.toolLines = map[string]int{}
				for j := 0; j+1 < len(v.Content); j += 2 {
					c.toolLines[v.Content[j].Value] = v.Content[j].Line
				}
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value != "workspace" || v.Kind != yaml.MappingNode {
				continue
			}
			errs = append(errs, unknownKeys(v, reflect.TypeFor[workspaceSection](), "workspace")...)
			var ws workspaceSection
			if err := v.Decode(&ws); err != nil {
				return fmt.Errorf("workspace: %w", err)
			}
			c.TrustClientRoots = ws.TrustClientRoots
			if ws.Roots == nil {
				// Keep the default roots: drop the key from what follows.
				n = &yaml.Node{Kind: yaml.MappingNode, Tag: n.Tag, Content: append(append([]*yaml.Node{}, n.Content[:i]...), n.Content[i+2:]...)}
			} else {
				seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
				for _, r := range ws.Roots {
					seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: r})
				}
				content := append([]*yaml.Node{}, n.Content...)
				content[i+1] = seq
				n = &yaml.Node{Kind: yaml.MappingNode, Tag: n.Tag, Content: content}
			}
			break
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return n.Decode((*plainConfig)(c))
}
