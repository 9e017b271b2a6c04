package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The release tests check what `make release-check` (run by `make test`
// before go test) or `make release-snapshot` left in dist/: the bundle for
// this machine and server.json. Without them they skip, or fail when
// CLAWBRIDGE_REQUIRE_PROGRAMS is set.

const dist = "../dist"

func needDist(t *testing.T, pattern string) []string {
	t.Helper()
	found, _ := filepath.Glob(filepath.Join(dist, pattern))
	if len(found) == 0 {
		msg := "no " + pattern + " in dist/: run make release-check (make test does) or make release-snapshot"
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return found
}

func mcpbCLI(t *testing.T) string {
	t.Helper()
	cli, _ := filepath.Abs("../.cache/mcpb/node_modules/.bin/mcpb")
	if _, err := os.Stat(cli); err != nil {
		if os.Getenv("CLAWBRIDGE_REQUIRE_PROGRAMS") != "" {
			t.Fatal("no mcpb CLI: run scripts/install-mcpb.sh")
		}
		t.Skip("no mcpb CLI: run scripts/install-mcpb.sh")
	}
	return cli
}

// TestBundle_UnpacksAndServesToolsFromItsEntryPoint: the bundle for this
// machine, unpacked by the official mcpb CLI, is a binary server whose
// entry point, started as the manifest says (command, args, env with the
// user's workspace and confirmation policy filled in), answers tools/list
// over stdio with the tools the manifest lists, and reports the commit it
// was built from.
func TestBundle_UnpacksAndServesToolsFromItsEntryPoint(t *testing.T) {
	bundle := needDist(t, "clawbridge_*_"+runtime.GOOS+"_"+runtime.GOARCH+".mcpb")[0]
	dir := t.TempDir()
	if out, err := exec.Command(mcpbCLI(t), "unpack", bundle, dir).CombinedOutput(); err != nil {
		t.Fatalf("mcpb unpack: %v\n%s", err, out)
	}
	var m struct {
		Version string
		Server  struct {
			Type       string
			EntryPoint string `json:"entry_point"`
			MCPConfig  struct {
				Command string
				Args    []string
				Env     map[string]string
			} `json:"mcp_config"`
		}
		Tools      []manifestTool
		UserConfig map[string]struct {
			Type    string
			Default any
		} `json:"user_config"`
		Compatibility struct{ Platforms []string }
	}
	if err := readJSON(filepath.Join(dir, "manifest.json"), &m); err != nil {
		t.Fatal(err)
	}
	if m.Server.Type != "binary" || !slices.Equal(m.Server.MCPConfig.Args, []string{"serve"}) {
		t.Fatalf("server %+v: want a binary run as `serve`", m.Server)
	}
	if !slices.Equal(m.Compatibility.Platforms, []string{platformOf[runtime.GOOS]}) {
		t.Errorf("compatibility platforms %v; want [%s]", m.Compatibility.Platforms, platformOf[runtime.GOOS])
	}
	if m.UserConfig["workspace"].Type != "directory" || m.UserConfig["confirm"].Type != "string" {
		t.Errorf("user_config %+v: want a workspace directory and a confirm policy", m.UserConfig)
	}
	for _, f := range []string{"LICENSE", "README.md", m.Server.EntryPoint} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("bundle lacks %s: %v", f, err)
		}
	}

	// What the client does: substitute the bundle's folder and the
	// user's answers, then start the command.
	home := t.TempDir()
	workspace := filepath.Join(home, "chosen-workspace")
	os.WriteFile(filepath.Join(home, "empty.yaml"), []byte("{}\n"), 0o600)
	answers := map[string]string{"${__dirname}": dir, "${user_config.workspace}": workspace, "${user_config.confirm}": "deny"}
	expand := func(s string) string {
		for k, v := range answers {
			s = strings.ReplaceAll(s, k, v)
		}
		return s
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "CLAWBRIDGE_CONFIG=" + filepath.Join(home, "empty.yaml"), "CLAWBRIDGE_EXPOSURE=full"}
	for k, v := range m.Server.MCPConfig.Env {
		env = append(env, k+"="+expand(v))
	}
	command := expand(m.Server.MCPConfig.Command)
	if command != filepath.Join(dir, m.Server.EntryPoint) {
		t.Errorf("command %s is not the entry point %s", command, m.Server.EntryPoint)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.NewStdioMCPClient(command, env, m.Server.MCPConfig.Args...)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "bundle-test", Version: "1"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.ServerInfo.Version != m.Version {
		t.Errorf("serverInfo version %q; the manifest says %q", res.ServerInfo.Version, m.Version)
	}
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var served, listed []string
	for _, tl := range list.Tools {
		served = append(served, tl.Name)
	}
	for _, tl := range m.Tools {
		listed = append(listed, tl.Name)
	}
	slices.Sort(served)
	slices.Sort(listed)
	if len(served) < 30 || !slices.Equal(served, listed) {
		t.Errorf("the entry point serves %v;\nthe manifest lists %v", served, listed)
	}
	// The user's answers reached the server: the workspace it made is the
	// chosen folder.
	if fi, err := os.Stat(workspace); err != nil || !fi.IsDir() {
		t.Errorf("the chosen workspace %s was not used: %v", workspace, err)
	}

	out, err := exec.Command(command, "--version").Output()
	head, gerr := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil || gerr != nil {
		t.Fatalf("--version: %v; git: %v", err, gerr)
	}
	want := "clawbridge " + m.Version + " (commit " + strings.TrimSpace(string(head)) + ", built "
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("--version printed %q; want it to start with %q", out, want)
	}
}

// TestServerJSON_MeetsTheRegistrysRules: dist/server.json validates against
// the MCP Registry's schema and its publishing rules, and each bundle's
// SHA-256 is that of the file released.
func TestServerJSON_MeetsTheRegistrysRules(t *testing.T) {
	path := needDist(t, "server.json")[0]
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if problems := registryProblems(t, data); len(problems) > 0 {
		t.Errorf("%s:\n%s", path, strings.Join(problems, "\n"))
	}
	var doc struct {
		Packages []struct {
			Identifier string
			FileSha256 string
		}
	}
	json.Unmarshal(data, &doc)
	bundles := needDist(t, "*.mcpb")
	if len(doc.Packages) != len(bundles) {
		t.Errorf("server.json names %d packages; dist has %d bundles", len(doc.Packages), len(bundles))
	}
	for _, p := range doc.Packages {
		file := filepath.Join(dist, filepath.Base(p.Identifier))
		out, err := exec.Command("sha256sum", file).Output() // a second program's sum
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if sum := strings.Fields(string(out))[0]; sum != p.FileSha256 {
			t.Errorf("%s: fileSha256 %s; sha256sum says %s", file, p.FileSha256, sum)
		}
	}
}

// TestRegistryRules_RefuseWhatTheRegistryRefuses: the checks above are not
// vacuous: each broken variant of a valid entry is refused.
func TestRegistryRules_RefuseWhatTheRegistryRefuses(t *testing.T) {
	bundle := filepath.Join(t.TempDir(), "clawbridge_1.2.3_linux_amd64.mcpb")
	os.WriteFile(bundle, []byte("not really a bundle"), 0o644)
	h, _ := homeOf("github.com/clawbridge/clawbridge")
	valid := func() map[string]any {
		s, err := serverJSON(h, "1.2.3", []string{bundle})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	encode := func(s map[string]any) []byte { b, _ := json.Marshal(s); return b }
	if p := registryProblems(t, encode(valid())); len(p) > 0 {
		t.Fatalf("a valid entry is refused: %v", p)
	}
	sum := sha256.Sum256([]byte("not really a bundle"))
	if got := valid()["packages"].([]map[string]any)[0]["fileSha256"]; got != hex.EncodeToString(sum[:]) {
		t.Errorf("fileSha256 %v is not the file's", got)
	}
	for name, breakIt := range map[string]func(s map[string]any){
		"name not reverse-DNS":    func(s map[string]any) { s["name"] = "clawbridge" },
		"name without namespace":  func(s map[string]any) { s["name"] = "nodots/clawbridge" },
		"description of 101":      func(s map[string]any) { s["description"] = strings.Repeat("x", 101) },
		"version latest":          func(s map[string]any) { s["version"] = "latest" },
		"version range":           func(s map[string]any) { s["version"] = "^1.2.3" },
		"package version range":   func(s map[string]any) { s["packages"].([]map[string]any)[0]["version"] = "1.x" },
		"bundle without sha":      func(s map[string]any) { delete(s["packages"].([]map[string]any)[0], "fileSha256") },
		"bundle with a short sha": func(s map[string]any) { s["packages"].([]map[string]any)[0]["fileSha256"] = "abc" },
		"no streamable HTTP":      func(s map[string]any) { delete(s, "remotes") },
	} {
		s := valid()
		breakIt(s)
		if p := registryProblems(t, encode(s)); len(p) == 0 {
			t.Errorf("%s: accepted", name)
		}
	}
}

var (
	reverseDNS     = regexp.MustCompile(`^[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+/[a-zA-Z0-9._-]+$`)
	specificSemver = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
)

// registryProblems checks a server.json against the registry's schema
// (testdata/server.schema.json) and the rules the registry applies when it
// is published: a reverse-DNS name, a description of at most 100
// characters, a specific version (server and packages), a SHA-256 for each
// mcpb package, and here the streamable-HTTP endpoint.
func registryProblems(t *testing.T, data []byte) []string {
	t.Helper()
	var problems []string
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile("testdata/server.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		return []string{err.Error()}
	}
	if err := sch.Validate(inst); err != nil {
		problems = append(problems, "schema: "+err.Error())
	}
	var doc struct {
		Name, Description, Version string
		Packages                   []struct {
			RegistryType, Identifier, Version, FileSha256 string
		}
		Remotes []struct{ Type, URL string }
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return append(problems, err.Error())
	}
	if !reverseDNS.MatchString(doc.Name) {
		problems = append(problems, "name "+doc.Name+" is not NAMESPACE/NAME with a reverse-DNS namespace")
	}
	if n := len([]rune(doc.Description)); n == 0 || n > 100 {
		problems = append(problems, "description is not 1 to 100 characters")
	}
	if !specificSemver.MatchString(doc.Version) {
		problems = append(problems, "version "+doc.Version+" is not a specific version")
	}
	for _, p := range doc.Packages {
		if p.Version != "" && !specificSemver.MatchString(p.Version) {
			problems = append(problems, p.Identifier+": version "+p.Version+" is not a specific version")
		}
		if p.RegistryType == "mcpb" && len(p.FileSha256) != 64 {
			problems = append(problems, p.Identifier+": an mcpb package needs its fileSha256")
		}
		if p.RegistryType == "mcpb" && !strings.HasPrefix(p.Identifier, "https://") {
			problems = append(problems, p.Identifier+": an mcpb package is an https download")
		}
	}
	if !slices.ContainsFunc(doc.Remotes, func(r struct{ Type, URL string }) bool { return r.Type == "streamable-http" }) {
		problems = append(problems, "no streamable-http transport")
	}
	return problems
}
