package config

import (
	"fmt"

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

// UnmarshalYAML accepts workspace as a list of roots or as a mapping with
// roots and trust_client_roots; everything else decodes as usual.
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	type plain Config // without this method
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value != "workspace" || v.Kind != yaml.MappingNode {
				continue
			}
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
	return n.Decode((*plain)(c))
}
