// Package clustertest runs scripts/cluster.sh for tests and benchmarks:
// clawbridge instances on loopback behind nginx, on a fresh schema of the
// PostgreSQL that scripts/start-postgres.sh starts. It does not build the
// binary or talk MCP; callers do.
package clustertest

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Options say what to start.
type Options struct {
	Root        string   // the repository root, where scripts/ is (e.g. ".." from a package dir)
	Bin         string   // the clawbridge binary
	Dir         string   // configs, logs, workspace (workspace/ is the instances' root); empty: a temp dir
	Instances   int      // 0: the script's default, 3
	MaxSessions int      // http.max_sessions of each instance; 0: the script's default
	Env         []string // more variables for the instances, e.g. CLAWBRIDGE_CONFIRM=token
}

// Cluster is a started cluster. It is stopped, and its schema dropped, when
// the test ends (or at Stop).
type Cluster struct {
	Dir, URL, Token string
	Schema, DSN     string // the test database and the cluster's schema in it
	env             []string
	root            string
	stop            sync.Once
}

// Missing names the first program the cluster needs that is not installed,
// or is "".
func Missing() string {
	for _, prog := range []string{"nginx", "psql"} {
		if _, err := exec.LookPath(prog); err != nil {
			return prog
		}
	}
	return ""
}

// Start starts a cluster; see Missing for what it needs.
func Start(tb testing.TB, o Options) *Cluster {
	tb.Helper()
	out, err := exec.Command(filepath.Join(o.Root, "scripts/start-postgres.sh")).Output()
	if err != nil {
		tb.Fatalf("start-postgres.sh: %v", err)
	}
	var rnd [6]byte
	rand.Read(rnd[:])
	c := &Cluster{Dir: o.Dir, Schema: "cbcluster_" + hex.EncodeToString(rnd[:]), root: o.Root,
		DSN: strings.TrimPrefix(strings.TrimSpace(string(out)), "export CLAWBRIDGE_TEST_PG_DSN=")}
	if c.Dir == "" {
		c.Dir = tb.TempDir()
	}
	n := o.Instances
	if n == 0 {
		n = 3
	}
	c.env = append(os.Environ(), "CLAWBRIDGE_BIN="+o.Bin, "CLAWBRIDGE_CLUSTER_DIR="+c.Dir,
		"CLAWBRIDGE_CLUSTER_PORT="+strconv.Itoa(FreePorts(tb, n+1)), "CLAWBRIDGE_CLUSTER_SCHEMA="+c.Schema,
		"CLAWBRIDGE_CLUSTER_INSTANCES="+strconv.Itoa(n))
	if o.MaxSessions > 0 {
		c.env = append(c.env, "CLAWBRIDGE_CLUSTER_MAX_SESSIONS="+strconv.Itoa(o.MaxSessions))
	}
	c.env = append(c.env, o.Env...)
	tb.Cleanup(func() { c.Stop(tb) })
	if out, err = c.Script("start"); err != nil {
		tb.Fatal(err)
	}
	for l := range strings.SplitSeq(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "export CLAWBRIDGE_CLUSTER_URL="); ok {
			c.URL = v
		}
		if v, ok := strings.CutPrefix(l, "export CLAWBRIDGE_CLUSTER_TOKEN="); ok {
			c.Token = v
		}
	}
	if c.URL == "" || c.Token == "" {
		tb.Fatalf("cluster.sh start printed %q", out)
	}
	return c
}

// Script runs scripts/cluster.sh with arg (start, stop, status, …) in the
// cluster's environment.
func (c *Cluster) Script(arg string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(c.root, "scripts/cluster.sh"), arg)
	cmd.Env = c.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("cluster.sh %s: %v\n%s", arg, err, stderr.String())
	}
	return out, nil
}

// Stop stops the instances and nginx and drops the schema, once.
func (c *Cluster) Stop(tb testing.TB) {
	c.stop.Do(func() {
		if _, err := c.Script("stop"); err != nil {
			tb.Error(err)
		}
		if out, err := exec.Command("psql", c.DSN, "-qAtc", "DROP SCHEMA IF EXISTS "+c.Schema+" CASCADE").CombinedOutput(); err != nil {
			tb.Errorf("dropping %s: %v %s", c.Schema, err, out)
		}
	})
}

// Upstreams counts the requests each instance answered, from nginx's log
// ("$upstream_addr $status $request"; the address is a list "a, b" when
// nginx moved on from a refused instance: the last one answered).
func (c *Cluster) Upstreams(tb testing.TB) map[string]int {
	f, err := os.Open(filepath.Join(c.Dir, "nginx-access.log"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		i := 0
		for i < len(fields)-1 && strings.HasSuffix(fields[i], ",") {
			i++
		}
		if len(fields) > 0 && fields[i] != "-" {
			seen[fields[i]]++
		}
	}
	return seen
}

// FreePorts finds n consecutive free loopback ports and returns the first.
func FreePorts(tb testing.TB, n int) int {
	for range 50 {
		var r [2]byte
		rand.Read(r[:])
		base := 20000 + int(r[0])<<6 + int(r[1])%64
		ok := true
		for i := range n {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+i))
			if err != nil {
				ok = false
				break
			}
			l.Close()
		}
		if ok {
			return base
		}
	}
	tb.Fatal("no free ports")
	return 0
}
