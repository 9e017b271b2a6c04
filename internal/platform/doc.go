// Package platform holds the few process and file operations that differ
// between operating systems, so the rest of clawbridge builds for Linux,
// macOS and Windows (release archives are CGO_ENABLED=0 for all three).
// Linux is where every tool works; elsewhere these degrade to what the
// system offers, and the tools that need Linux programs (bubblewrap,
// LibreOffice, ...) say they are unavailable (see `clawbridge doctor`).
package platform
