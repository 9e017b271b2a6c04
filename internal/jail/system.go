package jail

import (
	"fmt"
	"github.com/clawbridge/clawbridge/internal/platform"
	"os"
	"path/filepath"
	"strconv"
)

// usrLinks are the top-level system directories; on a usrmerge system
// (Debian 12+) they are symlinks into /usr and are recreated as such.
var usrLinks = []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// etcFiles are the only parts of /etc the jail shows: what the dynamic
// loader, fontconfig, time zone and name lookups of LibreOffice, poppler,
// coreutils, grep, diff and file read. Not /etc/shadow, not the host's
// passwd (the jail gets its own), nothing else.
var etcFiles = []string{
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
	"/etc/fonts", "/etc/localtime", "/etc/timezone", "/etc/nsswitch.conf",
	"/etc/alternatives", "/etc/libreoffice", "/etc/magic", "/etc/mime.types",
	"/etc/papersize", "/etc/ssl/certs", "/etc/ca-certificates.conf",
	// Not /etc, but as harmless: the system font cache, without which
	// fontconfig rebuilds it on every LibreOffice start.
	"/var/cache/fontconfig",
}

// shmBytes is the size of the jail's /dev/shm: enough for the semaphores
// and small shared buffers of Python's multiprocessing and the like, and
// no place to park the host's RAM outside the caps.
const shmBytes = 64 << 20

// bwrapArgs builds the bwrap command line up to the program (without the
// final "--"), and the files it reads the jail's /etc/passwd and /etc/group
// from (ExtraFiles, so fds 3 and 4).
func bwrapArgs(spec Spec, binds []Bind, hide []string) ([]string, []*os.File, []*os.File, error) {
	lim := spec.Limits.withDefaults()
	a, err := systemArgs()
	if err != nil {
		return nil, nil, nil, err
	}
	uid, gid := os.Getuid(), os.Getgid()
	name := "jail"
	if uid == 0 {
		name = "root"
	}
	passwd := fmt.Sprintf("%s:x:%d:%d:jail:%s:/usr/sbin/nologin\n", name, uid, gid, jailHome)
	group := fmt.Sprintf("%s:x:%d:\n", name, gid)
	files, err := dataFiles(passwd, group)
	if err != nil {
		return nil, nil, nil, err
	}
	var bindFiles []*os.File
	fail := func(err error) ([]string, []*os.File, []*os.File, error) {
		closeAll(files)
		closeAll(bindFiles)
		return nil, nil, nil, err
	}
	a = append(a, "--ro-bind-data", "3", "/etc/passwd", "--ro-bind-data", "4", "/etc/group")
	// bwrap's /dev is a tmpfs of half the host's RAM with /dev/shm in it:
	// /dev/shm gets a small tmpfs of its own, and /dev goes read-only below
	// (its device nodes are binds and keep working).
	a = append(a, "--proc", "/proc", "--dev", "/dev",
		"--size", strconv.Itoa(shmBytes), "--tmpfs", "/dev/shm")
	if lim.FileSizeMB > 0 {
		a = append(a, "--size", strconv.FormatInt(int64(lim.FileSizeMB)<<20, 10))
	}
	a = append(a, "--tmpfs", "/tmp", "--dir", jailHome)
	// The fds of read-only file binds come after the passwd and group
	// files and the caller's ExtraFiles.
	a, bindFiles, err = bindArgs(a, binds, 3+len(files)+len(spec.ExtraFiles))
	if err != nil {
		return fail(err)
	}
	for _, t := range spec.Tmpfs {
		if err := checkTarget(t.Target); err != nil {
			return fail(err)
		}
		if t.SizeMB <= 0 {
			return fail(fmt.Errorf("jail: tmpfs %s has no size", t.Target))
		}
		a = append(a, "--size", strconv.FormatInt(int64(t.SizeMB)<<20, 10), "--tmpfs", t.Target)
	}
	for _, h := range hide {
		a = append(a, "--tmpfs", h, "--remount-ro", h)
	}
	// The root bwrap builds is a tmpfs; read-only, it leaves /tmp, /dev/shm
	// and the writable binds the only places a program can write.
	a = append(a, "--remount-ro", "/dev", "--remount-ro", "/")
	dir := spec.Dir
	if dir == "" {
		dir = jailHome
	}
	if err := checkPath("working dir", dir); err != nil {
		return fail(err)
	}
	return append(a, "--chdir", dir), files, bindFiles, nil
}

// systemArgs are bwrap's namespaces and the read-only system: /usr, the
// links or directories beside it (/bin, /lib, ...) and the /etc files
// programs need.
func systemArgs() ([]string, error) {
	a := []string{
		"--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--unshare-cgroup-try",
		"--disable-userns", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
		"--hostname", "jail",
		"--ro-bind", "/usr", "/usr",
	}
	for _, l := range usrLinks {
		fi, err := os.Lstat(l)
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(l)
			if err != nil {
				return nil, fmt.Errorf("jail: %w", err)
			}
			a = append(a, "--symlink", target, l)
		case fi.IsDir():
			a = append(a, "--ro-bind", l, l)
		}
	}
	for _, e := range etcFiles {
		a = append(a, "--ro-bind-try", e, e)
	}
	return a, nil
}

// bindArgs appends the binds to a. A read-only file is bound by an fd
// opened and checked here, not by its path: a file swapped for a FIFO (or
// anything else) after the caller checked it would otherwise be what the
// program opens. The fds are numbered from next; their files are returned
// (closed on error).
func bindArgs(a []string, binds []Bind, next int) ([]string, []*os.File, error) {
	var bindFiles []*os.File
	for _, b := range binds {
		if b.Writable {
			a = append(a, "--bind", b.Source, b.Target)
			continue
		}
		f, isFile, err := openBindSource(b.Source)
		if err != nil {
			closeAll(bindFiles)
			return nil, nil, err
		}
		if !isFile {
			a = append(a, "--ro-bind", b.Source, b.Target)
			continue
		}
		bindFiles = append(bindFiles, f)
		a = append(a, "--ro-bind-fd", strconv.Itoa(next), b.Target)
		next++
	}
	return a, bindFiles, nil
}

// openBindSource opens a read-only bind's source (a real path: its links
// were evaluated) without following a link put there since and without
// blocking: a regular file comes back open for an fd bind, a directory is
// bound by path, anything else is refused.
func openBindSource(src string) (*os.File, bool, error) {
	f, err := platform.OpenNoFollow(src)
	if err != nil {
		return nil, false, fmt.Errorf("jail: bind source: %w", err)
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, false, fmt.Errorf("jail: bind source: %w", err)
	case fi.IsDir():
		f.Close()
		return nil, false, nil
	case !fi.Mode().IsRegular():
		f.Close()
		return nil, false, fmt.Errorf("jail: bind source %s is not a regular file or a directory", filepath.Base(src))
	}
	return f, true, nil
}

// dataFiles returns pipes already holding each text, read ends open.
func dataFiles(texts ...string) ([]*os.File, error) {
	var out []*os.File
	for _, t := range texts {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(out)
			return nil, fmt.Errorf("jail: pipe: %w", err)
		}
		_, err = w.WriteString(t) // far below the pipe buffer
		w.Close()
		if err != nil {
			r.Close()
			closeAll(out)
			return nil, fmt.Errorf("jail: pipe: %w", err)
		}
		out = append(out, r)
	}
	return out, nil
}
