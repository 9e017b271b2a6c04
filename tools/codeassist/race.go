//go:build race

package codeassist

// raceBuild: the race detector needs its address space unlimited.
const raceBuild = true
